#!/usr/bin/env bash
# tests/lock/run.sh — one board, one driver: `rig power`, `rig console`, `rig run` and `rig lock`
# against a board that someone else holds, and the sharing of a `rig lock` lease with the
# commands of the same session (a LAVA job's connection and power commands). No VM: every
# refusal happens before a board is touched; about 10 s. The LAVA side (a job's QEMU waiting for
# a board `rig boot` holds, `rig run` refused during a job) is in tests/lava/lava-lab-e2e.sh.
#
# Environment: RIG (default out/bin/rig).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
RIG=$(readlink -f "${RIG:-$top/out/bin/rig}")
[ -x "$RIG" ] || { echo "lock/run.sh: $RIG missing (make rig, or RIG=...)"; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/rig-lock-test.XXXXXX")
export RIG_LOCK_DIR=$work/locks OUT=$work/out
holder=
cleanup() { [ -z "$holder" ] || kill "$holder" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }
rig() { set +e; "$RIG" "$@" >"$work/out.txt" 2>"$work/err.txt" </dev/null; rc=$?; set -e; }
refused() {  # refused WHAT HOLDER_WORDS: exit 3 naming the holder
    if [ "$rc" = 3 ] && grep -q "board qemu is locked by pid $holder ($2" "$work/err.txt"; then
        pass "$1 refused (exit 3): $(grep -o 'locked by pid [0-9]* ([^)]*)' "$work/err.txt" | head -n 1)"
    else
        cat "$work/out.txt" "$work/err.txt"; fail "$1 not refused (exit $rc)"
    fi
}

# A holder started from a subshell: not this shell's child, so nobody's sibling here.
hold() {  # hold SECONDS: board qemu held by `rig lock ... sleep`, like a LAVA job's QEMU
    rm -f "$work/holder"
    ( "$RIG" lock --board qemu -- sleep "$1" & echo $! >"$work/holder"; wait ) &
    # The lock file keeps the last holder's record after it ends: wait for this holder's pid.
    for _ in $(seq 1 50); do
        [ -s "$work/holder" ] && grep -q "\"pid\":$(cat "$work/holder")," "$RIG_LOCK_DIR/qemu.lock" 2>/dev/null &&
            break
        sleep 0.1
    done
    holder=$(cat "$work/holder")
    grep -q "\"pid\":$holder," "$RIG_LOCK_DIR/qemu.lock" 2>/dev/null && return 0
    echo "lock/run.sh: the holder did not take the lock"; exit 2
}

hold 30
rig power --board qemu on;            refused "rig power on" "$RIG lock --board qemu -- sleep 30"
rig power --board qemu cycle;         refused "rig power cycle" "$RIG lock --board qemu"
rig console --board qemu --wait 0;    refused "rig console" "$RIG lock --board qemu"
rig run --board qemu --plan smoke;    refused "rig run" "$RIG lock --board qemu"
rig lock --board qemu -- true;        refused "a second rig lock" "$RIG lock --board qemu"
rig power --board qemu status
if [ "$rc" = 0 ] && [ "$(cat "$work/out.txt")" = off ]; then
    pass "rig power status reads a held board (off)"
else
    cat "$work/out.txt" "$work/err.txt"; fail "rig power status on a held board (exit $rc)"
fi
kill "$holder"; wait 2>/dev/null || true; holder=

# Waiting: the board comes free after 2 s, --wait 10 gets it, --wait 0 would not have.
hold 2
start=$(date +%s.%N)
rig lock --board qemu --wait 10 -- true
took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
if [ "$rc" = 0 ] && grep -q 'waiting up to 10 s: board qemu is locked' "$work/err.txt" &&
   awk -v t="$took" 'BEGIN { exit !(t >= 1.0 && t < 8) }'; then
    pass "rig lock --wait 10 waited ${took} s for the holder to finish, then ran"
else
    cat "$work/err.txt"; fail "rig lock --wait (exit $rc, ${took} s)"
fi
wait 2>/dev/null || true; holder=

# Sharing: a lease's own command, and its siblings (one LAVA dispatcher's connection and power
# commands), drive the board; the power action itself then fails only for want of a QEMU.
rig lock --board qemu -- "$RIG" power --board qemu off
if ! grep -q 'is locked by' "$work/err.txt"; then
    pass "a command run under rig lock drives the board (exit $rc: $(head -c 100 "$work/err.txt"))"
else
    cat "$work/err.txt"; fail "rig power under its own rig lock was refused"
fi
set +e
sh -c "'$RIG' lock --board qemu -- sleep 3 & sleep 0.5; '$RIG' power --board qemu off; echo \"sibling exit \$?\"; wait" \
    >"$work/out.txt" 2>"$work/err.txt"
set -e
if grep -q 'sibling exit' "$work/out.txt" && ! grep -q 'is locked by' "$work/err.txt"; then
    pass "a sibling of the lease (same parent, as under lava-run) shares it"
else
    cat "$work/out.txt" "$work/err.txt"; fail "a sibling of the lease was refused"
fi

# Negative control: the lock is really taken: with no holder at all, nothing is refused.
rig power --board qemu cycle
if ! grep -q 'is locked by' "$work/err.txt"; then
    pass "negative control: with nobody holding the board, rig power is not refused (exit $rc)"
else
    cat "$work/err.txt"; fail "negative control: refused with nobody holding the board"
fi

echo "tests/lock/run.sh: $([ "$failures" = 0 ] && echo all passed || echo "$failures failed")"
[ "$failures" = 0 ]
