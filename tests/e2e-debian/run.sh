#!/usr/bin/env bash
# End-to-end on the Debian board (boards/qemu-debian.yaml): the project's kernel boots Debian
# trixie with systemd; one suspend through systemctl and one power cut while suspended with
# journald writing pass the journald verdicts (positive control); the same power cut with
# freeze_filesystems=0 and sync_on_suspend=0 loses acknowledged journald entries (negative
# control). Needs make kernel image-debian rig.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. tests/lib.sh
rig=${RIG:-out/bin/rig}
work=$(mktemp -d)
db=$work/results.db
trap 'rm -rf "$work"' EXIT
export RIG_LOCK_DIR=$work/locks
# Negative-control cycles: the loss happens in most cycles, not all (see image/debian/README.md).
knob0_cycles=${DEBIAN_KNOB0_CYCLES:-2}

verdicts() { # verdicts RUN NAME RESULT
    sql "$db" "SELECT count(*) FROM verdicts v JOIN cycles c ON v.cycle_id = c.id
               WHERE c.run_id = $1 AND v.name = '$2' AND v.result = '$3'"
}
journald_noloss() { # journald_noloss RUN RESULT: no-loss verdicts of the journald writer
    sql "$db" "SELECT count(*) FROM verdicts v JOIN cycles c ON v.cycle_id = c.id
               WHERE c.run_id = $1 AND v.name = 'no-loss' AND v.detail LIKE 'writer=nvme-ext4-j%'
               AND v.result = '$2'"
}
run() { # run NAME PLAN [options]: $RC, $RUN_ID, output in $work/NAME.log
    local name=$1 plan=$2 t0=$SECONDS
    shift 2
    "$rig" run --board qemu-debian --plan "$plan" --db "$db" "$@" >"$work/$name.log" 2>&1
    RC=$?
    echo "  [$name] $((SECONDS - t0)) s"
    RUN_ID=$(sql "$db" "SELECT max(id) FROM runs")
    sed -n '/^verdict /,$p' "$work/$name.log" | sed "s/^/  [$name] /"
    [ "$RC" -le 1 ] || show_run "$work/$name.log" "$name" 40
}

# --- boot: the project's kernel, systemd up, journald persistent on the test filesystem -------
version=$(jq -r .version out/kernel/meta.json)
start=$(date +%s.%N)
"$rig" boot --board qemu-debian \
    --exec 'rig-dut info' \
    --exec 'systemctl is-system-running --wait; systemctl --failed --no-legend --plain' \
    --exec 'findmnt -no SOURCE,FSTYPE / ; findmnt -no SOURCE /var/log/journal' \
    --exec 'journalctl --header --directory=/var/log/journal | grep -m1 "^File path"' \
    --exec 'systemd-analyze time' \
    >"$work/boot.log" 2>&1
rc=$?
boot_s=$(echo "$(date +%s.%N) - $start" | bc)
sed 's/^/  [boot] /' "$work/boot.log"
check "debian boot: rig boot exits 0" [ "$rc" -eq 0 ]
check "debian boot: the project's kernel ($version)" has "$work/boot.log" "^kernel=$version "
check "debian boot: systemd reached running (no failed unit)" has "$work/boot.log" '^running$'
check "debian boot: root on NVMe (nvme0n1p3, ext4)" has "$work/boot.log" '^/dev/nvme0n1p3 +ext4$'
check "debian boot: journald's persistent journal on nvme-ext4" has "$work/boot.log" '^/dev/nvme0n1p1(\[/journal\])?$'
echo "# Debian board: boot + checks + power off took ${boot_s}s (TCG)"

# --- positive control: systemctl suspend + power cut, knob 1 -------------------------------
run journald tests/e2e-debian/plans/journald.yaml
check "debian journald knob 1: rig run exits 0" [ "$RC" -eq 0 ]
check "debian journald knob 1: the suspend through systemctl passed" [ "$(verdicts "$RUN_ID" suspend pass)" -ge 1 ]
check "debian journald knob 1: systemd reported the sleep good (user.slice frozen and thawed)" \
    [ "$(verdicts "$RUN_ID" systemd-sleep pass)" -eq 1 ]
check "debian journald knob 1: every acknowledged journald entry is in the journal" \
    [ "$(journald_noloss "$RUN_ID" pass)" -eq 1 ] 
check "debian journald knob 1: journald verdict passed (journalctl --verify clean)" \
    [ "$(verdicts "$RUN_ID" journald pass)" -eq 1 ]
check "debian journald knob 1: acknowledgements came from journald's read-back" \
    [ "$(sql "$db" "SELECT count(*) FROM verdicts v JOIN cycles c ON v.cycle_id=c.id WHERE c.run_id=$RUN_ID AND v.name='no-loss' AND v.detail LIKE '%acked=%' AND CAST(substr(v.detail, instr(v.detail, 'acked=') + 6) AS INTEGER) > 0")" -ge 1 ]

# --- negative control: knob 0, no sync, power cut --------------------------------------------
run journald-knob0 tests/e2e-debian/plans/journald-knob0.yaml --cycles "$knob0_cycles"
check "debian journald negative control (knob 0, no sync): acknowledged entries lost" \
    [ "$(journald_noloss "$RUN_ID" fail)" -ge 1 ]
check "debian journald negative control: the run fails (exit 1)" [ "$RC" -eq 1 ]
echo "# journald negative control fired in $(journald_noloss "$RUN_ID" fail) of $knob0_cycles power cuts"
sql "$db" "SELECT '# ' || v.result || ': ' || v.detail FROM verdicts v JOIN cycles c ON v.cycle_id=c.id WHERE v.name IN ('no-loss','journald') ORDER BY v.id"

finish "end-to-end on boards/qemu-debian.yaml"
