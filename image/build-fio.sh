#!/usr/bin/env bash
# build-fio.sh — build a static fio from Debian's source package (bookworm's fio links ~80 MB of
# shared libraries: librbd, ICU, ...; a static build with the optional engines off is ~6 MB and
# keeps the initramfs small enough to boot fast under TCG). Cached in $RIG_CACHE/fio-<version>.
# Prints the path of the binary.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../scripts/lib/common.sh"

suite=${FIO_SUITE:-bookworm}
private_apt fio-src "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] ${DEBIAN_MIRROR:-http://deb.debian.org/debian} $suite main"
version=$(apt-cache "${APT_OPTS[@]}" showsrc fio | awk '/^Version:/ {print $2}' | sort -V | tail -n1)
[ -n "$version" ] || die "no fio source package in $suite"
upstream=${version%-*}
dest=$RIG_CACHE/fio-$version
if [ ! -x "$dest/fio" ]; then
    log "building static fio $version"
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    (cd "$work" && apt-get "${APT_OPTS[@]}" -qq source --download-only "fio=$version" >/dev/null) \
        || die "download of fio source $version failed"
    mkdir -p "$work/src"
    tar -xzf "$work/fio_${upstream}.orig.tar.gz" -C "$work/src" --strip-components=1
    cc=gcc
    command -v ccache >/dev/null && cc="ccache gcc"
    (cd "$work/src" &&
     ./configure --build-static --disable-native --disable-numa --disable-rdma --disable-rados \
        --disable-rbd --disable-http --disable-gfapi --disable-libnfs --disable-pmem --disable-xnvme \
        --disable-libzbc --disable-tcmalloc --disable-dfs >configure.log 2>&1 &&
     make -j"$(nproc)" CC="$cc" fio >make.log 2>&1) || die "fio build failed in $work/src"
    mkdir -p "$dest"
    strip -o "$dest/fio" "$work/src/fio"
fi
echo "$dest/fio"
