#!/usr/bin/env bash
# The net-booting board (boards/qemu-netboot.yaml): the QEMU PC PXE-boots (SeaBIOS, the e1000's
# iPXE ROM) from the TFTP root the tftp deploy writes, served by QEMU's user-mode TFTP.
#   smoke       the smoke plan passes on it, every boot verified against out/kernel/meta.json
#   noresume    a hibernation whose image is discarded boots with noresume: the boot's kernel
#               command line says so, and `rig boot --append` shows it in /proc/cmdline
#   stale       negative control: QEMU's TFTP serves a root left holding another kernel
#               (out/kernel-faults) while the rig deploys out/kernel: exit 3 naming both, no cycle
#   candidates  a bisect step's deployments: kernel B (--kernel out/kernel-faults) then kernel A
#               (--kernel out/kernel), each verified as the one the board runs
# NETBOOT_PARTS selects parts (default: all). Needs make rig kernel kernel-faults image.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. tests/lib.sh
rig=out/bin/rig
work=$(mktemp -d)
db=$work/results.db
trap 'rm -rf "$work"' EXIT
export RIG_LOCK_DIR=$work/locks
parts=${NETBOOT_PARTS:-smoke noresume stale candidates}
board=boards/qemu-netboot.yaml
want() { [[ " $parts " == *" $1 "* ]]; }
a=$(readlink -f out/kernel)
a_version=$(jq -r .version "$a/meta.json") a_id=$(jq -r .build_id "$a/meta.json")
if want stale || want candidates; then
    b=$(readlink -f out/kernel-faults)
    b_version=$(jq -r .version "$b/meta.json") b_id=$(jq -r .build_id "$b/meta.json")
    check "two different kernels ($a_version, $b_version)" [ "$a_id" != "$b_id" ]
fi
# Knob 1, as the smoke plan: at the kernel's default 0 a suspend right after a boot sometimes
# aborts in the task freezer (ext4lazyinit, known issue ext4lazyinit-freeze-timeout, 2 of 5
# boots; it failed the candidates part in CI 2026-12-05), which says nothing about deployment.
printf 'name: one-suspend\nknob: {freeze_filesystems: 1}\nsteps:\n  - suspend: {mode: deep, wake: rtc, seconds: 3}\n' >"$work/one-suspend.yaml"
last_run() { sql "$db" "SELECT max(id) FROM runs"; }
# verified LOG VERSION BUILD_ID: the log shows a boot verified as that kernel
verified() { grep -c "board: kernel $2 build-id $3 (the deployed one)" "$1"; }

if want smoke; then
    start=$(date +%s)
    "$rig" run --board "$board" --plan smoke --db "$db" >"$work/smoke.log" 2>&1
    rc=$?
    echo "  [smoke] $(( $(date +%s) - start )) s"
    [ "$rc" -eq 0 ] || show_run "$work/smoke.log" smoke
    check "smoke: rig run exits 0 on the net-booted board" [ "$rc" -eq 0 ]
    check "smoke: 4 cycles passed" [ "$(sql "$db" "SELECT count(*) FROM cycles WHERE run_id=$(last_run) AND status='pass'")" -eq 4 ]
    check "smoke: the deploy recorded is tftp" [ "$(sql "$db" "SELECT deploy FROM runs WHERE id=$(last_run)")" = tftp ]
    check "smoke: its boot is the deployed kernel" [ "$(verified "$work/smoke.log" "$a_version" "$a_id")" -ge 1 ]
    # QEMU was never told the kernel: iPXE fetched it, and only boot.ipxe names the initrd first
    check "smoke: the kernel came through iPXE" \
        has "$(run_dir "$work/smoke.log")/console.log" 'Command line: initrd=rig-[0-9]+-[0-9]+-initrd console='
fi

if want noresume; then
    "$rig" run --board "$board" --plan tests/e2e/plans/identity.yaml --db "$db" >"$work/noresume.log" 2>&1
    rc=$?
    [ "$rc" -eq 0 ] || show_run "$work/noresume.log" noresume
    check "noresume: rig run exits 0" [ "$rc" -eq 0 ]
    check "noresume: both boots verified" [ "$(verified "$work/noresume.log" "$a_version" "$a_id")" -ge 2 ]
    # the run's first boot gets noresume too (it discards an image the run did not write)
    check "noresume: the discarding boot's kernel got noresume from boot.ipxe (and the first boot's)" \
        [ "$(grep -c '\] Command line: .* noresume' "$(run_dir "$work/noresume.log")/console.log")" -ge 2 ]
    "$rig" boot --board "$board" --append noresume --exec 'cat /proc/cmdline' >"$work/boot.log" 2>&1
    check "noresume: /proc/cmdline of a net-booted kernel carries what the rig deployed" \
        has "$work/boot.log" '^console=ttyS0.* noresume$|initrd=rig-.* noresume$'
fi

if want stale; then
    # the lab's TFTP server points at a root nobody updates: it holds kernel B
    mkdir -p "$work/stale"
    cp "$b/bzImage" "$work/stale/old-kernel"
    cp out/image/initramfs.cpio "$work/stale/old-initrd"
    printf '#!ipxe\nkernel old-kernel %s\ninitrd old-initrd\nboot\n' \
        "console=ttyS0,115200 no_console_suspend loglevel=7 rig.swap=/dev/sda2 panic=-1" >"$work/stale/boot.ipxe"
    sed "s|tftp={run}/tftp|tftp=$work/stale|; s|^name: qemu-netboot|name: qemu-netboot-stale|" "$board" >"$work/stale.yaml"
    before=$(sql "$db" "SELECT count(*) FROM cycles" 2>/dev/null)   # no database yet: 0
    before=${before:-0}
    "$rig" run --board "$work/stale.yaml" --plan "$work/one-suspend.yaml" --db "$db" >"$work/stale.log" 2>&1
    rc=$?
    check "stale root: rig run exits 3" [ "$rc" -eq 3 ]
    check "stale root: names the kernel it found and the one it deployed" \
        has "$work/stale.log" "wrong kernel: the board runs kernel $b_version build-id $b_id, not the deployed $a_version build-id $a_id"
    check "stale root: no cycle judged" [ "$(sql "$db" "SELECT count(*) FROM cycles")" -eq "$before" ]
    [ "$rc" -eq 3 ] || show_run "$work/stale.log" stale 20
fi

if want candidates; then
    for k in "$b" "$a"; do
        v=$(jq -r .version "$k/meta.json") id=$(jq -r .build_id "$k/meta.json") name=${k##*/}
        "$rig" run --board "$board" --plan "$work/one-suspend.yaml" --db "$db" --kernel "$k" >"$work/$name.log" 2>&1
        rc=$?
        [ "$rc" -eq 0 ] || show_run "$work/$name.log" "$name" 20
        check "candidate $v: rig run exits 0" [ "$rc" -eq 0 ]
        check "candidate $v: deployed, booted and verified" [ "$(verified "$work/$name.log" "$v" "$id")" -ge 1 ]
        check "candidate $v: the run records it" [ "$(sql "$db" "SELECT kernel_build_id FROM runs WHERE id=$(last_run)")" = "$id" ]
    done
fi

finish "netboot e2e"
