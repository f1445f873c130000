#!/bin/bash
# rig-dut takes filesystem names from its command line (the rig copies them off the console into
# `rig-dut fio-verify NAME=STATE` and `rig-dut fsfreeze NAME ...`); a name becomes a directory
# it empties with rm -rf, so only plain words (as board files allow) get through. No board.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
STATE=$work/state/run/rig
mkdir -p "$STATE" "$work/state/victim"
touch "$work/state/victim/keep"
RIG_FILESYSTEMS="nvme-ext4 ext4 /dev/nvme0n1 $work/mnt"
eval "$(sed -n '/^plain_name() {/p; /^fs_lines() {/p; /^cmd_fio_verify() {/,/^}/p; /^cmd_fsfreeze() {/,/^}/p' workloads/agent/rig-dut.sh)"

check_eq "a name climbing out of the state directory is refused" "$(cmd_fio_verify '../../victim=AAAA')" \
    "fio=? error=bad-name"
check_eq "... and nothing was removed" "$(ls "$work/state/victim")" "keep"
check_eq "a state that is not base64 is refused" "$(cmd_fio_verify 'nvme-ext4=AA$(id)')" \
    "fio=nvme-ext4 error=bad-state"
check_eq "fsfreeze refuses a name with shell syntax" "$(cmd_fsfreeze 'x;id' state)" "error=bad-name"
# negative control: a plain name passes the check and reaches the lookup
check_eq "a plain unknown name gets as far as the lookup" "$(cmd_fio_verify 'sata-xfs=AAAA')" \
    "fio=sata-xfs error=unknown-filesystem"

finish workloads/tests/rig-dut-names.sh
