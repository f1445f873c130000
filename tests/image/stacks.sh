#!/bin/bash
# The board image's stack scripts on the host, no board: qemu-layout.sh's filesystems and
# partition tables from the command line the rig deploys (rig.fs.*, rig.parts.*), and
# storage.sh's build_stacks and mount_overlay with cryptsetup, lvm, mdadm, blkid and mount
# replaced by recorders: on blank devices (first boot) each stack is created then started; on
# devices that hold something it is only started, never formatted (negative control: a disk
# the kernel named differently is not overwritten). Under busybox sh, as on the board.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export RIG_CMDLINE=$work/cmdline
sh_=$(command -v busybox >/dev/null && echo "busybox sh" || echo sh)

# ---- qemu-layout.sh -------------------------------------------------------------------------
echo "console=ttyS0 rig.stack.rig-crypt=luks2:/dev/nvme0n1p3 rig.fs.crypt-ext4=ext4:/dev/mapper/rig-crypt:/mnt/crypt-ext4 rig.fs.overlay=overlay:overlay:/mnt/overlay rig.parts.$work/disk=700,830S,256,256" >"$RIG_CMDLINE"
check_eq "the stacked filesystems follow the layout's own, in the command line's order" \
    "$($sh_ -c '. image/qemu-layout.sh; echo "$RIG_FILESYSTEMS"' | awk 'NF {print $1 ":" $2 ":" $3 ":" $4}' | tail -n 3 | tr '\n' ' ')" \
    "loop-ext4:ext4:/mnt/sata-xfs/loop-ext4.img:/mnt/loop-ext4 crypt-ext4:ext4:/dev/mapper/rig-crypt:/mnt/crypt-ext4 overlay:overlay:overlay:/mnt/overlay "
truncate -s 2100M "$work/disk"
$sh_ -c ". image/qemu-layout.sh; layout_partition $work/disk"
check_eq "rig.parts gives the disk's partition table (MiB; S: swap)" \
    "$(sfdisk -d "$work/disk" | sed -n 's/.*size= *\([0-9]*\), type=\([0-9a-f]*\).*/\1:\2/p' | tr '\n' ' ')" \
    "1433600:83 1699840:82 524288:83 524288:83 "
truncate -s 0 "$work/disk"; truncate -s 1024M "$work/disk"
: >"$RIG_CMDLINE"
$sh_ -c ". image/qemu-layout.sh; layout_partition $work/disk"
check_eq "without rig.parts a disk the layout does not know is left alone" "$(sfdisk -d "$work/disk" 2>/dev/null | grep -c size=)" "0"

# ---- storage.sh: build_stacks -----------------------------------------------------------------
# blank DEV answers from $work/used (devices that hold something); the tools log their arguments.
stubs='
log() { echo "$*" >>"$WORK/calls"; }
wait_for_block() { return 0; }
blkid() { for a; do :; done; grep -qx "$a" "$WORK/used" 2>/dev/null && echo ext4; return 0; }
cryptsetup() { log cryptsetup "$@"; }
lvm() { case $1 in vgs) grep -qx vg "$WORK/used" 2>/dev/null ;; lvs) ;; *) log lvm "$@" ;; esac; }
mdadm() { case $1 in --examine) grep -qx md "$WORK/used" 2>/dev/null ;; *) log mdadm "$@" ;; esac; }
mkdir() { :; }
mount() { log mount "$@"; }
'
run_stacks() { # run_stacks USED...: build_stacks with those devices (and vg, md) in use; calls out
    : >"$work/calls"; printf '%s\n' "$@" >"$work/used"
    WORK=$work $sh_ -c ". image/storage.sh; $stubs build_stacks" >"$work/out" 2>&1
    sed "s|$work|W|g" "$work/calls"
}
echo "rig.stack.rig-crypt=luks2:/dev/nvme0n1p3 rig.stack.md0=raid1:/dev/nvme0n1p4,/dev/sda3 rig.stack.vg=lvm:/dev/sda4:112:120" >"$RIG_CMDLINE"
calls=$(run_stacks none)
check_eq "first boot: luks2 formatted (PBKDF2, the image's key) then opened" \
    "$(echo "$calls" | grep ^cryptsetup | cut -d' ' -f2,3,4,5,6,7,8,9,10,11,12)" \
    "luksFormat -q --type luks2 --pbkdf pbkdf2 --pbkdf-force-iterations 1000 --key-file /etc/rig/luks.key /dev/nvme0n1p3
open --type luks2 --key-file /etc/rig/luks.key /dev/nvme0n1p3 rig-crypt"
check_eq "first boot: the md mirror created with a write-intent bitmap" \
    "$(echo "$calls" | grep ^mdadm)" \
    "mdadm --create /dev/md0 --run --level=1 --raid-devices=2 --metadata=1.2 --bitmap=internal --assume-clean /dev/nvme0n1p4 /dev/sda3"
check_eq "first boot: the volume group, its volume and the snapshot, then activated" \
    "$(echo "$calls" | grep ^lvm | tr '\n' ';')" \
    "lvm pvcreate -q /dev/sda4;lvm vgcreate -q vg /dev/sda4;lvm lvcreate -q -y -n lv -L 112m vg;lvm lvcreate -q -y -s -n lv-snap -L 120m vg/lv;lvm vgchange -q -ay vg;lvm vgmknodes -q vg;"
calls=$(run_stacks /dev/nvme0n1p3 md vg)
check_eq "later boots: each stack started, nothing formatted" "$(echo "$calls" | cut -d' ' -f1,2 | tr '\n' ';')" \
    "cryptsetup open;mdadm --assemble;lvm vgchange;lvm vgmknodes;"
# negative control: devices that hold something else are never formatted
calls=$(run_stacks /dev/sda3 /dev/sda4)
check_eq "a raid1 or lvm device holding something else is not formatted" \
    "$(echo "$calls" | grep -c -e 'mdadm --create' -e pvcreate)" "0"
check_eq "... and the image says so" "$(grep -c 'is not blank: not creating' "$work/out")" "2"

# ---- storage.sh: mount_overlay ---------------------------------------------------------------
echo "rig.mountopts.ovl=lowerdir=$work/a:$work/b,upperdir=$work/u,workdir=$work/w" >"$RIG_CMDLINE"
: >"$work/calls"
WORK=$work $sh_ -c ". image/storage.sh; $stubs unset -f mkdir; mount_overlay ovl $work/o" >/dev/null
check_eq "an overlay's directories are created" "$(ls "$work" | grep -x -e a -e b -e u -e w | tr '\n' ' ')" "a b u w "
check_eq "... and it is mounted with the board's options" "$(sed "s|$work|W|g" "$work/calls")" \
    "mount -t overlay overlay -o lowerdir=W/a:W/b,upperdir=W/u,workdir=W/w W/o"

finish "tests/image/stacks.sh"
