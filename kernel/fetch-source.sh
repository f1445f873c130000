#!/usr/bin/env bash
# fetch-source.sh — download and unpack Debian's linux-source-* package.
#
# Usage: kernel/fetch-source.sh OUTDIR
#   Prints the path of the unpacked tree on stdout (last line).
#
# Environment:
#   LINUX_SOURCE_PKG     pin a package, e.g. linux-source-7.3 or linux-source-7.3=7.3.4-1~bpo13+1
#                        (default: the newest linux-source-X.Y any configured suite offers)
#   LINUX_SOURCE_SUITES  Debian suites to look in (default: "sid trixie-backports")
#   DEBIAN_MIRROR        default http://deb.debian.org/debian
#   RIG_CACHE            download cache (default ~/.cache/suspend-rig)
#
# The system's apt sources are never touched: apt runs with a private sources list and
# private state under $RIG_CACHE/apt-linux-source.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../scripts/lib/common.sh"
help_from_header "$@"

outdir=${1:?usage: fetch-source.sh OUTDIR}
suites=${LINUX_SOURCE_SUITES:-sid trixie-backports}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
mkdir -p "$outdir"
sources=""
for s in $suites; do
    sources+="deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $s main"$'\n'
done
private_apt linux-source "$sources"
apt_opts=("${APT_OPTS[@]}")
aptdir=$APT_DIR

pkg=${LINUX_SOURCE_PKG:-}
if [ -z "$pkg" ]; then
    pkg=$(apt-cache "${apt_opts[@]}" pkgnames linux-source- | grep -E '^linux-source-[0-9]+\.[0-9]+$' \
          | sort -V | tail -n1)
    [ -n "$pkg" ] || die "no linux-source-X.Y package in suites: $suites"
fi
name=${pkg%%=*}
version=${pkg#*=}
[ "$version" != "$pkg" ] || version=$(apt-cache "${apt_opts[@]}" policy "$name" | awk '/Candidate:/ {print $2}')
[ -n "$version" ] && [ "$version" != "(none)" ] || die "package $name not found in suites: $suites"

deb=$(ls "$aptdir"/archives/"${name}"_"${version//:/%3a}"_all.deb 2>/dev/null || true)
if [ -z "$deb" ]; then
    log "downloading $name=$version (about 170 MB)"
    (cd "$aptdir/archives" && apt-get "${apt_opts[@]}" -q download "$name=$version") \
        || die "download of $name=$version failed"
    deb=$(ls "$aptdir"/archives/"${name}"_*_all.deb | grep -F "_${version//:/%3a}_" | head -n1)
fi

tree=$outdir/$name-$version
if [ ! -f "$tree/.unpacked" ]; then
    log "unpacking $(basename "$deb")"
    rm -rf "$tree" "$tree.tmp"
    mkdir -p "$tree.tmp"
    dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tree.tmp" --wildcards './usr/src/*.tar.*'
    tarball=$(ls "$tree.tmp"/usr/src/linux-source-*.tar.* | head -n1)
    mkdir -p "$tree.tmp/src"
    tar -xf "$tarball" -C "$tree.tmp/src" --strip-components=1
    mv "$tree.tmp/src" "$tree"
    rm -rf "$tree.tmp"
    printf '%s\n%s\n' "$name" "$version" >"$tree/.debian-package"
    touch "$tree/.unpacked"
fi
echo "$tree"
