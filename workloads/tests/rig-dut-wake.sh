#!/bin/bash
# rig-dut's wake accounting (wake_mark before the sleep, wake_report after it: workloads/agent/
# rig-dut.sh) over a stand-in /sys and /proc: the line it prints is what the rig's judge reads
# (ev_parse_wake, rig/tests/unit/test_judge_wake.c parses this very line). A kernel that lacks a
# file gives "unavailable", never an error. No board; under a second.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
eval "$(sed -n '/^wake_snapshot() {/,/^}/p;/^wake_mark() {/p;/^wake_report() {/,/^}/p' workloads/agent/rig-dut.sh)"
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
export RIG_SYSFS=$root/sys RIG_PROC=$root/proc
STATE=$root/state
mkdir -p "$STATE" "$RIG_PROC" "$RIG_SYSFS/power"

source_at() {   # source_at N NAME EVENTS WAKEUPS
    mkdir -p "$RIG_SYSFS/class/wakeup/wakeup$1"
    echo "$2" >"$RIG_SYSFS/class/wakeup/wakeup$1/name"
    echo "$3" >"$RIG_SYSFS/class/wakeup/wakeup$1/event_count"
    echo "$4" >"$RIG_SYSFS/class/wakeup/wakeup$1/wakeup_count"
}
clocks() {      # clocks BOOTTIME_S MONOTONIC_NS
    echo "$1 0.00" >"$RIG_PROC/uptime"
    printf 'Timer List Version: v0.9\nHRTIMER_MAX_CLOCK_BASES: 8\nnow at %s nsecs\n\ncpu: 0\n' "$2" \
        >"$RIG_PROC/timer_list"
}

# A board asleep 5.2 s after 1.3 s of suspend entry and resume: the RTC's interrupt and its
# wakeup source counted; a source that did not change is left out, one with a space in its
# name keeps a name of one word. 00:01 is the RTC's (its device has an rtc/ child, as rtc_cmos's
# PNP device has).
clocks 100.00 90000000000
source_at 0 "00:01" 3 1
mkdir -p "$RIG_SYSFS/class/wakeup/wakeup0/device/rtc/rtc0"
source_at 1 "PNP0C0C:00" 0 0
source_at 2 "alarmtimer.0.auto" 7 2
source_at 3 "serial port" 4 0
wake_mark
clocks 106.50 91300000000
source_at 0 "00:01" 4 2
source_at 2 "alarmtimer.0.auto" 8 2
echo 8 >"$RIG_SYSFS/power/pm_wakeup_irq"
printf '           CPU0\n  0:         50   IO-APIC   2-edge      timer\n  8:          1   IO-APIC   8-edge      rtc0\n  9:          0   IO-APIC   9-fasteoi   acpi\n' \
    >"$RIG_PROC/interrupts"
check_eq "the clocks, the wakeup IRQ by name, the sources that counted" "$(wake_report)" \
    "wake irq=8 irq_name=rtc0 asleep_ms=5200 awake_ms=1300 sources=00_01:1:1,alarmtimer.0.auto:1:0 rtc=00_01 hw_sleep_ms=unavailable"

# A wakeup source that appeared during the sleep counts from zero.
source_at 4 "usb1" 2 1
check_eq "a source new since the mark" "$(wake_report)" \
    "wake irq=8 irq_name=rtc0 asleep_ms=5200 awake_ms=1300 sources=00_01:1:1,alarmtimer.0.auto:1:0,usb1:2:1 rtc=00_01 hw_sleep_ms=unavailable"

# Nothing changed: "none", not unavailable.
wake_mark
check_eq "no source counted" "$(wake_report)" \
    "wake irq=8 irq_name=rtc0 asleep_ms=0 awake_ms=0 sources=none rtc=00_01 hw_sleep_ms=unavailable"

# Negative control of the RTC's mark: the power button woke the board (what QEMU's
# system_wakeup looks like from an S3 sleep); the RTC's source is listed but did not count.
source_at 5 "LNXPWRBN:00" 0 0
wake_mark
source_at 5 "LNXPWRBN:00" 1 1
check_eq "another source woke it, the RTC's stayed quiet" "$(wake_report | cut -d' ' -f6-7)" \
    "sources=LNXPWRBN_00:1:1 rtc=00_01"

# Two sources of one name (the QEMU board's PNP0B00:00 twice) are named once.
source_at 7 "00:01" 0 0
mkdir -p "$RIG_SYSFS/class/wakeup/wakeup7/device/rtc"
check_eq "an RTC source's name once" "$(wake_report | cut -d' ' -f7)" "rtc=00_01"
rm -rf "$RIG_SYSFS/class/wakeup/wakeup7"

# A source named rtc* is the RTC's without its device; a board without one says none.
source_at 6 "rtc0" 0 0
check_eq "a source named rtc" "$(wake_report | cut -d' ' -f7)" "rtc=00_01,rtc0"
rm -rf "$RIG_SYSFS/class/wakeup/wakeup0/device" "$RIG_SYSFS/class/wakeup/wakeup6"
check_eq "no RTC wakeup source" "$(wake_report | cut -d' ' -f7)" "rtc=none"

# The hardware's own record of its sleep (s2idle on LPS0 platforms): total_hw_sleep in µs.
mkdir -p "$RIG_SYSFS/power/suspend_stats"
echo 1000000 >"$RIG_SYSFS/power/suspend_stats/total_hw_sleep"
wake_mark
echo 5731999 >"$RIG_SYSFS/power/suspend_stats/total_hw_sleep"
check_eq "hw_sleep_ms from total_hw_sleep" "$(wake_report | cut -d' ' -f8)" "hw_sleep_ms=4731"
rm -f "$RIG_SYSFS/power/suspend_stats/total_hw_sleep"
check_eq "total_hw_sleep gone after the mark: unavailable" "$(wake_report | cut -d' ' -f8)" "hw_sleep_ms=unavailable"

# An IRQ /proc/interrupts does not list.
echo 41 >"$RIG_SYSFS/power/pm_wakeup_irq"
check_eq "an IRQ without a name" "$(wake_report | cut -d' ' -f2-3)" "irq=41 irq_name=unavailable"

# A kernel without pm_wakeup_irq (or one that recorded none: the read fails), /proc/timer_list,
# /sys/class/wakeup: every field unavailable, nothing on stderr.
rm -rf "$RIG_SYSFS/power/pm_wakeup_irq" "$RIG_PROC/timer_list" "$RIG_SYSFS/class/wakeup"
wake_mark
out=$(wake_report 2>&1)
check_eq "everything missing: unavailable, no complaint" "$out" \
    "wake irq=unavailable irq_name=unavailable asleep_ms=unavailable awake_ms=unavailable sources=unavailable rtc=unavailable hw_sleep_ms=unavailable"

# The mark taken on a board without the clocks, the report with them: still unavailable.
clocks 100.00 90000000000
check_eq "no clocks at the mark" "$(wake_report | cut -d' ' -f4-5)" "asleep_ms=unavailable awake_ms=unavailable"

# cmd_suspend marks just before it sleeps and prints the report after its result line.
check_eq "cmd_suspend marks before the sleep" \
    "$(sed -n '/^cmd_suspend() {/,/^}/p' workloads/agent/rig-dut.sh | grep -c -e '^    wake_mark$' -e '^    woke=\$(wake_report)$' -e '^    echo "\$woke"$')" 3

finish workloads/tests/rig-dut-wake.sh
