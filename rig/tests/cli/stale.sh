#!/usr/bin/env bash
# stale.sh — a run is stored from its first moment and never stays `running` after its rig is
# gone (issue 22, part 2). No VM: the board's console is a silent unix socket, so `rig run` waits
# in its first boot with its run stored as running; then it is killed or signalled:
#   SIGKILL                 -> left running; `rig results --repair` marks it aborted
#   --repair on a live rig  -> left running, the lock holder named (negative control)
#   another host's run      -> left running by --repair (its lock is not here)
#   SIGKILL, then a new rig run on the board -> the new rig marks the old run aborted
#   SIGINT/TERM/HUP/QUIT 1 s into the first boot -> the rig ends within 2 s, the run aborted
# Usage: rig/tests/cli/stale.sh   (after `make rig`; RIG=path/to/rig to override; about 12 s)
set -uo pipefail
top=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$top"
RIG=$(realpath "${RIG:-$top/out/bin/rig}")
[ -x "$RIG" ] || { echo "stale.sh: $RIG missing (make rig)"; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/rig-stale.XXXXXX")
export RIG_LOCK_DIR=$work/locks OUT=$work/out
console=
rigs=()
cleanup() {
    for p in "${rigs[@]}" $console; do kill -KILL "$p" 2>/dev/null; done
    wait 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
passed=0 failed=0
ok() { echo "ok - $*"; passed=$((passed + 1)); }
not_ok() { echo "not ok - $*"; failed=$((failed + 1)); }
check() { local what=$1; shift; if "$@"; then ok "$what"; else not_ok "$what"; cat "$work/err" 2>/dev/null; fi; }

db=$work/results.db
cat >"$work/board.yaml" <<EOF
name: stale-test
description: a board whose console never speaks (rig/tests/cli/stale.sh)
arch: x86_64
console: {transport: socket, path: "$work/console.sock"}
power:
  backend: command
  command: {on: "true", off: "true", status: "echo on"}
sleep: {states: [deep], wake: [rtc]}
filesystems:
  - {name: nvme-ext4, type: ext4, device: /dev/nvme0n1p1, mount: /mnt/nvme-ext4}
timeouts: {boot: 6, command: 5, suspend: 5, resume: 5, hibernate: 5, restore: 5}
EOF
# the console: accepts every connection and never says a word
python3 - "$work/console.sock" <<'EOF' &
import socket, sys, time
s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(8)
held = []
while True:
    held.append(s.accept()[0])
EOF
console=$!
for _ in $(seq 1 50); do [ -S "$work/console.sock" ] && break; sleep 0.1; done

status() { sqlite3 -readonly "$db" "SELECT status FROM runs WHERE id = $1" 2>/dev/null; }
# start_run: a rig run in the background, waiting in its first boot; sets pid and run (its id)
start_run() {
    "$RIG" run --board "$work/board.yaml" --plan rig/tests/data/engine/suspend.yaml --db "$db" \
        -q >"$work/run.out" 2>"$work/run.err" &
    pid=$!
    rigs+=("$pid")
    run=
    for _ in $(seq 1 100); do
        run=$(sqlite3 -readonly "$db" "SELECT id FROM runs WHERE id > ${last_run:-0} AND
                                       status = 'running' AND host != 'elsewhere'" 2>/dev/null)
        [ -n "$run" ] && break
        sleep 0.05
    done
    [ -n "$run" ] && last_run=$run
}
# ends PID: the process ends within 20 s (polled every 0.1 s)
# (its exit status in ended_rc)
ends() { for _ in $(seq 1 200); do kill -0 "$1" 2>/dev/null || { wait "$1" 2>/dev/null; ended_rc=$?; return 0; }; sleep 0.1; done; return 1; }

# 1. a run is stored before the board answers: running while it boots
check "a run is stored as running from its first moment (before the first boot)" start_run
# 2. SIGKILL leaves it running (nothing can catch that) ...
kill -KILL "$pid"; ends "$pid"
check "after SIGKILL its run is still running" [ "$(status "$run")" = running ]
killed=$run
# 3. ... until the next rig on that board, or rig results --repair
check "a new rig run on the board starts" start_run
check "... and marks the killed rig's run aborted" [ "$(status "$killed")" = aborted ]
check "... saying so" grep -q "run $killed (board stale-test): its rig is gone" "$work/run.err"
# 4. --repair leaves the run of a live rig alone, naming the holder (negative control)
"$RIG" results --db "$db" --repair >"$work/rep" 2>"$work/err"; rc=$?
check "rig results --repair exits 0" [ "$rc" = 0 ]
check "... leaves a live rig's run running" [ "$(status "$run")" = running ]
check "... and names who holds its board" grep -q "run $run (board stale-test): left running: board stale-test is locked by pid $pid" "$work/rep"
kill -KILL "$pid"; ends "$pid"
# 5. another host's run is left alone; this host's killed run is repaired
sqlite3 "$db" "INSERT INTO runs (board, night, started_at, host) VALUES ('stale-test', '2026-12-05', 1, 'elsewhere')"
other=$(sqlite3 "$db" 'SELECT max(id) FROM runs')
"$RIG" results --db "$db" --repair >"$work/rep" 2>"$work/err"; rc=$?
check "rig results --repair exits 0 again" [ "$rc" = 0 ]
check "... and marks the killed rig's run aborted" [ "$(status "$run")" = aborted ]
check "... says so" grep -q "repair: 1 of 2 running run(s) marked aborted" "$work/rep"
check "... and leaves another host's run running" [ "$(status "$other")" = running ]
check "... naming the host" grep -q "run $other (board stale-test): left running: it ran on host elsewhere" "$work/rep"
check "rig results shows the repaired run as aborted" sh -c "'$RIG' results --db '$db' --run $run | grep -q 'status.*aborted'"
# 6. SIGINT, SIGTERM, SIGHUP and SIGQUIT 1 s into the first boot end the boot wait at once (it
#    used to go on to the boot timeout, 6 s here, 180 s on the QEMU board): the rig is gone
#    within 2 s of the signal, its run stored aborted, the stop said in its words
for sig in INT TERM HUP QUIT; do
    if start_run; then
        sleep 1
        sent=$(date +%s%N)
        kill -"$sig" "$pid"
        if ends "$pid"; then
            ms=$(( ($(date +%s%N) - sent) / 1000000 ))
            check "SIG$sig 1 s into the first boot: the rig ends within 2 s (took $ms ms)" [ "$ms" -lt 2000 ]
            check "SIG$sig: exit 3 (the run never reached a cycle), got $ended_rc" [ "$ended_rc" = 3 ]
        else
            not_ok "SIG$sig: the rig did not end within 20 s"
        fi
        check "SIG$sig: its run is stored as aborted" [ "$(status "$run")" = aborted ]
        check "SIG$sig: it says it was stopped during its first boot" \
            grep -q "stopped during its first boot" "$work/run.err"
    else
        not_ok "SIG$sig: no run started"
    fi
done

echo "cli stale: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
