#!/usr/bin/env bash
# deps.sh — install every Debian package suspend-rig needs (bookworm). Idempotent; needs root.
#   deps.sh --check   what `make run` and `make check` do first: nothing when every package is
#                     there; as root, install the missing ones; otherwise stop at once (exit 1)
#                     naming them and the command that installs them. Messages go to stderr.
# Newer kernels' sources come from sid/trixie-backports through a private apt list
# (kernel/fetch-source.sh), never by editing the system's apt sources.
set -euo pipefail
check=false
case "${1:-}" in
    -h|--help) sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;   # usage: the header
    --check) check=true ;;
    "") ;;
    *) echo "deps: unknown argument '$1' (deps.sh [--check])" >&2; exit 2 ;;
esac

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
    $check || echo "deps: all ${#packages[@]} packages present"
    exit 0
fi
if [ "$(id -u)" != 0 ]; then
    echo "deps: ${#missing[@]} package(s) missing: ${missing[*]}" >&2
    echo "deps: install them with: sudo make deps   (or as root: bash scripts/deps.sh)" >&2
    exit 1
fi
echo "deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
if $check; then   # make reads this script's stdout: apt's output goes to stderr
    apt-get update -qq >&2 && apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
else
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
