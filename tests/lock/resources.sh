#!/usr/bin/env bash
# tests/lock/resources.sh — exclusion on a board's physical resources (engine/resource_lock.h):
# two board files with different names, used by rigs with different lock directories
# (RIG_LOCK_DIR), that name the same console device. No VM: the console is a pty that never
# speaks (python's openpty), the power backend `true`, so the first `rig run` waits in its first
# boot holding its locks. About 3 s.
#   - the second rig is refused at once (exit 3), naming the device and the holder's pid;
#   - so is a third naming the device through a symlink (locked by realpath);
#   - a rig naming another device in yet another lock directory is not refused (negative
#     control: the separate lock directories alone would keep every rig apart);
#   - once the first rig is gone the device is free again.
# The lock files are in the system directory /run/lock/suspend-rig, whatever RIG_LOCK_DIR says.
#
# Environment: RIG (default out/bin/rig).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
RIG=$(readlink -f "${RIG:-$top/out/bin/rig}")
[ -x "$RIG" ] || { echo "lock/resources.sh: $RIG missing (make rig, or RIG=...)"; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/rig-lock-res.XXXXXX")
export OUT=$work/out
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; done
    wait 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
passed=0 failed=0
ok() { echo "ok - $*"; passed=$((passed + 1)); }
not_ok() { echo "not ok - $*"; failed=$((failed + 1)); }

# ptys: the parent keeps each master open (a pty whose master is closed cannot be opened) and
# writes the slaves' paths
python3 - "$work/ptys" <<'PY' &
import os, select, sys, time
masters, names = [], []
for _ in range(2):
    m, s = os.openpty()
    masters.append(m); names.append(os.ttyname(s)); os.close(s)
with open(sys.argv[1] + ".tmp", "w") as f:
    f.write("\n".join(names) + "\n")
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
while True:   # read what the rigs write, so that they never block on a full pty
    for m in select.select(masters, [], [], 1)[0]:
        try:
            os.read(m, 4096)
        except OSError:   # EIO while no slave is open: do not spin
            time.sleep(0.1)
PY
pids+=($!)
for _ in $(seq 1 50); do [ -s "$work/ptys" ] && break; sleep 0.1; done
pty1=$(sed -n 1p "$work/ptys") pty2=$(sed -n 2p "$work/ptys")
[ -c "$pty1" ] && [ -c "$pty2" ] || { echo "lock/resources.sh: no ptys"; exit 2; }
ln -s "$pty1" "$work/ttyUSB-link"

board() {  # board NAME CONSOLE_PATH: a board file whose console is CONSOLE_PATH
    cat >"$work/$1.yaml" <<YAML
name: $1
description: a board whose console never speaks (tests/lock/resources.sh)
arch: x86_64
console: {transport: pty, path: "$2"}
power:
  backend: command
  command: {on: "true", off: "true", status: "echo on"}
sleep: {states: [deep], wake: [rtc]}
filesystems:
  - {name: nvme-ext4, type: ext4, device: /dev/nvme0n1p1, mount: /mnt/nvme-ext4}
timeouts: {boot: 30, command: 5, suspend: 5, resume: 5, hibernate: 5, restore: 5}
YAML
}
# run NAME LOCKDIR: rig run on board NAME with its own lock directory and database
run() {
    RIG_LOCK_DIR=$work/locks-$2 "$RIG" run --board "$work/$1.yaml" \
        --plan rig/tests/data/engine/suspend.yaml --db "$work/$1.db" -q \
        >"$work/$1.out" 2>"$work/$1.err"
}
# start NAME LOCKDIR: the same in the background; started is the rig's own pid
start() {
    RIG_LOCK_DIR=$work/locks-$2 "$RIG" run --board "$work/$1.yaml" \
        --plan rig/tests/data/engine/suspend.yaml --db "$work/$1.db" -q \
        >"$work/$1.out" 2>"$work/$1.err" &
    started=$!
    pids+=("$started")
}
# waiting NAME: rig run on NAME has its locks and waits in the first boot (its run is stored)
waiting() {
    for _ in $(seq 1 100); do
        [ "$(sqlite3 -readonly "$work/$1.db" "SELECT status FROM runs" 2>/dev/null)" = running ] &&
            return 0
        sleep 0.05
    done
    return 1
}
board_a_id=res-a-$$ board_b_id=res-b-$$ board_c_id=res-c-$$ board_d_id=res-d-$$
board "$board_a_id" "$pty1"
board "$board_b_id" "$pty1"
board "$board_c_id" "$work/ttyUSB-link"
board "$board_d_id" "$pty2"

start "$board_a_id" a; holder=$started
if waiting "$board_a_id"; then ok "rig run on board A holds $pty1, waiting in its first boot"
else not_ok "rig run on board A did not start"; cat "$work/$board_a_id.err"; fi

# refused NAME LOCKDIR WHAT: a second rig on the same device is refused at once, naming it
refused() {
    local start ms rc
    start=$(date +%s%N)
    run "$1" "$2"; rc=$?
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    if [ "$rc" = 3 ] && [ "$ms" -lt 2000 ] &&
       grep -q "board $1's pty console $pty1 is locked by pid $holder (.*$board_a_id.yaml" "$work/$1.err"; then
        ok "$3: refused in $ms ms: $(grep -o 'is locked by pid [0-9]*' "$work/$1.err")"
    else
        not_ok "$3: exit $rc in $ms ms: $(cat "$work/$1.err")"
    fi
}
refused "$board_b_id" b "board B (another name, another lock directory), same device"
refused "$board_c_id" c "board C, the same device through a symlink"
check_file=/run/lock/suspend-rig/console-$(printf '%s' "$pty1" | sed 's,/,_2f,g').lock
if [ -f "$check_file" ] && grep -q "\"pid\":$holder," "$check_file"; then
    ok "the device's lock file is in the system directory, naming the holder ($check_file)"
else
    not_ok "no lock file $check_file naming pid $holder"
fi

# negative control: another device in another lock directory is not refused
start "$board_d_id" d; other=$started
if waiting "$board_d_id"; then ok "board D on $pty2 (another device) runs beside board A"
else not_ok "board D on another device did not start: $(cat "$work/$board_d_id.err")"; fi
kill -TERM "$other" "$holder"; wait "$other" "$holder" 2>/dev/null

# the device is free again once its holder is gone
start "$board_b_id" b; again=$started
if waiting "$board_b_id"; then ok "board B gets $pty1 once board A's rig is gone"
else not_ok "board B still refused after A ended: $(cat "$work/$board_b_id.err")"; fi
kill -TERM "$again"; wait "$again" 2>/dev/null

echo "lock/resources.sh: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
