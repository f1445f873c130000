#!/usr/bin/env bash
# build.sh — build the QEMU board's initramfs (out/image/initramfs.cpio). See image/README.md.
#
# Contents: static busybox, a static fio built from Debian's source, the filesystem tools
# (e2fsprogs, xfsprogs, btrfs-progs, util-linux) with their shared libraries, the project's
# workload programs (out/bin), the DUT agent, and /init.
#
# Environment: OUT (default ./out), EXTRA_BINS="path..." more host programs to include.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$top/scripts/lib/common.sh"
help_from_header "$@"

out=${OUT:-$top/out}
dest=$out/image
stage=$dest/rootfs
rm -rf "$stage"
mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,lib,lib64,etc/rig,proc,sys,dev,run,tmp,mnt,root,var/log}

install_busybox "$stage"
busybox=$stage/bin/busybox

fio=$("$here/build-fio.sh" | tail -n1)
cp "$fio" "$stage/usr/bin/fio"

# Host tools and the shared libraries they need (resolved through ldd, symlinks dereferenced).
tools=(mke2fs e2fsck tune2fs mkfs.xfs xfs_repair xfs_io mkfs.btrfs btrfs sfdisk blkid rtcwake
       fsfreeze losetup mkswap swapon swapoff wipefs cksum ${EXTRA_BINS:-})
for t in "${tools[@]}"; do
    path=$(PATH=/usr/sbin:/sbin:/usr/bin:/bin command -v "$t") || die "tool not found on the host: $t (make deps)"
    rm -f "$stage/bin/$t" "$stage/sbin/$t"   # the real tool wins over a busybox applet of the same name
    copy_with_libs "$path" "$stage/usr/sbin/$t" "$stage"
done
# Debian's static busybox prefers its applets to PATH (FEATURE_PREFER_APPLETS): shell functions
# make the real tools win in every script that sources /etc/rig/tools.sh.
# The list is read whole first: under pipefail, `busybox --list | grep -q` fails whenever grep
# exits before busybox has written everything (SIGPIPE), and the tool then silently lost its wrapper.
applets=$("$busybox" --list)
for t in "${tools[@]}"; do
    if grep -qx "$t" <<<"$applets"; then
        printf '%s() { /usr/sbin/%s "$@"; }\n' "$t" "$t"
    fi
done >"$stage/etc/rig/tools.sh"
ln -sf mke2fs "$stage/usr/sbin/mkfs.ext4"
ln -sf e2fsck "$stage/usr/sbin/fsck.ext4"

# The project's own programs for the board (static) and the agent.
for prog in "$out"/bin/*; do
    [ -x "$prog" ] && [ "$(basename "$prog")" != rig ] || continue
    file "$prog" | grep -q 'statically linked' || die "$prog must be linked statically for the board"
    cp "$prog" "$stage/usr/bin/"
done
agent=${RIG_AGENT:-$top/workloads/agent/rig-agent.sh}
[ -f "$agent" ] || die "the DUT agent $agent is missing"
install -m 0755 "$agent" "$stage/usr/bin/rig-agent"
install -m 0755 "$top/workloads/agent/rig-dut.sh" "$stage/usr/bin/rig-dut"
mkdir -p "$stage/usr/share/rig"
cp -r "$top/workloads/fio" "$stage/usr/share/rig/fio"
install -m 0755 "$here/init" "$stage/init"
install -m 0644 "$here/qemu-layout.sh" "$stage/etc/rig/layout.sh"
install -m 0644 "$here/storage.sh" "$stage/etc/rig/storage.sh"
printf 'root:x:0:0:root:/root:/bin/sh\n' >"$stage/etc/passwd"
printf 'root:x:0:\n' >"$stage/etc/group"

pack_initramfs "$stage" "$dest/initramfs.cpio"
log "initramfs: $dest/initramfs.cpio ($(du -h "$dest/initramfs.cpio" | cut -f1))"
echo "$dest/initramfs.cpio"
