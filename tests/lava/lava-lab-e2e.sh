#!/usr/bin/env bash
# tests/lava/lava-lab-e2e.sh — the whole LAVA path on a real local lab (make check-lava-lab;
# root; QEMU boots: run it alone on the machine):
#   1. jobs/lava-lab.sh up: lava-server 2023.01 + PostgreSQL 15 + worker, device qemu-rig;
#   2. `rig boot` holds board qemu while the nightly script (jobs/nightly/nightly.sh) submits
#      the short job (one suspend, one power cut, verify after LAVA's second boot): the job's
#      QEMU waits for the board (its log says so), then runs; meanwhile `rig run` is refused,
#      naming the job's QEMU; the nightly follows the job, imports it by REST and writes the
#      dashboard, which shows the run as LAVA job N linked to the server's job page;
#   3. a job whose board never boots (an empty initramfs: the kernel panics, no root) is imported
#      as a run that failed with a failed boot verdict, not dropped, and shown on the dashboard;
#   4. importing both again stores nothing.
# Prints the lab's start time, each job's queue-to-result time and how many jobs the worker ran.
# The lab is taken down at the end unless it was already up (LAVA_LAB_KEEP=1 keeps it).
#
# Environment: RIG (out/bin/rig), OUT (out), LAVA_LAB_PORT, TMPDIR.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
RIG=$(readlink -f "${RIG:-$top/out/bin/rig}")
OUT=${OUT:-$top/out}
export RIG OUT
[ -x "$RIG" ] || { echo "lava-lab-e2e: $RIG missing (make rig)"; exit 2; }
[ -f "$OUT/kernel/bzImage" ] && [ -f "$OUT/image/initramfs.cpio" ] ||
    { echo "lava-lab-e2e: kernel or image missing (make kernel image)"; exit 2; }
LAB=${LAVA_LAB_DIR:-/var/lib/suspend-rig/lava-lab}
work=$(mktemp -d "${TMPDIR:-/tmp}/rig-lava-lab.XXXXXX")
# The board's lock of this test only: a host where others run `rig run --board qemu` for their
# own QEMU boards does not get in the way (the lab's QEMU wrapper is written for it).
export RIG_LOCK_DIR=$work/locks LAVA_LAB_LOCK_DIR=$work/locks
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", b - a }'; }
holder=
was_up=0
curl -fsS -o /dev/null "http://localhost:${LAVA_LAB_PORT:-8000}/api/v0.2/system/version/" 2>/dev/null && was_up=1
cleanup() {
    [ -z "$holder" ] || kill "$holder" 2>/dev/null
    if [ "$was_up" = 0 ] && [ "${LAVA_LAB_KEEP:-0}" != 1 ]; then
        bash jobs/lava-lab.sh down
    else
        LAVA_LAB_LOCK_DIR='' bash jobs/lava-lab.sh up >/dev/null   # the wrapper back to the default locks
    fi
    rm -rf "$work"
}
trap cleanup EXIT

# 1. the lab
t=$(now)
if bash jobs/lava-lab.sh up >"$work/up.log" 2>&1; then
    pass "lab up in $(secs "$t" "$(now)") s: $(grep -o 'install .* start .* s' "$work/up.log")"
else
    cat "$work/up.log"; fail "lab up"; exit 1
fi
# shellcheck disable=SC1091
. "$LAB/env"
export RIG_LAVA_SERVER RIG_LAVA_TOKEN_FILE
api() { curl -fsS -H "Authorization: Token $(cat "$RIG_LAVA_TOKEN_FILE")" "$RIG_LAVA_SERVER/api/v0.2/$1"; }
jobs_before=$(api "jobs/?actual_device=qemu-rig&state=Finished&limit=1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["count"])')

# 2. rig boot holds the board (an exclusive driver) while the nightly submits
( "$RIG" boot --board qemu --exec 'sleep 20' >"$work/boot.log" 2>&1 & echo $! >"$work/holder"; wait ) &
for _ in $(seq 1 100); do [ -s "$work/holder" ] && break; sleep 0.1; done
holder=$(cat "$work/holder")
sleep 2
cat >"$work/nightly.conf" <<EOF
RIG_TOP=$top
RIG=$RIG
BOARDS=qemu
PLANS=tests/lava/plans/short.yaml
DB=$work/results.db
DASHBOARD=$work/dashboard
JOB_TIMEOUT=900
SINCE_DAYS=1
EOF
t_submit=$(now)
bash jobs/nightly/nightly.sh "$work/nightly.conf" >"$work/nightly.log" 2>&1 &
nightly=$!
# while the job's QEMU runs, rig run must be refused, naming it
refused=
for _ in $(seq 1 600); do
    kill -0 "$nightly" 2>/dev/null || break
    if grep -q 'qemu-system-x86_64' "$RIG_LOCK_DIR/qemu.lock" 2>/dev/null; then
        "$RIG" run --board qemu --plan smoke >"$work/run.log" 2>&1
        refused="exit $? $(grep -o 'locked by pid [0-9]* ([^)]*' "$work/run.log" | cut -c1-120)"
        break
    fi
    sleep 1
done
wait "$nightly"; nightly_rc=$?
t_done=$(now)
wait "$holder" 2>/dev/null; holder=
cat "$work/nightly.log"
job=$(sed -n 's/^LAVA job \([0-9]*\) submitted.*/\1/p' "$work/nightly.log" | head -n 1)
if [[ "$refused" == "exit 3 locked by pid"*"rig lock --board qemu"*"qemu-system-x86_64"* ]]; then
    pass "rig run during LAVA job $job refused: $refused"
else
    fail "rig run during the LAVA job was not refused (${refused:-the QEMU of the job never held the board})"
fi
if [ -n "$job" ] && api "jobs/$job/logs/" >"$work/job.log" 2>/dev/null &&
   grep -q 'waiting up to [0-9]* s: board qemu is locked by pid [0-9]* ([^)]*rig boot' "$work/job.log"; then
    pass "LAVA job $job waited for the board rig boot held: $(grep -o 'waiting up to [0-9]* s: board qemu is locked by pid [0-9]*' "$work/job.log" | head -n 1)"
else
    fail "LAVA job ${job:-?} did not wait for rig boot's board"
fi
db=$work/results.db
q() { sqlite3 "$db" "$1" 2>/dev/null; }
count() { q "SELECT count(*) FROM verdicts v JOIN cycles c ON c.id = v.cycle_id JOIN runs r ON r.id = c.run_id WHERE r.lava_job_id = '$job' AND v.name = '$1' AND v.result = '$2'"; }
# (the nightly's own exit is the worst of every job it imported, older ones of the lab included)
if grep -q "job $job imported (exit [01])" "$work/nightly.log" &&
   [ "$(q "SELECT source || ' ' || lava_server FROM runs WHERE lava_job_id = '$job'")" = "lava $RIG_LAVA_SERVER" ] &&
   [ "$(count suspend pass)" -ge 1 ] && [ "$(count no-loss pass)" = 4 ] && [ "$(count fsck pass)" = 4 ]; then
    pass "job $job: submitted, followed, imported by REST (nightly exit $nightly_rc): suspend passed, no-loss 4/4 and fsck 4/4 after the power cut; queue to result $(secs "$t_submit" "$t_done") s"
else
    q "SELECT r.lava_job_id, c.idx, v.name, ifnull(v.filesystem, '-'), v.result FROM verdicts v JOIN cycles c ON c.id = v.cycle_id JOIN runs r ON r.id = c.run_id"
    fail "job ${job:-?} (nightly exit $nightly_rc)"
fi
if grep -q "LAVA job $job" "$work/dashboard/index.html" 2>/dev/null &&
   grep -rq "href=\"$RIG_LAVA_SERVER/scheduler/job/$job\"" "$work/dashboard" 2>/dev/null; then
    pass "dashboard shows LAVA job $job linked to $RIG_LAVA_SERVER/scheduler/job/$job"
else
    fail "dashboard does not show LAVA job ${job:-?} with its link"
fi

# the real server's pagination: the same job read 7 cases a page stores the same verdicts
rows="SELECT group_concat(c.idx || ':' || v.name || ':' || ifnull(v.filesystem, '-') || ':' || v.result, ' ')
      FROM (SELECT * FROM verdicts ORDER BY id) v JOIN cycles c ON c.id = v.cycle_id JOIN runs r ON r.id = c.run_id
      WHERE r.lava_job_id = '$job'"
"$RIG" lava import --db "$work/paged.db" --job "$job" --page-size 7 >"$work/paged.log" 2>&1
pages=$(sed -n 's/.* test cases in \([0-9]*\) pages$/\1/p' "$work/paged.log")
if [ -n "$pages" ] && [ "$pages" -ge 3 ] && [ -n "$(q "$rows")" ] &&
   [ "$(sqlite3 "$work/paged.db" "$rows")" = "$(q "$rows")" ]; then
    pass "lava-server pagination: job $job in $pages pages of 7 ($(grep -o '[0-9][0-9]* test cases' "$work/paged.log" | head -n 1)), same verdicts as one page of 100"
else
    cat "$work/paged.log"; fail "lava-server pagination (pages '${pages}')"
fi

# 3. a board that never boots (an initramfs without /bin/sh: the kernel panics, no root):
#    imported as a failed run, not dropped
# an initramfs with nothing but /etc (LAVA appends its overlay there): no /bin/sh, no root
mkdir -p "$work/empty/etc"
(cd "$work/empty" && find . | cpio -o -H newc 2>/dev/null) >"$work/empty.cpio"
# The board panics in a loop (panic=-1 reboots before the "end Kernel panic" line LAVA waits
# for): the job ends at its boot timeout, 2 min here (timeouts.boot 30 s) instead of 5.
sed "s/^  boot: [0-9]*/  boot: 30/" boards/qemu.yaml >"$work/qemu.yaml"
grep -q "^  boot: 30" "$work/qemu.yaml" || fail "boards/qemu.yaml has no timeouts.boot to shorten"
t=$(now)
"$RIG" lava submit --board "$work/qemu.yaml" --plan tests/lava/plans/short.yaml --timeout 900 \
    --initrd "file://$work/empty.cpio" --db "$db" >"$work/bad.log" 2>&1
bad_rc=$?
cat "$work/bad.log"
bad=$(sed -n 's/^LAVA job \([0-9]*\) submitted.*/\1/p' "$work/bad.log")
if [ "$bad_rc" = 1 ] && [ "$(q "SELECT status FROM runs WHERE lava_job_id = '$bad'")" = fail ] &&
   [ "$(q "SELECT count(*) FROM verdicts v JOIN cycles c ON c.id = v.cycle_id JOIN runs r ON r.id = c.run_id WHERE r.lava_job_id = '$bad' AND v.name = 'boot' AND v.result = 'fail'")" = 1 ]; then
    pass "job $bad (kernel panics: empty initramfs): imported as a failed run, boot verdict failed: $(q "SELECT v.detail FROM verdicts v JOIN cycles c ON c.id = v.cycle_id JOIN runs r ON r.id = c.run_id WHERE r.lava_job_id = '$bad'") (exit $bad_rc) in $(secs "$t" "$(now)") s"
else
    q "SELECT id, status, exit_code FROM runs WHERE lava_job_id = '${bad:-x}'"
    fail "job ${bad:-?} (board never boots): exit $bad_rc"
fi
"$RIG" dashboard --db "$db" --out "$work/dashboard" >/dev/null
if grep -rq "href=\"$RIG_LAVA_SERVER/scheduler/job/$bad\"" "$work/dashboard"; then
    pass "dashboard shows the failed job $bad"
else
    fail "dashboard does not show the failed job ${bad:-?}"
fi

# 4. importing again stores nothing
runs=$(q 'SELECT count(*) FROM runs')
"$RIG" lava import --db "$db" --since "$(date -u -d '1 day ago' +%F)" --device qemu-rig >"$work/again.log" 2>&1
if [ "$(q 'SELECT count(*) FROM runs')" = "$runs" ] && [ "$(grep -c 'already stored' "$work/again.log")" -ge 2 ]; then
    pass "import --since again: $(grep -c 'already stored' "$work/again.log") jobs already stored, $runs runs"
else
    cat "$work/again.log"; fail "import --since again changed the runs"
fi

jobs_after=$(api "jobs/?actual_device=qemu-rig&state=Finished&limit=1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["count"])')
echo "lava-lab-e2e: the worker ran $((jobs_after - jobs_before)) jobs in this test, $jobs_after on qemu-rig in all"
echo "tests/lava/lava-lab-e2e.sh: $([ "$failures" = 0 ] && echo all passed || echo "$failures failed")"
[ "$failures" = 0 ]
