#!/bin/bash
# rig-dut trace-read turns the trace's "SECONDS.MICROS:" stamps into nanoseconds with awk. The
# board's busybox awk reads a digit string 0-7 with a leading 0 as octal ("012345000" is
# 2738688), which moved ~3 % of freeze and thaw stamps up to 0.1 s early. Run under every awk
# this host has (busybox's when installed): the board runs busybox. No board. Also rig-dut
# collect, which the rig runs after every resume instead of trace-read, alive and stall-ops.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
TRACE=$work/trace STATE=$work/state
mkdir -p "$TRACE" "$STATE" "$work/bin"
eval "$(sed -n '/^cmd_trace_read() {/,/^}/p' workloads/agent/rig-dut.sh)"
trace() {
    cat >"$TRACE/trace" <<'T'
# tracer: nop
       rig-dut-415     [000] .....   812.012345: fs_freeze: (freeze_super+0x0/0x360) dev="nvme0n1p1"
       rig-dut-415     [000] .....   812.512345: fs_freeze_done: (freeze_super+0x29b/0x360) dev="nvme0n1p1"
       rig-dut-415     [001] .....   813.000001: fs_thaw: (thaw_super+0x0/0x30) dev="nvme0n1p1"
       rig-dut-415     [001] .....   813.900000: fs_thaw_done: (thaw_super+0x20/0x30) dev="nvme0n1p1"
T
}
want="fs_freeze 812012345000 nvme0n1p1
fs_freeze_done 812512345000 nvme0n1p1
fs_thaw 813000001000 nvme0n1p1
fs_thaw_done 813900000000 nvme0n1p1"
awks="awk"
command -v busybox >/dev/null && busybox awk 'BEGIN{}' 2>/dev/null && awks="$awks busybox"
for a in $awks; do
    if [ "$a" = busybox ]; then printf '#!/bin/sh\nexec busybox awk "$@"\n' >"$work/bin/awk"; chmod +x "$work/bin/awk"; P=$work/bin:$PATH; else P=$PATH; fi
    trace
    check_eq "$a: stamps with leading zeros in the fraction are decimal" "$(PATH=$P cmd_trace_read)" "$want"
    check_eq "$a: the trace is cleared after reading" "$(cat "$TRACE/trace")" ""
    check_eq "$a: trace.last keeps what was printed" "$(cat "$STATE/trace.last")" "$want"
done
# negative control: the conversion before the fix gives the octal reading under busybox
if [ "${awks#* }" = busybox ]; then
    check_eq "busybox reads 012345000 as octal without the fix" \
        "$(busybox awk 'BEGIN{ print substr("012345" "000000000", 1, 9) + 0 }')" "2738688"
fi
# rig-dut collect: the reads after a resume in one reply, each part after its "collect=" line,
# the trace read before the stall report that uses it; a bad part is refused before any is run.
eval "$(sed -n '/^cmd_collect() {/,/^}/p' workloads/agent/rig-dut.sh)"
cmd_alive() { echo "writer=w1 alive=1"; }
cmd_stall_ops() { echo "window from=$(head -n1 "$STATE/trace.last" | cut -d' ' -f2)"; }
trace
check_eq "collect: parts in order, each after its marker" "$(cmd_collect trace alive stall)" "collect=trace
$want
collect=alive
writer=w1 alive=1
collect=stall
window from=812012345000"
trace
out=$(cmd_collect trace bogus); rc=$?
check_eq "collect: an unknown part is refused (exit 1, nothing run)" "$rc:$out" "1:error=bad-argument arg=bogus"
check "collect: the refused call left the trace unread" grep -q fs_freeze "$TRACE/trace"
echo "awks: $awks"
finish workloads/tests/rig-dut-trace-read.sh
