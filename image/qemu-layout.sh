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

# layout_partition DISK — called for a disk without a partition table.
layout_partition() {
    case $1 in
        /dev/nvme0n1) printf 'size=400MiB\n,\n' | sfdisk -q "$1" ;;
        /dev/sda)     printf 'size=700MiB\n,,S\n' | sfdisk -q "$1" ;;
    esac
}
