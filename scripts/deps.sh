#!/usr/bin/env bash
# deps.sh — install every Debian package suspend-rig needs (bookworm). Idempotent; needs root.
# Newer kernels' sources come from sid/trixie-backports through a private apt list
# (kernel/fetch-source.sh), never by editing the system's apt sources.
set -euo pipefail
case "${1:-}" in -h|--help) sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac   # usage: the header

packages=(
    # kernel build
    build-essential gcc clang make flex bison bc libelf-dev libssl-dev cpio xz-utils zstd ccache kmod
    rsync python3 jq file patch git lz4
    # the board image and the QEMU board
    qemu-system-x86 qemu-utils busybox-static e2fsprogs xfsprogs btrfs-progs util-linux fdisk
    # volatile drive caches (boards' disks[].volatile_cache)
    nbdkit
    # the Debian board's image (image/debian/build.sh)
    mmdebstrap debian-archive-keyring
    # the rig
    pkg-config libserialport-dev libgpiod-dev gpiod libyaml-dev libjansson-dev libsqlite3-dev sqlite3
    libcmocka-dev valgrind fio libcurl4-openssl-dev
    # the dashboard's browser test
    chromium
    # LAVA: job validation (lava-schema.py, lava-run --validate) and real lava-run jobs
    lava-dispatcher lavacli
)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "deps: all ${#packages[@]} packages present"
    exit 0
fi
[ "$(id -u)" = 0 ] || { echo "deps: need root to install: ${missing[*]}" >&2; exit 1; }
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
