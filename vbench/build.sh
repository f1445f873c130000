#!/usr/bin/env bash
# build.sh — the virtual bench's initramfs (vbench/README.md). The bench boots the boards' own
# kernel (out/kernel, make kernel): its console and gpio fragments carry what the bench needs.
# Initramfs (out/vbench/initramfs.cpio): static busybox, rig and its shared libraries (ldd),
# rig built against libgpiod 2.x when out/gpiod2 has one, the GPIO unit tests, gpiod's tools
# (a foreign holder of a line), sqlite3, vbench-wire, the rig agent, the scenarios, and /rig:
# boards, plans, known issues and the DUT kernel's meta.json.
#
# Usage: vbench/build.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$top/scripts/lib/common.sh"
help_from_header "$@"
out=${OUT:-$top/out}
[ $# -eq 0 ] || { echo "usage: vbench/build.sh (no arguments: the bench boots make kernel's out/kernel)" >&2; exit 2; }

build_image() {
    dest=$out/vbench
    stage=$dest/rootfs
    rm -rf "$stage"
    mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,lib,lib64,etc,proc,sys,dev,run,tmp,root}
    mkdir -p "$stage"/usr/share/vbench "$stage"/rig/{boards,plans,out/kernel,vbench}
    install_busybox "$stage"
    [ -x "$out/bin/rig" ] || die "out/bin/rig is missing: make rig"
    copy_with_libs "$out/bin/rig" "$stage/usr/bin/rig" "$stage"
    [ -x "$out/vbench/bin/vbench-wire" ] || die "vbench-wire is missing: make vbench"
    cp "$out/vbench/bin/vbench-wire" "$stage/usr/bin/"
    if [ -x "$out/gpiod2/bin/rig" ]; then
        copy_with_libs "$out/gpiod2/bin/rig" "$stage/usr/bin/rig-gpiod2" "$stage"
    fi
    for t in "$out/tests/test_gpio_libgpiod:test_gpio_libgpiod" \
             "$out/gpiod2/tests/test_gpio_libgpiod:test_gpio_libgpiod2"; do
        [ -x "${t%%:*}" ] && copy_with_libs "${t%%:*}" "$stage/usr/bin/${t##*:}" "$stage"
    done
    for t in gpioset gpioget gpioinfo sqlite3; do
        path=$(command -v "$t") || die "$t not found on the host (make deps)"
        rm -f "$stage/bin/$t"
        copy_with_libs "$path" "$stage/usr/bin/$t" "$stage"
    done
    install -m 0755 "$top/workloads/agent/rig-agent.sh" "$stage/usr/bin/rig-agent"
    install -m 0755 "$here/bench/scenario.sh" "$stage/usr/bin/vbench-scenario"
    install -m 0755 "$here/bench/init" "$stage/init"
    cp "$top"/boards/*.yaml "$stage/rig/boards/"
    cp "$top"/plans/*.yaml "$stage/rig/plans/"
    cp -r "$here/plans" "$here/boards" "$stage/rig/vbench/"
    cp -r "$top/known-issues" "$stage/rig/"
    [ -f "$out/kernel/meta.json" ] && cp "$out/kernel/meta.json" "$stage/rig/out/kernel/"
    printf 'root:x:0:0:root:/root:/bin/sh\n' >"$stage/etc/passwd"
    printf 'root:x:0:\n' >"$stage/etc/group"
    pack_initramfs "$stage" "$dest/initramfs.cpio"
    log "bench initramfs: $dest/initramfs.cpio ($(du -h "$dest/initramfs.cpio" | cut -f1))"
}

build_image
