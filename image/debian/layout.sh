# Disk layout of the Debian board (boards/qemu-debian.yaml), sourced by rig-storage and rig-dut.
# The disks come partitioned from `make image-debian` (the root filesystem is nvme0n1p3); the
# test filesystems are created on first boot and kept afterwards, as on the busybox board.

RIG_DISKS="/dev/nvme0n1 /dev/sda"
RIG_SWAP_DEFAULT=/dev/sda2
RIG_LOOP_SIZE_MB=64
# journald's persistent journal (/var/log/journal) lives on this test filesystem.
RIG_JOURNAL_FS=nvme-ext4

# name type device mountpoint — loop images (a file as device) come after the filesystem holding them.
RIG_FILESYSTEMS="
nvme-ext4  ext4  /dev/nvme0n1p1 /mnt/nvme-ext4
nvme-btrfs btrfs /dev/nvme0n1p2 /mnt/nvme-btrfs
sata-xfs   xfs   /dev/sda1      /mnt/sata-xfs
loop-ext4  ext4  /mnt/sata-xfs/loop-ext4.img /mnt/loop-ext4
"

# The disks are partitioned by the image build; nothing to do on the board.
layout_partition() { :; }
