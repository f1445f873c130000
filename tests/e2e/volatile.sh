#!/usr/bin/env bash
# End-to-end on drives with volatile write caches (boards/qemu-volatile.yaml: both disks behind
# nbdkit in writeback mode; the power cut drops what the kernel did not flush). Positive
# control: knob 1, power cut while suspended, nothing acknowledged lost, checkers clean, and the
# flushes the kernel sent on the way to sleep recorded per disk, some after the filesystems froze
# (the devices' suspend flushes too: sd_suspend syncs the SCSI cache, NVMe shuts down). Negative
# control: the same plan on boards/qemu-volatile-noflush.yaml (ext4 barrier=0, btrfs nobarrier,
# the SATA disk's write cache hidden from the kernel): no flush reaches the SATA disk and the cut
# must lose acknowledged data (barrier=0 alone loses nothing here: the NVMe shutdown at suspend
# flushes what the filesystems did not). ~5 min.
set -uo pipefail
case "${1:-}" in -h|--help) sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. tests/lib.sh
rig=out/bin/rig
work=$(mktemp -d)
db=$work/results.db
trap 'rm -rf "$work"' EXIT
export RIG_LOCK_DIR=$work/locks
command -v nbdkit >/dev/null || { fail "nbdkit missing (make deps)"; finish "volatile drive caches"; exit 1; }

# run NAME BOARD PLAN: the plan on the board; exit code in $RC, run id in $RUN_ID.
run() {
    "$rig" run --board "$2" --plan "$3" --db "$db" >"$work/$1.log" 2>&1
    RC=$?
    RUN_ID=$(sql "$db" "SELECT max(id) FROM runs")
    sed -n '/^verdict /,$p' "$work/$1.log" | sed "s/^/  [$1] /"
    grep '  drive ' "$work/$1.log" | sed "s/^/  [$1]/"
    [ "$RC" -le 1 ] || show_run "$work/$1.log" "$1"
}
verdicts() { # verdicts RUN NAME RESULT
    sql "$db" "SELECT count(*) FROM verdicts v JOIN cycles c ON v.cycle_id = c.id
               WHERE c.run_id = $1 AND v.name = '$2' AND v.result = '$3'"
}
measured() { # measured RUN NAME DISK: the values, one per cycle, space-separated
    sql "$db" "SELECT group_concat(CAST(m.value AS INTEGER), ' ') FROM measurements m
               JOIN cycles c ON m.cycle_id = c.id
               WHERE c.run_id = $1 AND m.name = '$2' AND m.filesystem = '$3'"
}
all_positive() { for v in $1; do [ "$v" -gt 0 ] || return 1; done; [ -n "$1" ]; }

run volatile qemu-volatile tests/e2e/plans/volatile-cut.yaml
cycles=$(sql "$db" "SELECT count(*) FROM cycles WHERE run_id=$RUN_ID")
check "volatile: rig run exits 0" [ "$RC" -eq 0 ]
check "volatile: 2 power cuts recorded" [ "$cycles" -eq 2 ]
check "volatile: nothing acknowledged lost" [ "$(verdicts "$RUN_ID" no-loss fail)" -eq 0 ]
check "volatile: every writer verified" [ "$(verdicts "$RUN_ID" no-loss pass)" -ge 8 ]
check "volatile: filesystems check clean" [ "$(verdicts "$RUN_ID" fsck fail)" -eq 0 ]
for disk in nvme0 sata0; do
    echo "  [volatile] $disk: flushes on the way to sleep: $(measured "$RUN_ID" drive_flushes_sleep $disk);" \
        "unflushed when asked to sleep: $(measured "$RUN_ID" drive_dirty_at_sleep $disk);" \
        "lost at the cut: $(measured "$RUN_ID" drive_dirty_dropped $disk) blocks"
    check "volatile: $disk's flushes recorded at each cut" \
        [ "$(sql "$db" "SELECT count(*) FROM measurements m JOIN cycles c ON m.cycle_id=c.id WHERE c.run_id=$RUN_ID AND m.name='drive_flushes_sleep' AND m.filesystem='$disk'")" -eq "$cycles" ]
    check "volatile: the kernel flushed $disk on the way to sleep, every cycle" \
        all_positive "$(measured "$RUN_ID" drive_flushes_sleep $disk)"
    # the device suspend path flushes too (sd_suspend syncs the SCSI cache, NVMe shuts down)
    check "volatile: $disk flushed again after the filesystems froze, every cycle" \
        all_positive "$(measured "$RUN_ID" drive_flushes_devices $disk)"
done

run noflush qemu-volatile-noflush tests/e2e/plans/volatile-cut.yaml
for disk in nvme0 sata0; do
    echo "  [noflush] $disk: flushes on the way to sleep: $(measured "$RUN_ID" drive_flushes_sleep $disk);" \
        "unflushed when asked to sleep: $(measured "$RUN_ID" drive_dirty_at_sleep $disk);" \
        "lost at the cut: $(measured "$RUN_ID" drive_dirty_dropped $disk) blocks"
done
check "noflush: loss or a checker failure reported" \
    [ "$(( $(verdicts "$RUN_ID" no-loss fail) + $(verdicts "$RUN_ID" fsck fail) ))" -ge 1 ]
check "noflush: the kernel sent the SATA disk no flush on the way to sleep" \
    [ "$(measured "$RUN_ID" drive_flushes_sleep sata0 | tr ' ' '\n' | sort -u)" = 0 ]
check "noflush: the cut dropped unflushed SATA blocks, every cycle" \
    all_positive "$(measured "$RUN_ID" drive_dirty_dropped sata0)"
check "noflush: the run fails (exit 1)" [ "$RC" -eq 1 ]

finish "volatile drive caches"
