# Disk layout of the QEMU board (boards/qemu.yaml), sourced by /init.
# Disks are partitioned and formatted on first boot only; later boots keep what is on them.

RIG_DISKS="/dev/nvme0n1 /dev/sda"
RIG_SWAP_DEFAULT=/dev/sda2
RIG_LOOP_SIZE_MB=64

# name type device mountpoint — loop images (a file as device) come after the filesystem holding them.
RIG_FILESYSTEMS="
nvme-ext4  ext4  /dev/nvme0n1p1 /mnt/nvme-ext4
nvme-btrfs btrfs /dev/nvme0n1p2 /mnt/nvme-btrfs
sata-xfs   xfs   /dev/sda1      /mnt/sata-xfs
loop-ext4  ext4  /mnt/sata-xfs/loop-ext4.img /mnt/loop-ext4
"

# Filesystems on the board's stacks and overlays, which the rig puts on the kernel command line
# (rig.fs.NAME=TYPE:DEVICE:MOUNT, rig/config/board_stacks.h): after those above, in the board
# file's order, so that each comes after the filesystems it lies on.
for rig_word in $(cat /proc/cmdline 2>/dev/null); do
    case $rig_word in rig.fs.*=*:*:*) ;; *) continue ;; esac
    rig_name=${rig_word#rig.fs.}; rig_name=${rig_name%%=*}
    RIG_FILESYSTEMS="$RIG_FILESYSTEMS$rig_name $(echo "${rig_word#*=}" | tr ':' ' ')
"
done
unset rig_word rig_name

# layout_partition DISK — called for a disk without a partition table. A board whose stacks
# need partitions of their own gives the whole table on its command line instead:
# rig.parts.DISK=SIZE[S],SIZE[S],... (MiB each, S: a swap partition; at most 4, MBR primaries),
# e.g. rig.parts.sda=700,830S,256,256 (boards/qemu-stacked.yaml). Partitions, not more disks:
# a second NVMe controller or AHCI disk may be named before the first by the kernel's parallel
# probing, while a partition number never moves.
layout_partition() {
    rig_parts=""
    for rig_word in $(cat /proc/cmdline 2>/dev/null); do
        case $rig_word in "rig.parts.${1#/dev/}="*) rig_parts=${rig_word#*=} ;; esac
    done
    if [ -n "$rig_parts" ]; then
        echo "$rig_parts" | tr ',' '\n' | while read -r rig_size; do
            case $rig_size in
                *S) echo "size=${rig_size%S}MiB,type=S" ;;
                *) echo "size=${rig_size}MiB" ;;
            esac
        done | sfdisk -q "$1"
        return
    fi
    case $1 in
        /dev/nvme0n1) printf 'size=400MiB\n,\n' | sfdisk -q "$1" ;;
        /dev/sda)     printf 'size=700MiB\n,,S\n' | sfdisk -q "$1" ;;
    esac
}
