#!/usr/bin/env bash
# lab.sh — `make bench-lab`: the virtual bench and the board wired to it, for a person.
# Starts vbench-host, powers the bench VM on and attaches its console (rig console: Ctrl-] q
# quits); in there, rig drives the board as on a lab host:
#     rig powerd --board qemu-bench &
#     rig run --board qemu-bench --plan vbench/plans/smoke.yaml
# Quitting the console powers both off.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
. scripts/lib/common.sh
help_from_header "$@"
out=${OUT:-$top/out}
dir=$out/vbench/run
# A DUT left running by an earlier bench would share the board's disk images with the new one.
[ -f "$dir/dut/qemu.pid" ] && kill "$(cat "$dir/dut/qemu.pid")" 2>/dev/null
rm -rf "$dir"
mkdir -p "$dir"
"$out/vbench/bin/vbench-host" --dir "$dir" --dut-board qemu &
host=$!
cleanup() {
    "$out/bin/rig" power --board vbench/bench-vm.yaml off || true
    kill "$host" 2>/dev/null || true
    wait "$host" 2>/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 100); do [ -e "$dir/wire.pty" ] && break; sleep 0.1; done
"$out/bin/rig" power --board vbench/bench-vm.yaml on
echo "bench-lab: the bench boots; vbench-host logs to $dir/host.log"
"$out/bin/rig" console --board vbench/bench-vm.yaml
