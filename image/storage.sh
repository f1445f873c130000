# Storage helpers shared by both board images (sourced, POSIX sh): the busybox board's /init and
# the Debian board's rig-storage unit. They need /etc/rig/layout.sh (RIG_FILESYSTEMS,
# RIG_LOOP_SIZE_MB) sourced first. Messages start with "rig-init:" so the rig can tell them from
# the kernel's.

say() { echo "rig-init: $*"; }

wait_for_block() {
    tries=0
    while [ ! -b "$1" ]; do
        tries=$((tries + 1))
        [ $tries -gt 200 ] && { say "device $1 did not appear"; return 1; }
        sleep 0.1
    done
}

mkfs_for() {
    case $1 in
        ext4) mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$2" ;;
        xfs) mkfs.xfs -q -f "$2" ;;
        btrfs) mkfs.btrfs -q -f "$2" ;;
        *) say "unknown filesystem type $1"; return 1 ;;
    esac
}

# apply_cache_types: for each rig.cache_type.DISK=VALUE on the kernel command line (DISK a SCSI/SATA
# disk such as sda, VALUE with '_' for spaces), write VALUE to the disk's scsi_disk cache_type.
# "temporary_write_through" makes the kernel believe the drive has no volatile write cache
# without telling the drive: the kernel then sends it no flush at all, not even when it
# suspends (a negative control for drives with volatile caches, boards/README.md).
apply_cache_types() {
    for word in $(cat /proc/cmdline); do
        case $word in rig.cache_type.*=*) ;; *) continue ;; esac
        disk=${word#rig.cache_type.}; disk=${disk%%=*}
        value=$(echo "${word#*=}" | tr _ ' ')
        wait_for_block "/dev/$disk" || continue
        for f in /sys/block/"$disk"/device/scsi_disk/*/cache_type; do
            if [ -w "$f" ] && echo "$value" >"$f"; then
                say "$disk cache_type: $value (now $(cat "$f"))"
            else
                say "$disk cache_type: cannot set $value"
            fi
        done
    done
}

# mount_options NAME: the board's options for filesystem NAME (filesystems[].options in the board
# file; the rig passes them as rig.mountopts.NAME=OPTIONS on the kernel command line), or nothing.
mount_options() {
    for word in $(cat /proc/cmdline); do
        case $word in "rig.mountopts.$1="*) echo "${word#*=}"; return 0 ;; esac
    done
}

mount_filesystems() {
    echo "$RIG_FILESYSTEMS" | while read -r name type dev mnt; do
        [ -n "$name" ] || continue
        mkdir -p "$mnt"
        if [ ! -b "$dev" ]; then            # a loop image on another filesystem
            if [ ! -f "$dev" ]; then
                truncate -s "${RIG_LOOP_SIZE_MB}M" "$dev" && mkfs_for "$type" "$dev"
            fi
            loopdev=$(losetup -f --show "$dev") || { say "losetup $dev failed"; continue; }
            dev=$loopdev
        elif [ -z "$(blkid -o value -s TYPE "$dev")" ]; then
            say "creating $type on $dev (first boot)"
            mkfs_for "$type" "$dev" || continue
        fi
        opts=$(mount_options "$name")
        if mount -t "$type" ${opts:+-o "$opts"} "$dev" "$mnt"; then
            say "mounted $name ($type) $dev on $mnt${opts:+ with $opts}"
        else
            say "mount of $name ($type) $dev on $mnt failed"
        fi
    done
}

enable_swap() {
    swap=$1
    [ -b "$swap" ] || return 0
    [ "$(blkid -o value -s TYPE "$swap")" = swap ] || mkswap "$swap" >/dev/null
    swapon "$swap" && say "swap on $swap"
}
