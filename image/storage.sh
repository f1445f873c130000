# Storage helpers shared by both board images (sourced, POSIX sh): the busybox board's /init and
# the Debian board's rig-storage unit. They need /etc/rig/layout.sh (RIG_FILESYSTEMS,
# RIG_LOOP_SIZE_MB) sourced first; rig-dut sources them too (mount_options, mount_overlay). Messages start with "rig-init:" so the rig can tell them from
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

# ---- stacks (boards/README.md, `stacks`): block layers between the disks and the filesystems --
# The rig puts each of the board's stacks on the kernel command line as
# rig.stack.NAME=KIND:DEV[,DEV...][:SIZE_MB:SNAPSHOT_MB]; build_stacks creates what is missing
# (first boot: only on devices that hold nothing, so a disk renamed by the kernel is never
# overwritten) and starts the rest. Device-mapper and md run without udev: libdevmapper makes
# the /dev/mapper and /dev/VG nodes itself (DM_DISABLE_UDEV, set by build_stacks).
RIG_LUKS_KEY=/etc/rig/luks.key    # scratch disks: a key in the image is all the secrecy needed

blank() { [ -z "$(blkid -o value -s TYPE "$1")" ]; }

stack_luks2() {   # NAME DEV
    [ -b "/dev/mapper/$1" ] && return 0
    if blank "$2"; then
        say "creating luks2 $1 on $2 (first boot)"
        # pbkdf2 with few iterations: argon2's memory-hard default needs a good part of the
        # board's RAM and minutes under TCG at every boot; the key is no secret here
        cryptsetup luksFormat -q --type luks2 --pbkdf pbkdf2 --pbkdf-force-iterations 1000 \
            --key-file "$RIG_LUKS_KEY" "$2" || return 1
    fi
    cryptsetup open --type luks2 --key-file "$RIG_LUKS_KEY" "$2" "$1" || return 1
    say "luks2 $1: $2 -> /dev/mapper/$1"
}

stack_lvm() {     # VG DEVS SIZE_MB SNAPSHOT_MB
    devs=$(echo "$2" | tr , ' ')
    if ! lvm vgs "$1" >/dev/null 2>&1; then
        for d in $devs; do blank "$d" || { say "lvm $1: $d is not blank: not creating"; return 1; }; done
        say "creating lvm $1 on $devs (first boot)"
        lvm pvcreate -q $devs && lvm vgcreate -q "$1" $devs &&
            lvm lvcreate -q -y -n lv -L "${3}m" "$1" || return 1
        # the snapshot before any filesystem: both volumes get their own (blank at creation)
        if [ "${4:-0}" -gt 0 ]; then lvm lvcreate -q -y -s -n lv-snap -L "${4}m" "$1/lv" || return 1; fi
    fi
    lvm vgchange -q -ay "$1" >/dev/null || return 1
    lvm vgmknodes -q "$1" >/dev/null 2>&1
    say "lvm $1: $(lvm lvs --noheadings -o lv_name,lv_size,origin,snap_percent "$1" 2>&1 | tr -s ' \n' ' ')"
}

stack_raid1() {   # MD DEVS
    devs=$(echo "$2" | tr , ' ')
    mkdir -p /run/mdadm
    [ -b "/dev/$1" ] && [ -e "/sys/block/$1/md/array_state" ] &&
        [ "$(cat "/sys/block/$1/md/array_state")" != clear ] && return 0
    if mdadm --examine $devs >/dev/null 2>&1; then
        mdadm --assemble --run "/dev/$1" $devs || return 1
    else
        for d in $devs; do blank "$d" || { say "raid1 $1: $d is not blank: not creating"; return 1; }; done
        say "creating raid1 $1 on $devs (first boot)"
        # a write-intent bitmap: after a power cut only the dirty regions resync, not the whole
        # mirror under the workloads
        mdadm --create "/dev/$1" --run --level=1 --raid-devices=2 --metadata=1.2 \
            --bitmap=internal --assume-clean $devs || return 1
    fi
    say "raid1 $1: $(cat "/sys/block/$1/md/array_state" 2>/dev/null) $(grep "^$1 " /proc/mdstat)"
}

build_stacks() {
    export DM_DISABLE_UDEV=1
    export LVM_SUPPRESS_FD_WARNINGS=1    # /init's console and pipes are not lvm's business
    mkdir -p /run/cryptsetup /run/lock/lvm
    for word in $(cat /proc/cmdline); do
        case $word in rig.stack.*=*) ;; *) continue ;; esac
        name=${word#rig.stack.}; name=${name%%=*}
        spec=${word#*=}
        kind=${spec%%:*}; rest=${spec#*:}
        devs=${rest%%:*}
        for d in $(echo "$devs" | tr , ' '); do wait_for_block "$d" || continue 2; done
        case $kind in
            luks2) stack_luks2 "$name" "$devs" ;;
            lvm) sizes=${rest#*:}; stack_lvm "$name" "$devs" "${sizes%%:*}" "${sizes#*:}" ;;
            raid1) stack_raid1 "$name" "$devs" ;;
            *) say "stack $name: unknown kind $kind"; false ;;
        esac || say "stack $name ($kind on $devs) failed"
    done
}

# mount_overlay NAME MNT: its lower, upper and work directories (created when missing) are in
# the options the board gives it.
mount_overlay() {
    opts=$(mount_options "$1")
    for dir in $(echo "$opts" | tr ',' '\n' | sed -n 's/^\(lowerdir\|upperdir\|workdir\)=//p' | tr ':' ' '); do
        mkdir -p "$dir"
    done
    if ! mount -t overlay overlay -o "$opts" "$2"; then
        say "mount of $1 (overlay) on $2 failed"
        return 1
    fi
    say "mounted $1 (overlay) on $2 with $opts"
}

mount_filesystems() {
    echo "$RIG_FILESYSTEMS" | while read -r name type dev mnt; do
        [ -n "$name" ] || continue
        mkdir -p "$mnt"
        if [ "$type" = overlay ]; then
            mount_overlay "$name" "$mnt"
            continue
        fi
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
