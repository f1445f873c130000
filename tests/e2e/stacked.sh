#!/usr/bin/env bash
# End-to-end on stacked storage (boards/qemu-stacked.yaml: LUKS2, LVM + a mounted snapshot, md
# raid1 across NVMe and SATA, overlayfs, an ext4 image inside the overlay; the image builds them
# at boot from the board file's `stacks`). Positive control (tests/e2e/plans/stacked.yaml,
# knob 1): the order verdict passes on the stack graph (the image in the overlay frozen before
# md-xfs and crypt-ext4, loop-ext4 before sata-xfs, every filesystem thawed), knob-semantics and
# stall hold on every stacked filesystem, and after each power cut while suspended nothing
# acknowledged is lost and every checker is clean on each stack. Negative controls: knob 0 with no
# sync loses acknowledged records (tests/e2e/plans/stacked-knob0.yaml); the fault kernel with
# rig_fault=forward-freeze-order freezes the lower filesystems first, the suspend hangs and order
# fails naming the pair (make kernel-faults). The first boot formats the stacks (LUKS2, md, LVM,
# nine mkfs). Not part of `make check`: `make check-stacked`.
set -uo pipefail
case "${1:-}" in -h|--help) sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. tests/lib.sh
e2e_scratch
stacked_fs="crypt-ext4 md-xfs lvm-ext4 snap-ext4 ovl-loop"

run() { # run NAME PLAN [rig run options...]: exit code in $RC, run id in $RUN_ID
    local name=$1 plan=$2
    shift 2
    "$rig" run --board qemu-stacked --plan "$plan" --db "$db" "$@" >"$work/$name.log" 2>&1
    RC=$?
    RUN_ID=$(sql "$db" "SELECT max(id) FROM runs")
    sed -n '/^verdict /,$p' "$work/$name.log" | sed "s/^/  [$name] /"
    [ "$RC" -le 1 ] || tail -n 40 "$work/$name.log" | sed "s/^/  [$name] /"
}
verdicts() { # verdicts RUN NAME RESULT [FILESYSTEM]
    sql "$db" "SELECT count(*) FROM verdicts v JOIN cycles c ON v.cycle_id = c.id
               WHERE c.run_id = $1 AND v.name = '$2' AND v.result = '$3'
               ${4:+AND v.filesystem = '$4'}"
}
detail() { # detail RUN NAME: the details of that verdict, one per line
    sql "$db" "SELECT v.detail FROM verdicts v JOIN cycles c ON v.cycle_id = c.id
               WHERE c.run_id = $1 AND v.name = '$2'"
}

run stacked tests/e2e/plans/stacked.yaml
check "stacked: rig run exits 0" [ "$RC" -eq 0 ]
check "stacked: 3 cycles recorded" [ "$(sql "$db" "SELECT count(*) FROM cycles WHERE run_id=$RUN_ID")" -eq 3 ]
echo "  [stacked] order: $(detail "$RUN_ID" order)"
check "stacked: order passes on the stack graph (3 stacked pairs top down, all thawed)" \
    [ "$(sql "$db" "SELECT count(*) FROM verdicts v JOIN cycles c ON v.cycle_id=c.id WHERE c.run_id=$RUN_ID AND v.name='order' AND v.result='pass' AND v.detail LIKE '%(3 stacked pairs frozen top down, all thawed)%'")" -eq 1 ]
names_stacks() { case $(detail "$RUN_ID" order) in *md0*dm-*) return 0 ;; esac; return 1; }
check "stacked: the trace names the stacks' devices (md0, dm-N), newest first" names_stacks
check "stacked: knob-semantics passes (every filesystem but the overlay frozen)" \
    [ "$(verdicts "$RUN_ID" knob-semantics pass)" -eq 1 ]
# a writer the window did not catch mid-write is a skip (no evidence either way), not a pass
sql "$db" "SELECT '  [stacked] stall ' || v.filesystem || ': ' || v.result FROM verdicts v JOIN cycles c ON v.cycle_id=c.id WHERE c.run_id=$RUN_ID AND v.name='stall'"
check "stacked: no stall verdict fails (writes through each stack stop while it is frozen)" \
    [ "$(verdicts "$RUN_ID" stall fail)" -eq 0 ]
check "stacked: nothing acknowledged lost" [ "$(verdicts "$RUN_ID" no-loss fail)" -eq 0 ]
for fs in $stacked_fs overlay; do
    check "stacked: $fs's writer verified after both power cuts" \
        [ "$(verdicts "$RUN_ID" no-loss pass "$fs")" -eq 2 ]
done
check "stacked: no checker failed" [ "$(verdicts "$RUN_ID" fsck fail)" -eq 0 ]
for fs in $stacked_fs; do
    check "stacked: $fs checked clean after both power cuts" [ "$(verdicts "$RUN_ID" fsck pass "$fs")" -eq 2 ]
done

run stacked-knob0 tests/e2e/plans/stacked-knob0.yaml
sql "$db" "SELECT '  [stacked-knob0] lost on ' || v.filesystem || ': ' || substr(v.detail, 1, 120) FROM verdicts v JOIN cycles c ON v.cycle_id=c.id WHERE c.run_id=$RUN_ID AND v.name='no-loss' AND v.result='fail'"
check "stacked negative control (knob 0, no sync): loss reported" [ "$(verdicts "$RUN_ID" no-loss fail)" -ge 1 ]
check "stacked negative control: the run fails (exit 1)" [ "$RC" -eq 1 ]

faults=out/kernel-faults
if [ -e "$faults/bzImage" ]; then
    run stacked-fault-order tests/e2e/plans/order.yaml --kernel "$faults" --append rig_fault=forward-freeze-order
    check "stacked order negative control: the suspend hangs freezing filesystems (hang in phase suspend)" \
        [ "$(sql "$db" "SELECT status || ':' || hang_phase FROM cycles WHERE run_id=$RUN_ID AND idx=0")" = "hang:suspend" ]
    check "stacked order negative control: order fails naming a filesystem frozen before one above it" \
        [ "$(sql "$db" "SELECT count(*) FROM verdicts v JOIN cycles c ON v.cycle_id=c.id WHERE c.run_id=$RUN_ID AND v.name='order' AND v.result='fail' AND v.detail LIKE '%(holding %) frozen before %' AND v.detail LIKE '%did not return%'")" -eq 1 ]
else
    fail "fault kernel missing ($faults): make kernel-faults"
fi

finish "stacked storage"
