#!/usr/bin/env bash
# End-to-end tests on boards/qemu.yaml: the rig against a real (emulated) board and kernel.
# Every verdict is shown passing on the default kernel (positive control) AND failing where the
# kernel breaks its promise (negative controls), with the fault kernel built from
# kernel/patches/faults (one kernel, faults chosen at boot with rig_fault=).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. tests/lib.sh
rig=out/bin/rig
work=$(mktemp -d)
db=$work/results.db
trap 'rm -rf "$work"' EXIT
export RIG_LOCK_DIR=$work/locks

# run NAME PLAN [rig run options...]: runs the plan once, leaves its exit code in $RC and output
# in $work/NAME.log, and prints the output's summary. An infrastructure error (exit 3, or a cycle
# stored as infra) is no evidence either way and fails the test: it is never run again. (It used
# to be: the board panicked on TCG with "Oops: int3" while kprobes were installed, a race between
# vCPUs in multi-threaded TCG that boards/qemu.yaml's tcg_thread: single removes, and NVMe lost
# its interrupt line on a kernel without CONFIG_PCI_MSI, now in kernel/configs/qemu.config.)
run() {
    local name=$1 plan=$2 infra last t0=$SECONDS
    shift 2
    last=0
    [ -e "$db" ] && last=$(sql "$db" "SELECT coalesce(max(id), 0) FROM runs")
    "$rig" run --board qemu --plan "$plan" --db "$db" "$@" >"$work/$name.log" 2>&1
    RC=$?
    echo "  [$name] $((SECONDS - t0)) s"
    RUN_ID=$(sql "$db" "SELECT coalesce(max(id), 0) FROM runs")
    [ "$RUN_ID" != "$last" ] || RUN_ID=0   # no run stored (e.g. an unhealthy first boot)
    sed -n '/^verdict /,$p' "$work/$name.log" | sed "s/^/  [$name] /"
    [ "$RC" -le 1 ] || show_run "$work/$name.log" "$name"
    infra=$(sql "$db" "SELECT count(*) FROM cycles WHERE run_id=$RUN_ID AND status='infra'")
    check "$name: no infrastructure error (exit $RC, $infra infra cycles in run $RUN_ID)" \
        [ "$RC" -ne 3 -a "$infra" -eq 0 ]
}
verdicts() { # verdicts RUN NAME RESULT: how many verdicts of that name and result the run has
    sql "$db" "SELECT count(*) FROM verdicts v JOIN cycles c ON v.cycle_id = c.id
               WHERE c.run_id = $1 AND v.name = '$2' AND v.result = '$3'"
}
verdicts_fs() { # verdicts_fs RUN NAME FILESYSTEM RESULT
    sql "$db" "SELECT count(*) FROM verdicts v JOIN cycles c ON v.cycle_id = c.id
               WHERE c.run_id = $1 AND v.name = '$2' AND v.filesystem = '$3' AND v.result = '$4'"
}

wake_of() { # wake_of CYCLE: the cycle's wake row, "wake:requested:asleep:awake:irq_name:sources"
    sql "$db" "SELECT w.wake || ':' || ifnull(w.requested_ms, '?') || ':' || ifnull(w.asleep_ms, '?') || ':' ||
               ifnull(w.awake_ms, '?') || ':' || ifnull(w.irq_name, '?') || ':' || ifnull(w.sources, '?')
               FROM cycle_wakes w JOIN cycles c ON w.cycle_id = c.id WHERE c.run_id = $RUN_ID AND c.idx = $1"
}
wake_time() { # wake_time CYCLE: "result|detail" of the cycle's wake-time verdict
    sql "$db" "SELECT v.result || '|' || v.detail FROM verdicts v JOIN cycles c ON v.cycle_id = c.id
               WHERE c.run_id = $RUN_ID AND c.idx = $1 AND v.name = 'wake-time'"
}

# --- positive control: the smoke plan on the default kernel, knob 1 -------------------------
run smoke smoke
check "smoke: rig run exits 0" [ "$RC" -eq 0 ]
check "smoke: 4 cycles recorded" [ "$(sql "$db" "SELECT count(*) FROM cycles WHERE run_id=$RUN_ID")" -eq 4 ]
check "smoke: every cycle passed" [ "$(sql "$db" "SELECT count(*) FROM cycles WHERE run_id=$RUN_ID AND status='pass'")" -eq 4 ]
check "smoke: 3 suspends passed" [ "$(verdicts "$RUN_ID" suspend pass)" -eq 3 ]
check "smoke: hibernate/restore passed" [ "$(verdicts "$RUN_ID" hibernate pass)" -eq 1 ]
check "smoke: no unexplained failure" [ "$(sql "$db" "SELECT count(*) FROM verdicts v JOIN cycles c ON v.cycle_id=c.id WHERE c.run_id=$RUN_ID AND v.result IN ('fail','error') AND v.known_issue IS NULL")" -eq 0 ]
check "smoke: kernel version and knob recorded on every verdict" \
    [ "$(sql "$db" "SELECT count(*) FROM verdicts v JOIN cycles c ON v.cycle_id=c.id WHERE c.run_id=$RUN_ID AND (v.kernel_version IS NULL OR v.knob_freeze_filesystems IS NULL)")" -eq 0 ]
check "smoke: order verdict passed (loop fs frozen first)" [ "$(verdicts "$RUN_ID" order pass)" -ge 1 ]
check "smoke: knob-semantics passed at knob 1 (every filesystem frozen), never failed" \
    [ "$(verdicts "$RUN_ID" knob-semantics pass)" -ge 3 -a "$(verdicts "$RUN_ID" knob-semantics fail)" -eq 0 ]
# wake accounting (issue 18 part 5; its controls: the wake section below): every suspend's wake
# stored with the time the board measured asleep, the QMP one recorded and skipped
check "smoke: every suspend's wake accounted, the board's time asleep measured" \
    [ "$(sql "$db" "SELECT count(*) FROM cycle_wakes w JOIN cycles c ON w.cycle_id=c.id WHERE c.run_id=$RUN_ID AND w.asleep_ms IS NOT NULL")" -eq 3 ]
check "smoke: wake-time judged every suspend (the QMP wake a skip), never failed" \
    [ "$(verdicts "$RUN_ID" wake-time skip)" -ge 1 -a "$(verdicts "$RUN_ID" wake-time fail)" -eq 0 -a \
      "$(sql "$db" "SELECT count(*) FROM verdicts v JOIN cycles c ON v.cycle_id=c.id WHERE c.run_id=$RUN_ID AND v.name='wake-time'")" -eq 3 ]
for i in 0 1 2; do echo "  [smoke] wake $i: $(wake_of $i)"; echo "  [smoke]         $(wake_time $i)"; done

# --- knob-semantics at knob 0: positive control on the default kernel -----------------------
run knob0 tests/e2e/plans/knob0.yaml
# With the knob at 0 the suspend sometimes aborts in the task freezer: ext4lazyinit (still a
# freezable kthread in 7.3) refuses to freeze for 20 s right after a boot that mounted a fresh
# loop ext4 (known issue ext4lazyinit-freeze-timeout, 2 of 5 boots; seen again in a CI run
# 2026-12-05). The rig judges that itself: the suspend verdict is known as freezer-abort-knob0,
# clean-resume as the task's own entry, the run exits 0 (known). Any other failure is exit 1.
# It is printed when it happens, never retried.
knob0_ok() {
    [ "$RC" -eq 0 ] || return 1
    [ "$(sql "$db" "SELECT count(*) FROM verdicts v JOIN cycles c ON v.cycle_id=c.id
        WHERE c.run_id=$RUN_ID AND v.known_issue='freezer-abort-knob0'")" -eq 0 ] ||
        echo "known: knob0 run $RUN_ID's suspend aborted in the freezer (freezer-abort-knob0; the task's entry on clean-resume): judged known by the rig, not retried"
}
check "knob 0: rig run exits 0 (a documented freezer abort judged known)" knob0_ok
check "knob 0: knob-semantics passed, the kernel froze nothing" \
    [ "$(sql "$db" "SELECT count(*) FROM verdicts v JOIN cycles c ON v.cycle_id=c.id WHERE c.run_id=$RUN_ID AND v.name='knob-semantics' AND v.result='pass' AND v.knob_freeze_filesystems=0 AND v.detail LIKE 'freeze_filesystems=0, kernel %: filesystems_freeze() froze nothing'")" -eq 1 ]

# --- hang: injected during resume, classified, recovered, exit 1 ----------------------------
run hang tests/e2e/plans/hang.yaml
HANG_RUN=$RUN_ID
check "hang: rig run exits 1 (not 0, not 3)" [ "$RC" -eq 1 ]
check "hang: the first cycle is a hang in phase resume" \
    [ "$(sql "$db" "SELECT status || ':' || hang_phase FROM cycles WHERE run_id=$RUN_ID AND idx=0")" = "hang:resume" ]
check "hang: console tail stored for it" [ -n "$(sql "$db" "SELECT console_tail FROM cycles WHERE run_id=$RUN_ID AND idx=0")" ]
check "hang: recovered by power-cycling, next cycle passed" \
    [ "$(sql "$db" "SELECT status FROM cycles WHERE run_id=$RUN_ID AND idx=1")" = "pass" ]

# --- wake-time: an RTC wake passes, a QMP wake 2 s into a 30 s alarm is premature -----------
run wake tests/e2e/plans/wake-early.yaml
echo "  [wake] rtc:   $(wake_of 0)"
echo "  [wake]        $(wake_time 0)"
echo "  [wake] early: $(wake_of 1)"
echo "  [wake]        $(wake_time 1)"
check "wake: rig run exits 1 (the premature wake fails its cycle)" [ "$RC" -eq 1 ]
check "wake: the RTC wake passed wake-time, asleep 4-13 s of its 8 s alarm" \
    [ "$(wake_time 0 | cut -d'|' -f1)" = pass -a \
      "$(sql "$db" "SELECT count(*) FROM cycle_wakes w JOIN cycles c ON w.cycle_id=c.id WHERE c.run_id=$RUN_ID AND c.idx=0 AND w.asleep_ms BETWEEN 4000 AND 13000")" -eq 1 ]
check "wake: the RTC wake counted the RTC's own wakeup source (not a pass for want of evidence)" \
    has <(wake_time 0) "^pass\|.*wakeup sources [^ ]+, the RTC's: "
check "wake: the early wake failed wake-time as premature: the RTC's source quiet, back early" \
    has <(wake_time 1) "^fail\|premature wake: not the RTC \(its wakeup source [^ ]+ did not count.*, back [0-9]+ ms after arming"
check "wake: the early wake slept about 2 s of its 30" \
    [ "$(sql "$db" "SELECT count(*) FROM cycle_wakes w JOIN cycles c ON w.cycle_id=c.id WHERE c.run_id=$RUN_ID AND c.idx=1 AND w.asleep_ms BETWEEN 500 AND 15000")" -eq 1 ]
check "wake: the early wake's suspend itself passed (only its wake failed)" \
    [ "$(sql "$db" "SELECT v.result FROM verdicts v JOIN cycles c ON v.cycle_id=c.id WHERE c.run_id=$RUN_ID AND c.idx=1 AND v.name='suspend'")" = pass ]

# --- no-loss: power cut while suspended and a discarded hibernation image ------------------
run loss-knob1 tests/e2e/plans/power-cut.yaml
check "no-loss knob 1: nothing acknowledged is lost" [ "$(verdicts "$RUN_ID" no-loss fail)" -eq 0 ]
check "no-loss knob 1: every writer verified" [ "$(verdicts "$RUN_ID" no-loss pass)" -ge 6 ]
check "no-loss knob 1: filesystems check clean" [ "$(verdicts "$RUN_ID" fsck fail)" -eq 0 ]
check "no-loss knob 1: the power cut in s2idle passed (seen asleep, not a hang in phase suspend)" \
    [ "$(sql "$db" "SELECT status FROM cycles WHERE run_id=$RUN_ID AND idx=2")" = "pass" ]
check "no-loss knob 1: fio's verify-only pass found every fio-acknowledged block intact" \
    [ "$(sql "$db" "SELECT count(*) FROM verdicts v JOIN cycles c ON v.cycle_id=c.id WHERE c.run_id=$RUN_ID AND v.name='no-loss' AND v.result='pass' AND v.detail LIKE 'fio: every acknowledged block intact%'")" -ge 8 ]
check "no-loss knob 1: no fio verdict failed or could not run" \
    [ "$(sql "$db" "SELECT count(*) FROM verdicts v JOIN cycles c ON v.cycle_id=c.id WHERE c.run_id=$RUN_ID AND v.name='no-loss' AND v.result <> 'pass' AND v.detail LIKE 'fio:%'")" -eq 0 ]
# The freeze alone: knob 1 with sync_on_suspend 0 and no userspace sync before the suspend (a
# power cut arms no RTC alarm, so rig-dut does not sync first); loss-knob0 below is the same with
# the freeze off too, and loses records.
run loss-freeze-only tests/e2e/plans/power-cut-freeze-only.yaml
check "no-loss by the freeze alone (knob 1, sync_on_suspend 0): the cycle ran with sync_on_suspend 0" \
    [ "$(sql "$db" "SELECT count(*) FROM cycles WHERE run_id=$RUN_ID AND step_kind LIKE 'power-cut%' AND knob_freeze_filesystems=1 AND knob_sync_on_suspend=0")" -eq 1 ]
check "no-loss by the freeze alone: nothing acknowledged is lost" [ "$(verdicts "$RUN_ID" no-loss fail)" -eq 0 ]
check "no-loss by the freeze alone: every journal and fio writer verified" \
    [ "$(verdicts "$RUN_ID" no-loss pass)" -ge 8 -a \
      "$(sql "$db" "SELECT count(*) FROM verdicts v JOIN cycles c ON v.cycle_id=c.id WHERE c.run_id=$RUN_ID AND v.name='no-loss' AND v.result='pass' AND v.detail LIKE 'fio: every acknowledged block intact%'")" -ge 4 ]
# fio's power cut happens only if the suspend gets that far: with knob 0 and no sync, freezing the
# kernel threads sometimes fails (jbd2 of the loop ext4 waits on the xfs below it: known issue
# jbd2-loop-freeze-timeout, 2 of 11 runs in known-issues.yaml; or ext4lazyinit, busy after the boot,
# refuses to: ext4lazyinit-freeze-timeout, 2 of 5 boots, seen here in CI 2026-12-05). Such a run holds no fio evidence
# either way. It is run again only for those documented causes (the run's suspend aborted with one
# of those known issues matched), at most twice, each retry counted and listed in the summary; a run
# without fio evidence for any other cause is not retried, and the check below fails.
for attempt in 1 2 3; do
    run fio-loss-knob0 tests/e2e/plans/fio-power-cut-knob0.yaml
    [ "$(sql "$db" "SELECT count(*) FROM verdicts v JOIN cycles c ON v.cycle_id=c.id WHERE c.run_id=$RUN_ID AND v.name='no-loss' AND v.detail LIKE 'fio:%'")" -gt 0 ] && break
    [ "$attempt" -lt 3 ] || break
    why=$(sql "$db" "SELECT v.known_issue FROM verdicts v JOIN cycles c ON v.cycle_id=c.id WHERE c.run_id=$RUN_ID AND v.known_issue IN ('jbd2-loop-freeze-timeout','ext4lazyinit-freeze-timeout') LIMIT 1")
    [ -n "$why" ] || break
    retried "fio-loss-knob0: run $RUN_ID's suspend aborted by known issue $why (documented: jbd2 2 of 11 runs, ext4lazyinit 2 of 5 boots): no power cut, no fio evidence"
done
check "fio no-loss negative control (knob 0, no sync): lost fio-acknowledged blocks reported" \
    [ "$(sql "$db" "SELECT count(*) FROM verdicts v JOIN cycles c ON v.cycle_id=c.id WHERE c.run_id=$RUN_ID AND v.name='no-loss' AND v.result='fail' AND v.detail LIKE 'fio: acknowledged blocks lost or damaged%'")" -ge 1 ]
run loss-knob0 tests/e2e/plans/power-cut-knob0.yaml
check "no-loss negative control (knob 0, no sync): loss reported" [ "$(verdicts "$RUN_ID" no-loss fail)" -ge 1 ]
check "no-loss negative control: the run fails (exit 1)" [ "$RC" -eq 1 ]

# --- negative controls on the fault kernel --------------------------------------------------
faults=out/kernel-faults
if [ -e "$faults/bzImage" ]; then
    run fault-skip-xfs tests/e2e/plans/stall.yaml --kernel "$faults" --append rig_fault=skip-xfs-freeze
    check "stall negative control: xfs reported not frozen" [ "$(verdicts_fs "$RUN_ID" stall sata-xfs fail)" -ge 1 ]
    check "stall negative control: only xfs fails" \
        [ "$(sql "$db" "SELECT count(*) FROM verdicts v JOIN cycles c ON v.cycle_id=c.id WHERE c.run_id=$RUN_ID AND v.name='stall' AND v.result='fail' AND v.filesystem <> 'sata-xfs'")" -eq 0 ]
    check "knob-semantics negative control at knob 1: sata-xfs reported not frozen" \
        [ "$(sql "$db" "SELECT count(*) FROM verdicts v JOIN cycles c ON v.cycle_id=c.id WHERE c.run_id=$RUN_ID AND v.name='knob-semantics' AND v.result='fail' AND v.detail LIKE '%did not freeze sata-xfs (froze:%'")" -ge 1 ]

    # A write through a frozen filesystem, caught by the stall verdict's own comparison of the
    # writers' operations with the window (20 of 20 cycles in tests/e2e/plans/stall-soak.yaml).
    # Positive control: the smoke run's stall verdicts above passed on the default kernel.
    run fault-through-frozen tests/e2e/plans/stall.yaml --kernel "$faults" --append rig_fault=pagefault-through-frozen
    cycles=$(sql "$db" "SELECT count(*) FROM cycles WHERE run_id=$RUN_ID")
    check "stall negative control (ext4 page faults skip the freeze protection): every cycle fails stall on ext4 with stores completed while frozen" \
        [ "$cycles" -eq 2 -a "$(sql "$db" "SELECT count(DISTINCT c.id) FROM verdicts v JOIN cycles c ON v.cycle_id=c.id WHERE c.run_id=$RUN_ID AND v.name='stall' AND v.result='fail' AND v.filesystem IN ('nvme-ext4','loop-ext4') AND v.detail LIKE '%wrote_while_frozen=%' AND v.detail NOT LIKE '%wrote_while_frozen=0 %'")" -eq "$cycles" ]
    check "stall negative control: only ext4 fails" \
        [ "$(sql "$db" "SELECT count(*) FROM verdicts v JOIN cycles c ON v.cycle_id=c.id WHERE c.run_id=$RUN_ID AND v.name='stall' AND v.result='fail' AND v.filesystem NOT IN ('nvme-ext4','loop-ext4')")" -eq 0 ]

    # Positive control: the knob0 run above on the default kernel froze nothing.
    run fault-knob0 tests/e2e/plans/knob0.yaml --kernel "$faults" --append rig_fault=reverse-knob-check
    check "knob-semantics negative control (6.18.0's reversed check): knob 0 froze every filesystem, verdict fails" \
        [ "$(sql "$db" "SELECT count(*) FROM verdicts v JOIN cycles c ON v.cycle_id=c.id WHERE c.run_id=$RUN_ID AND v.name='knob-semantics' AND v.result='fail' AND v.known_issue IS NULL AND v.detail LIKE '%the kernel froze %sda1%nvme0n1p1%'")" -eq 1 ]
    check "knob-semantics negative control: the run fails (exit 1)" [ "$RC" -eq 1 ]

    run fault-warn tests/e2e/plans/stall.yaml --kernel "$faults" --append rig_fault=warn-on-thaw
    check "clean-resume negative control: a fresh WARN fails the verdict" \
        [ "$(sql "$db" "SELECT count(*) FROM verdicts v JOIN cycles c ON v.cycle_id=c.id WHERE c.run_id=$RUN_ID AND v.name='clean-resume' AND v.result='fail' AND v.known_issue IS NULL AND v.detail LIKE '%filesystems_thaw%'")" -ge 1 ]
    check "known issues: a fresh WARN still fails the run (exit 1)" [ "$RC" -eq 1 ]

    # Positive control of the same: the smoke run above (mmap journal writers, knob 1, default
    # kernel) passed clean-resume on every cycle.
    run fault-unfreezable tests/e2e/plans/unfreezable.yaml --kernel "$faults" --append rig_fault=unfreezable-pagefault
    check "clean-resume negative control: the suspend failed in the task freezer" \
        [ "$(sql "$db" "SELECT count(*) FROM verdicts v JOIN cycles c ON v.cycle_id=c.id WHERE c.run_id=$RUN_ID AND v.name='suspend' AND v.result='fail' AND v.detail LIKE '%last_failed_step=freeze%'")" -ge 1 ]
    check "clean-resume negative control: fails naming the journal writers that refused to freeze" \
        [ "$(sql "$db" "SELECT count(*) FROM verdicts v JOIN cycles c ON v.cycle_id=c.id WHERE c.run_id=$RUN_ID AND v.name='clean-resume' AND v.result='fail' AND v.known_issue IS NULL AND v.detail LIKE '%refusing to freeze%' AND v.detail LIKE '%task:journal-writer%'")" -ge 1 ]
    check "clean-resume negative control: the refusing tasks are stored as freeze-stuck-task events" \
        [ "$(sql "$db" "SELECT count(*) FROM events e JOIN cycles c ON e.cycle_id=c.id WHERE c.run_id=$RUN_ID AND e.kind='freeze-stuck-task' AND e.text LIKE '%journal-writer%'")" -ge 1 ]

    # Positive control of order: the smoke run's order verdicts passed (loop fs frozen first).
    run fault-order tests/e2e/plans/order.yaml --kernel "$faults" --append rig_fault=forward-freeze-order
    check "order negative control: the suspend hangs freezing filesystems (hang in phase suspend)" \
        [ "$(sql "$db" "SELECT status || ':' || hang_phase FROM cycles WHERE run_id=$RUN_ID AND idx=0")" = "hang:suspend" ]
    check "order negative control: order fails, xfs frozen before the loop fs, loop0's freeze never returned" \
        [ "$(sql "$db" "SELECT count(*) FROM verdicts v JOIN cycles c ON v.cycle_id=c.id WHERE c.run_id=$RUN_ID AND v.name='order' AND v.result='fail' AND v.detail LIKE '%sda1 (holding%' AND v.detail LIKE '%freeze_super(loop0) did not return%'")" -eq 1 ]

    run fault-owner tests/e2e/plans/owner.yaml --kernel "$faults" --append rig_fault=thaw-not-owned
    check "owner negative control: the kernel thawed a userspace freeze" [ "$(verdicts "$RUN_ID" owner fail)" -ge 1 ]
else
    fail "fault kernel missing ($faults): make kernel-faults"
fi

# --- owner: positive control on the default kernel ------------------------------------------
run owner tests/e2e/plans/owner.yaml
check "owner: a userspace freeze survives suspend and thaws with fsfreeze -u" [ "$(verdicts "$RUN_ID" owner pass)" -ge 1 ]

# --- dashboard from this real database ----------------------------------------------------
"$rig" dashboard --db "$db" --out "$work/dash" >"$work/dash.log" 2>&1
check "dashboard renders the real runs" has "$work/dash/index.html" 'qemu'
check "dashboard has a page for every run" \
    [ "$(ls "$work/dash/runs" | grep -c '\.html$')" -eq "$(sql "$db" "SELECT count(*) FROM runs")" ]
# The hang run's page carries its console tail: its last non-empty line, HTML-escaped as the page
# writes it (the run's id, not its position, names the page: plans added above move it).
hang_page_shows_tail() {
    local page=$work/dash/runs/$HANG_RUN.html line
    line=$(sql "$db" "SELECT console_tail FROM cycles WHERE run_id=$HANG_RUN AND idx=0" |
        sed 's/[[:space:]]*$//' | grep -v '^$' | tail -n 1 |
        sed "s/&/\\&amp;/g; s/</\\&lt;/g; s/>/\\&gt;/g; s/\"/\\&quot;/g; s/'/\\&#39;/g")
    [ -n "$line" ] && grep -q 'class="console-tail"' "$page" && grep -qF -- "$line" "$page"
}
check "dashboard shows the hang's console tail (run $HANG_RUN's page)" hang_page_shows_tail

# --- known issues: "possibly fixed" after quiet nights (on a copy of this database's schema) --
if bash tests/known/test-possibly-fixed.sh "$db" >"$work/known.log" 2>&1; then
    ok "rig known: possibly-fixed rule"
else
    cat "$work/known.log"; fail "rig known: possibly-fixed rule"
fi

finish "end-to-end on boards/qemu.yaml"
