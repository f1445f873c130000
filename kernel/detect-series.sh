#!/usr/bin/env bash
# detect-series.sh TREE — does TREE hold the filesystem-freeze-on-suspend series (merged in 6.16)?
# Prints "present" or "absent". Both halves must be there: filesystems_freeze() in fs/super.c and
# the /sys/power/freeze_filesystems attribute in kernel/power/main.c.
set -euo pipefail
tree=${1:?usage: detect-series.sh TREE}
if grep -qs 'filesystems_freeze' "$tree/fs/super.c" &&
   grep -qs 'power_attr(freeze_filesystems)' "$tree/kernel/power/main.c"; then
    echo present
else
    echo absent
fi
