#!/usr/bin/env bash
# The virtual bench in make check (vbench/README.md): the bench VM runs rig against the QEMU board
# through a real 8250 UART and gpio-sim GPIO lines, wired by vbench-host. Each scenario of
# vbench/bench/scenario.sh runs inside the bench (rig boot --exec) and prints its own checks.
#
# Usage: tests/vbench/run.sh [SCENARIO...]   (default: every scenario)
# Environment: OUT (default ./out). Keeps the bench's logs in $OUT/vbench/logs.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. tests/lib.sh
out=${OUT:-$top/out}
rig=$out/bin/rig
dir=$out/vbench/run         # vbench/bench-vm.yaml names this directory
logs=$out/vbench/logs
scenarios=("$@")
[ ${#scenarios[@]} -gt 0 ] || scenarios=(units held smoke loss cable powerd baud)

# A DUT left running by an earlier bench would share the board's disk images with the new one.
[ -f "$dir/dut/qemu.pid" ] && kill "$(cat "$dir/dut/qemu.pid")" 2>/dev/null
rm -rf "$dir" "$logs"
mkdir -p "$dir" "$logs"
"$out/vbench/bin/vbench-host" --dir "$dir" --dut-board qemu >"$logs/vbench-host.out" 2>&1 &
host=$!
stop_host() {
    kill "$host" 2>/dev/null
    wait "$host" 2>/dev/null
    cp "$dir/host.log" "$dir"/dut/qemu-serial*.log "$logs/" 2>/dev/null
}
trap stop_host EXIT
for _ in $(seq 100); do
    [ -e "$dir/uart.pty" ] && [ -e "$dir/wire.pty" ] && break
    sleep 0.1
done
check "vbench-host made the bench's serial lines" [ -e "$dir/uart.pty" -a -e "$dir/wire.pty" ]

execs=()
for s in "${scenarios[@]}"; do execs+=(--exec "vbench-scenario $s"); done
start=$(date +%s.%N)
"$rig" boot --board vbench/bench-vm.yaml --timeout 1800 "${execs[@]}" >"$logs/bench.out" 2>"$logs/bench.err"
rc=$?
elapsed=$(echo "$(date +%s.%N) - $start" | bc)
grep -E '^(vbench: |  \[)' "$logs/bench.out"
# The bench's boot: rig boot started (QEMU, firmware and kernel included) to its agent's ready
# line, whose console log stamp is the host's clock. The bench's kernel prints nothing at
# loglevel 4, so the log's first line is already its init's. rig boot names the run directory
# after the board file (bench-vm), not the board (vbench).
console=$(ls -t "$out"/runs/bench-vm/*/console.log 2>/dev/null | head -n1)
if [ -n "$console" ]; then
    grep -m1 -o 'vbench-init: kernel .*' "$console" | sed 's/^/  /'
    awk -F'[][]' -v start="$start" '/@@RIG@@ agent ready/ { printf "  bench: boot to agent = %.1f s\n", $2 - start; exit }' "$console"
fi
check "the bench VM booted and ran every scenario (rig boot exit $rc)" [ "$rc" -ne 3 ]
scenario_rc() { # the [rc=N] rig boot printed after the scenario's command
    awk -v cmd="\$ vbench-scenario $1" '$0 == cmd { on = 1; next } on && /^\[rc=/ { print substr($0, 5, length($0) - 5); exit }' \
        "$logs/bench.out"
}
for s in "${scenarios[@]}"; do
    check "bench scenario $s ran and exited 0" [ "$(scenario_rc "$s")" = 0 ]
done
while read -r line; do
    case $line in
        "vbench: ok - "*) ok "${line#vbench: ok - }" ;;
        "vbench: not ok - "*) fail "${line#vbench: not ok - }" ;;
    esac
done < <(grep -E '^vbench: (not )?ok - ' "$logs/bench.out")
check "rig boot: every scenario exited 0" [ "$rc" -eq 0 ]
[ "$rc" -eq 0 ] || tail -n 20 "$logs/bench.err"
stop_host
trap - EXIT
grep -E 'stopping;' "$logs/host.log" | sed 's/^\[[0-9]*\] /  /'
printf '  bench: %s scenarios in %.0f s\n' "${#scenarios[@]}" "$elapsed"
finish "vbench"
