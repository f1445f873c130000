#!/usr/bin/env bash
# build.sh — the Debian board's disks (boards/qemu-debian.yaml). See image/debian/README.md.
#
# Debian trixie (systemd 257: it freezes the user sessions before sleep) built with mmdebstrap
# through a private apt sources list (the system's is never touched), plus the rig's agent,
# workloads and units; written as two partitioned disk images:
#   nvme.img  p1 (test ext4, made on first boot) p2 (test btrfs, first boot) p3 root ext4
#   sata.img  p1 (test xfs, first boot)          p2 swap and hibernation image
# Cached by its inputs like the kernel: out/image-debian/<key>/, out/image-debian/current -> <key>.
# The board copies a disk from here when its own copy is missing or older (boards/README.md: seed).
#
# Environment: OUT (default ./out), DEBIAN_SUITE (default trixie), DEBIAN_MIRROR (default
# http://deb.debian.org/debian), RIG_CACHE (downloaded .debs are kept in $RIG_CACHE/debian-debs).
# The last line on stdout is the image directory.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/scripts/lib/common.sh"

if [ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ]; then
    sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
    exit 0
fi
out=$(mkdir -p "${OUT:-$top/out}" && cd "${OUT:-$top/out}" && pwd)
suite=${DEBIAN_SUITE:-trixie}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
command -v mmdebstrap >/dev/null || die "mmdebstrap not found (make deps)"

# What the board runs: systemd as init with logind and D-Bus (systemctl suspend goes through
# logind), udev, the filesystem tools, the util-linux tools rig-dut uses (rtcwake, fsfreeze, ...).
packages=(systemd systemd-sysv udev dbus libpam-systemd e2fsprogs xfsprogs btrfs-progs fdisk
          util-linux util-linux-extra mount procps)
# Sizes in MiB: the test partitions as on the busybox board, the root after them.
nvme_mb=2048 nvme_p1_mb=400 nvme_p2_mb=620 sata_mb=1536 sata_p1_mb=700

fio=$("$top/image/build-fio.sh" | tail -n1)
progs=()
for p in journal-writer journal-verify stall-report journald-logger; do
    [ -x "$out/bin/$p" ] || die "$out/bin/$p is missing (make rig)"
    progs+=("$out/bin/$p")
done

# ---- the cache key: every input, and the versions apt would install ------------------------
private_apt debian-image "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main"
versions=$(apt-cache "${APT_OPTS[@]}" policy "${packages[@]}" | awk '/^[^ ]/ {p=$1} /Candidate:/ {print p, $2}')
if echo "$versions" | grep -q '(none)'; then
    die "packages not found in $suite: $(echo "$versions" | awk '$2 == "(none)" {print $1}' | tr '\n' ' ')"
fi
key=$( { echo "$suite $mirror ${packages[*]} $nvme_mb $nvme_p1_mb $nvme_p2_mb $sata_mb $sata_p1_mb"
         echo "$versions"
         cd "$top" && find image/debian image/storage.sh workloads/agent workloads/fio -type f | sort | xargs sha256sum
         sha256sum "$fio" "${progs[@]}" | cut -d' ' -f1; } | sha256sum | cut -c1-12)
dest=$out/image-debian/$key
if [ -f "$dest/nvme.img" ] && [ -f "$dest/sata.img" ] && [ -f "$dest/manifest" ]; then
    ln -sfn "$key" "$out/image-debian/current"
    log "reusing the Debian image $key"
    echo "$dest"
    exit 0
fi

start=$(date +%s)
work=$out/image-debian/tmp-$key
rm -rf "$work"
mkdir -p "$work" "$RIG_CACHE/debian-debs"
trap 'rm -rf "$work"' EXIT
root=$work/root

# ---- the root filesystem ----------------------------------------------------------------
# Debian itself (mmdebstrap: the slow part) is kept as a tarball keyed by what it holds, so a
# change to the rig's own files rebuilds only what follows. The .deb cache is synced in and out
# of the chroot so a new base downloads only what changed.
base_key=$( { echo "$suite $mirror ${packages[*]}"; echo "$versions"; } | sha256sum | cut -c1-12)
base=$RIG_CACHE/debian-base-$base_key.tar
mkdir -p "$root"
if [ ! -f "$base" ]; then
    log "mmdebstrap $suite (${#packages[@]} packages and their dependencies); log in $work/mmdebstrap.log"
    mmdebstrap --mode=root --variant=apt --include="$(IFS=,; echo "${packages[*]}")" \
        --skip=download/empty --skip=cleanup/apt/lists \
        --setup-hook='mkdir -p "$1"/var/cache/apt/archives/' \
        --setup-hook="sync-in '$RIG_CACHE/debian-debs' /var/cache/apt/archives/" \
        --customize-hook="sync-out /var/cache/apt/archives '$RIG_CACHE/debian-debs'" \
        --customize-hook='rm -f "$1"/var/cache/apt/archives/*.deb; rm -rf "$1"/var/lib/apt/lists/*' \
        "$suite" "$root" "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main" \
        >"$work/mmdebstrap.log" 2>&1 || { tail -n 30 "$work/mmdebstrap.log" >&2; die "mmdebstrap failed"; }
    rm -f "$RIG_CACHE/debian-debs/lock"; rm -rf "$RIG_CACHE/debian-debs/partial"
    rm -f "$RIG_CACHE"/debian-base-*.tar      # one base at a time: ~300 MB each
    tar -C "$root" --numeric-owner --xattrs -cf "$base.tmp" . && mv "$base.tmp" "$base"
else
    log "Debian $suite base from $base"
    tar -C "$root" --numeric-owner --xattrs -xf "$base"
fi

# The rig's files: the agent and rig-dut, the workloads (static), fio (the busybox board's static
# build: Debian's fio pulls ~80 MB of libraries), fio jobs, layout and storage helpers, units.
install -m 0755 "$top/workloads/agent/rig-agent.sh" "$root/usr/bin/rig-agent"
install -m 0755 "$top/workloads/agent/rig-dut.sh" "$root/usr/bin/rig-dut"
install -m 0755 "$fio" "${progs[@]}" "$root/usr/bin/"
mkdir -p "$root/usr/share/rig" "$root/etc/rig"
cp -r "$top/workloads/fio" "$root/usr/share/rig/fio"
install -m 0644 "$here/layout.sh" "$root/etc/rig/layout.sh"
install -m 0644 "$top/image/storage.sh" "$root/etc/rig/storage.sh"
cp -r "$here/rootfs/." "$root/"
echo rig-debian >"$root/etc/hostname"
# A fixed machine id: the journal directory is /var/log/journal/<machine-id>, and no first-boot
# wizard runs.
echo "$key$key" | sha256sum | cut -c1-32 >"$root/etc/machine-id"
: >"$root/etc/fstab"
chroot "$root" systemctl enable rig-storage.service rig-agent.service 2>&1 | sed 's/^/  /' >&2
[ -L "$root/etc/systemd/system/multi-user.target.wants/rig-agent.service" ] || die "rig-agent.service not enabled"
# Console: the agent owns ttyS0. Units the board has no use for are masked (no network, no
# time sync, no getty on the console).
chroot "$root" systemctl mask serial-getty@ttyS0.service getty@tty1.service \
    systemd-networkd.service systemd-timesyncd.service apt-daily.timer apt-daily-upgrade.timer \
    e2scrub_all.timer e2scrub_reap.service fstrim.timer >/dev/null 2>&1
# root lingers: user@0.service runs in user.slice, so the user-session freeze has a session to freeze
mkdir -p "$root/var/lib/systemd/linger" && : >"$root/var/lib/systemd/linger/root"
chroot "$root" dpkg-query -W -f '${Package} ${Version}\n' >"$work/manifest"

# ---- the disks --------------------------------------------------------------------------
root_mb=$((nvme_mb - nvme_p1_mb - nvme_p2_mb - 2))
log "root filesystem: $(du -sm "$root" | cut -f1) MiB in a ${root_mb} MiB ext4"
mkfs.ext4 -q -F -L rig-root -E lazy_itable_init=0,lazy_journal_init=0 -d "$root" "$work/root.ext4" "${root_mb}M"
truncate -s "${nvme_mb}M" "$work/nvme.img"
printf 'size=%sMiB\nsize=%sMiB\n,\n' "$nvme_p1_mb" "$nvme_p2_mb" | sfdisk -q "$work/nvme.img"
p3_start=$(sfdisk -d "$work/nvme.img" | awk -F'[=,]' '/nvme.img3/ {gsub(/ /, "", $2); print $2}')
dd if="$work/root.ext4" of="$work/nvme.img" bs=512 seek="$p3_start" conv=notrunc,sparse status=none
truncate -s "${sata_mb}M" "$work/sata.img"
printf 'size=%sMiB\n,,S\n' "$sata_p1_mb" | sfdisk -q "$work/sata.img"

rm -rf "$dest"
mkdir -p "$dest"
mv "$work/nvme.img" "$work/sata.img" "$work/manifest" "$dest/"
elapsed=$(( $(date +%s) - start ))
echo "$elapsed" >"$dest/build_seconds"
ln -sfn "$key" "$out/image-debian/current"
# Older images are of no use to any board (seeds are compared by date): ~300 MB each.
find "$out/image-debian" -mindepth 1 -maxdepth 1 -type d ! -name "$key" ! -name "tmp-*" -exec rm -rf {} +
log "Debian $suite image $key built in ${elapsed}s ($(wc -l <"$dest/manifest") packages)"
echo "$dest"
