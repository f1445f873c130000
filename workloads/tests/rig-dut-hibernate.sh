#!/bin/bash
# rig-dut's choice of hibernation mode (hibernate_mode in workloads/agent/rig-dut.sh) over a
# stand-in /sys: a mode the kernel lists becomes the bracketed one and is reported as mode=; one
# it does not list is refused with the modes it offers (the rig's hibernate-mode verdict fails it,
# rig/judge/hibernate_mode.c), never left to the kernel's default. No board; under a second.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
eval "$(sed -n '/^hibernate_mode() {/,/^}/p;/^kernel_disk_mode() {/,/^}/p' workloads/agent/rig-dut.sh)"
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
export RIG_SYSFS=$root/sys
mkdir -p "$RIG_SYSFS/power"

# A stand-in for the kernel's store: the written word becomes the bracketed one, if listed.
kernel_lists() {   # kernel_lists CURRENT MODE...
    current=$1; shift
    line=
    for m in "$@"; do
        if [ "$m" = "$current" ]; then line="$line [$m]"; else line="$line $m"; fi
    done
    echo "${line# }" >"$RIG_SYSFS/power/disk"
}
# The QEMU board with S3 and S4 (measured: "[platform] shutdown reboot suspend test_resume").
kernel_lists platform platform shutdown reboot suspend test_resume
out=$(hibernate_mode reboot); rc=$?
check_eq "a listed mode is accepted" "$rc" 0
check_eq "the word written reaches the file" "$(cat "$RIG_SYSFS/power/disk")" reboot
check_eq "reports what the file shows afterwards (a plain file here: no bracketed word)" "$out" "mode="
kernel_lists platform platform shutdown reboot suspend test_resume
out=$(hibernate_mode suspend); rc=$?
check_eq "suspend is accepted" "$rc" 0
check_eq "suspend asks for S3 (mem_sleep deep)" "$(cat "$RIG_SYSFS/power/mem_sleep")" deep

# A kernel without ACPI S4 (hibernation_ops unset) does not list platform: refused, naming what
# it offers, and the file is not touched (no silent fallback to its default).
kernel_lists shutdown shutdown reboot suspend test_resume
before=$(cat "$RIG_SYSFS/power/disk")
out=$(hibernate_mode platform); rc=$?
check_eq "an unlisted mode is refused" "$rc" 1
check_eq "the refusal names the mode asked, the kernel's own and the modes offered" "$out" \
    "result=1 error=mode-not-offered asked=platform mode=shutdown offered=shutdown,reboot,suspend,test_resume"
check_eq "the kernel's mode is left alone" "$(cat "$RIG_SYSFS/power/disk")" "$before"

# No hibernation at all (no /sys/power/disk): refused, offered=none.
rm "$RIG_SYSFS/power/disk"
out=$(hibernate_mode shutdown); rc=$?
check_eq "no /sys/power/disk: refused" "$out" "result=1 error=mode-not-offered asked=shutdown mode= offered=none"

finish workloads/tests/rig-dut-hibernate.sh
