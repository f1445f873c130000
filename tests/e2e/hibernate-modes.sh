#!/usr/bin/env bash
# Hibernation modes end to end on boards/qemu.yaml (issue 18 part 4; plans/README.md, "hibernate"):
# one hibernation in each /sys/power/disk mode (shutdown, platform, reboot, a hybrid sleep woken
# from S3 and one whose power is cut in S3, test_resume) must pass and store the path it took;
# the negative controls must fail the hibernate-mode verdict: a hybrid sleep the rig cuts in S3
# when a resume from RAM was asked, one it wakes when a power cut was asked, and platform on a
# board whose kernel does not offer it (ACPI S4 switched off in QEMU), refused on the board. A
# plan asking for a mode its board does not list is refused before the first boot (exit 2).
# make check-hibernate-modes; not part of make check.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. tests/lib.sh
rig=out/bin/rig
work=$(mktemp -d)
db=$work/results.db
trap 'rm -rf "$work"' EXIT
export RIG_LOCK_DIR=$work/locks
started=$(date +%s)

# run NAME BOARD PLAN: one run; $RC its exit code, $RUN_ID its run, the log in $work/NAME.log.
# An infrastructure error is no evidence either way and fails the test; it is never run again.
run() {
    local name=$1 board=$2 plan=$3 infra
    "$rig" run --board "$board" --plan "$plan" --db "$db" >"$work/$name.log" 2>&1
    RC=$?
    RUN_ID=$(sql "$db" "SELECT coalesce(max(id), 0) FROM runs")
    sed -n '/^verdict /,$p' "$work/$name.log" | sed "s/^/  [$name] /"
    [ "$RC" -le 1 ] || show_run "$work/$name.log" "$name"
    infra=$(sql "$db" "SELECT count(*) FROM cycles WHERE run_id=$RUN_ID AND status='infra'")
    check "$name: no infrastructure error (exit $RC, $infra infra cycles in run $RUN_ID)" \
        [ "$RC" -ne 3 -a "$infra" -eq 0 ]
}
# path CYCLE: the cycle's stored hibernation, "asked:kernel_mode:went:power_cut:came_back:matched"
path() {
    sql "$db" "SELECT h.asked || ':' || ifnull(h.kernel_mode, '?') || ':' || h.went || ':' ||
               h.power_cut || ':' || h.came_back || ':' || h.matched
               FROM cycle_hibernations h JOIN cycles c ON h.cycle_id = c.id
               WHERE c.run_id = $RUN_ID AND c.idx = $1"
}
# verdict CYCLE NAME: "result|detail" of one verdict of the cycle
verdict() {
    sql "$db" "SELECT v.result || '|' || v.detail FROM verdicts v JOIN cycles c ON v.cycle_id = c.id
               WHERE c.run_id = $RUN_ID AND c.idx = $1 AND v.name = '$2'"
}
# failures CYCLE: the names of the cycle's failed verdicts no known issue explains (the lab's
# known lockdep warning after a restore is one: README.md), sorted, comma-separated
failures() {
    sql "$db" "SELECT group_concat(name, ',') FROM (SELECT DISTINCT v.name FROM verdicts v
               JOIN cycles c ON v.cycle_id = c.id WHERE c.run_id = $RUN_ID AND c.idx = $1
               AND v.result IN ('fail', 'error') AND v.known_issue IS NULL ORDER BY v.name)"
}
seconds() { # seconds CYCLE: its wall time
    sql "$db" "SELECT printf('%.0f', c.ended_at - c.started_at) FROM cycles c
               WHERE c.run_id = $RUN_ID AND c.idx = $1"
}

# --- a mode the board does not list: refused when the plan is loaded, before any boot --------
sed '/^  hibernate_modes:/d' boards/qemu.yaml >"$work/qemu-shutdown-only.yaml"
out=$("$rig" run --board "$work/qemu-shutdown-only.yaml" --plan tests/e2e/plans/hibernate-modes.yaml \
      --db "$db" 2>&1)
rc=$?
check_eq "plan check: exit 2 for a mode the board does not list" "$rc" 2
check "plan check: names the plan's file, line and key" \
    grep -q "tests/e2e/plans/hibernate-modes.yaml:12: steps\[1\].hibernate.mode: the board does not declare hibernation mode \"platform\"" <<<"$out"

# --- each mode once (positive controls), then the hybrid sleep's two negative controls ------
run modes qemu tests/e2e/plans/hibernate-modes.yaml
check_eq "modes: exit 1 (the two negative controls fail)" "$RC" 1
i=0
for want in shutdown:shutdown:power-off:0:restored:1 platform:platform:s4:0:restored:1 \
            reboot:reboot:reboot:0:restored:1 suspend:suspend:s3:0:ram:1 \
            suspend:suspend:s3:1:restored:1 test_resume:test_resume:stayed:0:in-place:1; do
    check_eq "modes: cycle $i (${want%%:*}) took its path" "$(path $i)" "$want"
    check_eq "modes: cycle $i (${want%%:*}) hibernate and hibernate-mode passed, no unexplained failure" \
        "$(verdict $i hibernate | cut -d'|' -f1) $(verdict $i hibernate-mode | cut -d'|' -f1) $(failures $i)" \
        "pass pass "
    echo "  [modes] cycle $i: $(seconds $i) s; $(verdict $i hibernate-mode | cut -d'|' -f2)"
    i=$((i + 1))
done
# inject: power-cut -- a resume from RAM asked, the rig cut the power in S3: the image restored
check_eq "modes: cycle 6 (power cut where RAM was asked) stored as a restore after a cut" \
    "$(path 6)" suspend:suspend:s3:1:restored:0
check_eq "modes: cycle 6 fails hibernate-mode, nothing else unexplained" "$(failures 6)" hibernate-mode
check "modes: cycle 6's detail says what was asked and what happened" \
    grep -q "expected S3 after the image, woken by the rig, back from RAM without a restore; happened: went s3, power cut by the rig, came back restored" <<<"$(verdict 6 hibernate-mode)"
# inject: early-wake -- a power cut asked, the rig woke the board: back from RAM, no restore
check_eq "modes: cycle 7 (woken where a power cut was asked) stored as back from RAM" \
    "$(path 7)" suspend:suspend:s3:0:ram:0
check_eq "modes: cycle 7 fails hibernate-mode, nothing else unexplained" "$(failures 7)" hibernate-mode
for i in 6 7; do echo "  [modes] cycle $i: $(seconds $i) s; $(verdict $i hibernate-mode | cut -d'|' -f2)"; done

# --- a mode the kernel does not offer: refused on the board, no fallback ---------------------
sed -e 's/^name: qemu$/name: qemu-nos4/' -e 's/PIIX4_PM.disable_s4=0/PIIX4_PM.disable_s4=1/' \
    boards/qemu.yaml >"$work/qemu-nos4.yaml"
check "nos4: the board file switches ACPI S4 off" grep -q "disable_s4=1" "$work/qemu-nos4.yaml"
run refused "$work/qemu-nos4.yaml" tests/e2e/plans/hibernate-platform-refused.yaml
check_eq "refused: exit 1" "$RC" 1
# kernel_mode: the mode the kernel would have used had rig-dut let it (its default without S4)
check_eq "refused: cycle 0 stored as refused on the board" "$(path 0)" platform:shutdown:stayed:0:refused:0
check_eq "refused: cycle 0 fails hibernate and hibernate-mode" "$(failures 0)" hibernate,hibernate-mode
check "refused: the verdict names the modes the kernel offers" \
    grep -q "does not offer hibernation mode platform (/sys/power/disk offers: shutdown,reboot,suspend,test_resume): refused on the board, no fallback to its own mode (shutdown)" <<<"$(verdict 0 hibernate-mode)"
check_eq "refused: the board stayed up; the next hibernation (shutdown) passed" \
    "$(path 1) $(failures 1)" "shutdown:shutdown:power-off:0:restored:1 "
echo "  [refused] cycle 0: $(verdict 0 hibernate-mode | cut -d'|' -f2)"

echo "wall time: $(($(date +%s) - started)) s"
finish hibernate-modes
