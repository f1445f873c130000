#!/usr/bin/env bash
# tests/lock/users.sh — board locks between two lab users: root (user A) and rig-lab-b (user B,
# created with `useradd -M` when missing), B's commands run through setpriv. No VM; about 5 s.
#   - a lock file A left behind (mode 0644, stale record) does not keep B from a free board;
#   - a board A holds is refused to B naming pid, user, host and since; the other way round too,
#     though B could not write its record into A's file (the kernel's /proc/locks names B);
#   - a file nobody but its owner may read: a clear error naming owner and mode;
#   - a lock file is created 0666 whatever the creator's umask;
#   - a rig using another lock directory (RIG_LOCK_DIR) warns when the system one holds the board.
# Needs root (to be two users); prints SKIP otherwise.
#
# Environment: RIG (default out/bin/rig).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
RIG=$(readlink -f "${RIG:-$top/out/bin/rig}")
[ -x "$RIG" ] || { echo "lock/users.sh: $RIG missing (make rig, or RIG=...)"; exit 2; }
if [ "$(id -u)" != 0 ]; then
    echo "SKIP: lock/users.sh needs root to act as two users"
    exit 0
fi
userb=rig-lab-b
id -u "$userb" >/dev/null 2>&1 || useradd -M -r -s /usr/sbin/nologin "$userb"
uidb=$(id -u "$userb") gidb=$(id -g "$userb")
work=$(mktemp -d "${TMPDIR:-/tmp}/rig-lock-users.XXXXXX")
chmod 755 "$work"
export RIG_LOCK_DIR=$work/locks
mkdir -m 1777 "$RIG_LOCK_DIR"
board=users-$$
sysfile=/run/lock/suspend-rig/$board.lock
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"; rm -f "$sysfile"
}
trap cleanup EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }
as_b() { setpriv --reuid="$uidb" --regid="$gidb" --clear-groups -- "$@"; }
run() {  # run WHO ARGS...: rig as root (a) or user B (b); rc, out.txt, err.txt
    local who=$1; shift
    set +e
    if [ "$who" = b ]; then as_b "$RIG" "$@"; else "$RIG" "$@"; fi >"$work/out.txt" 2>"$work/err.txt" </dev/null
    rc=$?
    set -e
}
# The holder is started from a subshell: not this shell's child, so not a sibling of the rigs
# this script starts (a sibling would share the lease, as LAVA's commands of one job do).
hold() {  # hold WHO [LOCK_DIR]: board held by WHO's `rig lock ... sleep 30`; holder=its pid
    local who=$1 dir=${2-$RIG_LOCK_DIR} i
    rm -f "$work/holder"
    if [ "$who" = b ]; then
        ( RIG_LOCK_DIR=$dir setpriv --reuid="$uidb" --regid="$gidb" --clear-groups -- "$RIG" lock --board "$board" -- sleep 30 </dev/null >/dev/null 2>&1 &
          echo $! >"$work/holder"; wait ) &
    else
        ( RIG_LOCK_DIR=$dir "$RIG" lock --board "$board" -- sleep 30 </dev/null >/dev/null 2>&1 &
          echo $! >"$work/holder"; wait ) &
    fi
    pids+=("$!")
    for i in $(seq 1 50); do
        if [ -s "$work/holder" ]; then
            holder=$(cat "$work/holder")
            grep -q "FLOCK .* $holder " /proc/locks && { pids+=("$holder"); return 0; }
        fi
        sleep 0.1
    done
    echo "lock/users.sh: $who's holder did not take the lock"; exit 2
}
release() { kill "$holder"; while kill -0 "$holder" 2>/dev/null; do sleep 0.05; done; }

# A's leftover: an old rig's 0644 file naming a process that is long gone.
printf '{"pid":999999,"board":"%s","cmdline":"rig run","since":"2026-01-01 00:00:00"}' "$board" \
    >"$RIG_LOCK_DIR/$board.lock"
chmod 644 "$RIG_LOCK_DIR/$board.lock"
run b lock --board "$board" -- true
if [ "$rc" = 0 ]; then
    pass "user B takes a free board over A's leftover 0644 lock file"
else
    cat "$work/err.txt"; fail "user B refused a free board over A's leftover file (exit $rc)"
fi

hold a
run b lock --board "$board" -- true
if [ "$rc" = 3 ] && grep -q "is locked by pid $holder (.*lock --board $board -- sleep 30) of user root on host $(hostname) since 2" "$work/err.txt"; then
    pass "A's board refused to B naming the holder: $(cat "$work/err.txt")"
else
    cat "$work/err.txt"; fail "A's board not refused to B naming pid, user, host, since (exit $rc)"
fi
release

hold b
run a lock --board "$board" -- true
if [ "$rc" = 3 ] && grep -q "is locked by pid $holder (.*sleep 30) of user $userb on host" "$work/err.txt"; then
    pass "B's board (no record: A's file) refused to A naming B: $(cat "$work/err.txt")"
else
    cat "$work/err.txt"; fail "B's board not refused to A naming B (exit $rc)"
fi
release

chmod 600 "$RIG_LOCK_DIR/$board.lock"
run b lock --board "$board" -- true
if [ "$rc" = 3 ] && grep -q "(owner root, mode 0600) cannot be opened by uid $uidb.*ask its owner or root" "$work/err.txt"; then
    pass "an unreadable lock file: $(cat "$work/err.txt")"
else
    cat "$work/err.txt"; fail "an unreadable lock file not explained (exit $rc)"
fi

rm -f "$RIG_LOCK_DIR/$board.lock"
(umask 077; run a lock --board "$board" -- true)
if [ "$(stat -c %a "$RIG_LOCK_DIR/$board.lock")" = 666 ]; then
    pass "a new lock file is 0666 under umask 077"
else
    fail "a new lock file is $(stat -c %a "$RIG_LOCK_DIR/$board.lock") under umask 077"
fi

# The system directory holds the board; a rig with its own RIG_LOCK_DIR is told so.
hold a ''
run b lock --board "$board" -- true
if [ "$rc" = 0 ] && grep -q "warning: board $board is also held in the system lock directory by pid $holder" "$work/err.txt"; then
    pass "another lock directory warns: $(cat "$work/err.txt")"
else
    cat "$work/err.txt"; fail "no warning for a board held in the system lock directory (exit $rc)"
fi
release

[ "$failures" = 0 ] || { echo "lock/users.sh: $failures failure(s)"; exit 1; }
echo "lock/users.sh: all passed"
