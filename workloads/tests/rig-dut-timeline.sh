#!/bin/bash
# rig-dut's on-board summary of the kernel's power events (timeline_summarise in
# workloads/agent/rig-dut.sh, `rig-dut timeline-read`) over recorded-style ftrace output in the
# formats of include/trace/events/power.h: the summary is what crosses the 115200-baud console,
# and rig/tests/data/timeline/qemu-deep.summary (this test's expected output) is what the judge's
# parser is unit-tested on (rig/tests/unit/test_judge_timeline.c). Run under the host's awk and,
# when there is one, busybox's (the QEMU board's). No board; under a second.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
data=rig/tests/data/timeline
eval "$(sed -n '/^timeline_summarise() {/,/^}/p' workloads/agent/rig-dut.sh)"

awks=("command awk")
command -v busybox >/dev/null && busybox awk 'BEGIN {}' 2>/dev/null && awks+=("busybox awk")
for a in "${awks[@]}"; do
    awk() { $a "$@"; }
    check_eq "$a: a deep suspend of the QEMU board summarised to the recorded summary" \
        "$(timeline_summarise 1000 <"$data/qemu-deep.trace")" "$(cat "$data/qemu-deep.summary")"
    out=$(timeline_summarise 1000 <"$data/errors.trace")
    check_eq "$a: header counts the lost, unmatched and cut-short events" "$(echo "$out" | sed -n 1p)" \
        "timeline base_ns=100000000000 events=8 devices=2 others=0 marks=1 lost=37 unmatched=2 bad=1 min_us=1000"
    check_eq "$a: a failed callback is kept however short, with its error" \
        "$(echo "$out" | grep 'xhci_hcd')" \
        'dev phase=suspend name="0000:00:14.0" driver="xhci_hcd" start_us=100 dur_us=200 err=-16'
    check_eq "$a: a callback that never ended is open" "$(echo "$out" | grep i915)" \
        'dev phase=suspend name="0000:00:02.0" driver="i915" start_us=400 open=1'
    # negative control: a threshold of 0 keeps every device, so nothing is aggregated
    check_eq "$a: threshold 0 keeps every callback apart" \
        "$(timeline_summarise 0 <"$data/qemu-deep.trace" | grep -c '^dev ')" "28"
    check_eq "$a: no events: a header that says so" "$(echo '# tracer: nop' | timeline_summarise 1000)" \
        "timeline base_ns=0 events=0 devices=0 others=0 marks=0 lost=0 unmatched=0 bad=0 min_us=1000"
    unset -f awk
done
phases=$(grep -o 'phase=[a-z_]*' "$data/qemu-deep.summary" | sort -u | tr '\n' ' ')
check_eq "every phase of a suspend and resume named" "$phases" \
    "phase=complete phase=prepare phase=resume phase=resume_early phase=resume_noirq phase=suspend phase=suspend_late phase=suspend_noirq "

finish workloads/tests/rig-dut-timeline.sh
