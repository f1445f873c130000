#!/usr/bin/env bash
# End-to-end for the metadata writer (workloads: [meta]) on boards/qemu.yaml. Positive control:
# knob 1, a power cut while suspended and a discarded hibernation image: every acknowledged
# operation visible on every filesystem, checkers clean. Negative control: knob 0 and no sync:
# the power cut loses acknowledged operations.
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

run() { # run NAME PLAN: exit code in $RC, run id in $RUN_ID
    "$rig" run --board qemu --plan "$2" --db "$db" >"$work/$1.log" 2>&1
    RC=$?
    RUN_ID=$(sql "$db" "SELECT max(id) FROM runs")
    sed -n '/^verdict /,$p' "$work/$1.log" | sed "s/^/  [$1] /"
    [ "$RC" -le 1 ] || show_run "$work/$1.log" "$1"
}
meta_verdicts() { # meta_verdicts RUN RESULT: no-loss verdicts of the metadata writers
    sql "$db" "SELECT count(*) FROM verdicts v JOIN cycles c ON v.cycle_id = c.id
               WHERE c.run_id = $1 AND v.name = 'no-loss' AND v.result = '$2'
               AND v.detail LIKE 'writer=%-x%'"
}

run meta tests/e2e/plans/meta-power-cut.yaml
check "meta: rig run exits 0" [ "$RC" -eq 0 ]
check "meta: every metadata writer verified after both failures (4 filesystems x 2)" \
    [ "$(meta_verdicts "$RUN_ID" pass)" -eq 8 ]
check "meta: no acknowledged operation lost" [ "$(meta_verdicts "$RUN_ID" fail)" -eq 0 ]
check "meta: filesystems check clean" \
    [ "$(sql "$db" "SELECT count(*) FROM verdicts v JOIN cycles c ON v.cycle_id=c.id WHERE c.run_id=$RUN_ID AND v.name='fsck' AND v.result<>'pass'")" -eq 0 ]

run meta-knob0 tests/e2e/plans/meta-power-cut-knob0.yaml
check "meta negative control (knob 0, no sync): lost operations reported" [ "$(meta_verdicts "$RUN_ID" fail)" -ge 1 ]
check "meta negative control: the run fails (exit 1)" [ "$RC" -eq 1 ]

finish "metadata writer"
