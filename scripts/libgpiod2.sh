#!/usr/bin/env bash
# libgpiod2.sh — a libgpiod 2.x for building and testing rig's 2.x GPIO backend on bookworm
# (which ships 1.6). Downloads Debian trixie's libgpiod-dev and libgpiod3 through a private apt
# list (the system's apt sources are never touched) and unpacks them with `dpkg -x` into the
# cache; nothing is installed. Prints the pkg-config directory to put in PKG_CONFIG_PATH.
#
# Usage: scripts/libgpiod2.sh
# Environment: LIBGPIOD2_SUITE (default trixie), DEBIAN_MIRROR, RIG_CACHE.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/common.sh"

suite=${LIBGPIOD2_SUITE:-trixie}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
private_apt libgpiod "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main"
version=$(apt-cache "${APT_OPTS[@]}" policy libgpiod-dev | awk '/Candidate:/ {print $2}')
case $version in 2.*) ;; *) die "libgpiod-dev in $suite is '$version', not 2.x" ;; esac

root=$RIG_CACHE/libgpiod-$version
pcdir=$root/usr/lib/x86_64-linux-gnu/pkgconfig
if [ ! -f "$root/.unpacked" ]; then
    log "downloading libgpiod-dev and libgpiod3 $version from $suite"
    rm -rf "$root"
    mkdir -p "$root"
    (cd "$APT_DIR/archives" && apt-get "${APT_OPTS[@]}" -q download "libgpiod-dev=$version" \
        "libgpiod3=$version" >/dev/null) || die "download of libgpiod $version failed"
    for deb in "$APT_DIR"/archives/libgpiod-dev_"${version//:/%3a}"_amd64.deb \
               "$APT_DIR"/archives/libgpiod3_"${version//:/%3a}"_amd64.deb; do
        dpkg -x "$deb" "$root"
    done
    # The .pc files say prefix=/usr: point them at the unpacked tree.
    sed -i "s|^prefix=.*|prefix=$root/usr|" "$pcdir"/*.pc
    touch "$root/.unpacked"
fi
echo "$pcdir"
