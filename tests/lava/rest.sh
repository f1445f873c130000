#!/usr/bin/env bash
# tests/lava/rest.sh — `rig lava import --server` and `rig lava submit` against a stand-in LAVA
# REST API (tests/lava/fake-lava-rest.py on 127.0.0.1) with pages far smaller than a job: every
# page is read, `next` is never followed to another host, a `next` that never ends is an error,
# a job is stored once and whole, a failed job is stored, not dropped. No VM; about 5 s.
# The real lava-server is tested by tests/lava/lava-lab-e2e.sh.
#
# Environment: RIG (default out/bin/rig), TMPDIR.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
RIG=${RIG:-$top/out/bin/rig}
[ -x "$RIG" ] || { echo "rest.sh: $RIG missing (make rig, or RIG=...)"; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/rig-lava-rest.XXXXXX")
server_pid=
cleanup() { [ -z "$server_pid" ] || kill "$server_pid" 2>/dev/null || true; [ -n "${KEEP:-}" ] || rm -rf "$work"; }
trap cleanup EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }
sql() { sqlite3 "$1" "$2"; }

# Job 7: the nightly export of rig/tests/data/lava (9 cases in 4 suites, one stall failed).
# Job 8: a job whose kernel never booted: LAVA failed it before any cycle.
# Job 6: a job the lab failed before rig-setup ran: only its definition names the board.
python3 - "$work/jobs.json" <<'EOF'
import json, sys
tests = json.load(open("rig/tests/data/lava/rest-nightly.json"))
boot_failed = {"results": [
    {"id": 1, "name": "board.qemu", "result": "pass", "suite": 50, "unit": "", "measurement": None,
     "metadata": "case: board.qemu\ndefinition: 1_rig-setup-000\nresult: pass\n",
     "logged": "2026-12-03T02:00:00Z"},
    {"id": 2, "name": "job", "result": "fail", "suite": 51, "unit": "", "measurement": None,
     "metadata": "case: job\ndefinition: lava\nerror_msg: 'auto-login-action: kernel panic'\nerror_type: Job\nresult: fail\n",
     "logged": "2026-12-03T02:05:00Z"}]}
lab_failed = {"results": [
    {"id": 3, "name": "job", "result": "fail", "suite": 60, "unit": "", "measurement": None,
     "metadata": "case: job\ndefinition: lava\nerror_msg: Connection closed\nerror_type: Infrastructure\nresult: fail\n",
     "logged": "2026-12-03T01:00:00Z"}]}
json.dump({"6": {"health": "Incomplete", "device": "qemu-rig", "end_time": "2026-12-03T01:00:00Z",
                 "definition": "device_type: qemu\nmetadata:\n  rig.board: \"qemu\"\n  rig.plan: \"smoke\"\n  rig.kernel_version: \"7.3.4-rig\"\n",
                 "tests": lab_failed},
           "7": {"health": "Complete", "device": "qemu-rig", "end_time": "2026-12-03T01:40:00Z",
                 "tests": tests},
           "8": {"health": "Incomplete", "device": "qemu-rig", "end_time": "2026-12-03T02:05:00Z",
                 "tests": boot_failed}}, open(sys.argv[1], "w"))
EOF

start_server() {
    [ -z "$server_pid" ] || { kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; }
    rm -f "$work/port"
    python3 tests/lava/fake-lava-rest.py "$work/port" "$work/jobs.json" "$@" 2>>"$work/server.log" &
    server_pid=$!
    for _ in $(seq 1 100); do [ -s "$work/port" ] && break; sleep 0.05; done
    [ -s "$work/port" ] || { cat "$work/server.log"; echo "rest.sh: fake server did not start"; exit 2; }
    URL="http://127.0.0.1:$(cat "$work/port")"
}
rig() { set +e; "$RIG" "$@" >"$work/out" 2>"$work/err"; rc=$?; set -e; }

# 1. a job of 9 cases read two at a time: 5 pages, all stored, same rows as the export file
start_server --page-size 2
db=$work/server.db
rig lava import --db "$db" --server "$URL" --job 7 --page-size 2
pages=$(sed -n 's/.* test cases in \([0-9]*\) pages$/\1/p' "$work/out")
sqlite3 "$work/file.db" 'SELECT 1' >/dev/null
"$RIG" lava import --db "$work/file.db" --rest rig/tests/data/lava/rest-nightly.json --job-id 7 >/dev/null || true
rows="SELECT group_concat(c.idx || ':' || v.name || ':' || ifnull(v.filesystem, '-') || ':' || v.result, ' ')
      FROM verdicts v JOIN cycles c ON c.id = v.cycle_id"
if [ "$rc" = 1 ] && [ "$pages" = 5 ] && grep -q '9 test cases' "$work/out" &&
   [ "$(sql "$db" "$rows")" = "$(sql "$work/file.db" "$rows")" ] &&
   [ "$(sql "$db" "SELECT lava_job_id || ' ' || lava_server || ' ' || board FROM runs")" = "7 $URL laptop-x86" ]; then
    pass "pagination: 9 cases in $pages pages of 2, suites named through /suites/, same verdicts as the export (exit $rc)"
else
    cat "$work/out" "$work/err"; fail "pagination (exit $rc, pages '$pages')"
fi

# 2. importing it again stores nothing and exits as the first import did
rig lava import --db "$db" --server "$URL" --job 7 --page-size 2
if [ "$rc" = 1 ] && grep -q 'already stored as run 1' "$work/out" && [ "$(sql "$db" 'SELECT count(*) FROM runs')" = 1 ]; then
    pass "import twice: stored once (exit $rc both times)"
else
    cat "$work/out" "$work/err"; fail "import twice (exit $rc)"
fi

# 3. --since: every finished job, the list itself one job per page, twice: stored once; the job
#    whose kernel never booted is stored as a failed boot, the one the lab failed before rig-setup
#    as infra on the board its definition names: neither is dropped
start_server --page-size 1
db=$work/since.db
rig lava import --db "$db" --server "$URL" --since 2026-12-01 --device qemu-rig
first=$rc
rig lava import --db "$db" --server "$URL" --since 2026-12-01 --device qemu-rig
if [ "$first" = 3 ] && [ "$rc" = 3 ] && grep -q '3 jobs finished since 2026-12-01T00:00:00 on qemu-rig (3 pages)' "$work/out" &&
   [ "$(grep -c 'already stored' "$work/out")" = 3 ] &&
   [ "$(sql "$db" "SELECT board || ' ' || plan || ' ' || kernel_version || ' ' || status || ' ' || exit_code FROM runs WHERE lava_job_id = '6'")" = "qemu smoke 7.3.4-rig infra 3" ] &&
   [ "$(sql "$db" "SELECT status || ' ' || exit_code FROM runs WHERE lava_job_id = '8'")" = "fail 1" ] &&
   [ "$(sql "$db" "SELECT c.step_kind || ' ' || v.name || ' ' || v.result || ' ' || v.detail FROM verdicts v JOIN cycles c ON c.id = v.cycle_id JOIN runs r ON r.id = c.run_id WHERE r.lava_job_id = '8'")" = "boot boot fail LAVA Job error: 'auto-login-action: kernel panic'" ] &&
   [ "$(sql "$db" 'SELECT count(*) FROM runs')" = 3 ]; then
    pass "--since: 3 jobs over 3 pages, twice, stored once each; the kernel that did not boot as a failed boot verdict, the lab's failure as infra on its definition's board, plan and kernel (exit $rc)"
else
    cat "$work/out" "$work/err"; fail "--since (exit $first, $rc)"
fi
rig lava import --db "$db" --server "$URL" --since 2026-12-03T02:00
if [ "$rc" = 1 ] && grep -q '1 jobs finished since 2026-12-03T02:00' "$work/out"; then
    pass "--since with a time: only the later job"
else
    cat "$work/out" "$work/err"; fail "--since with a time (exit $rc)"
fi

# 4. a `next` naming another host is asked of our own server (the token stays home)
start_server --page-size 2 --foreign-next
rig lava import --db "$work/foreign.db" --server "$URL" --job 7 --page-size 2
if [ "$rc" = 1 ] && grep -q '9 test cases in 5 pages' "$work/out"; then
    pass "foreign next: pages fetched from $URL only"
else
    cat "$work/out" "$work/err"; fail "foreign next (exit $rc)"
fi

# 5. negative control: a `next` that never ends is an error, and nothing is stored
start_server --page-size 2 --endless
rig lava import --db "$work/endless.db" --server "$URL" --job 7 --page-size 2
if [ "$rc" = 3 ] && grep -q 'pagination does not end' "$work/err" &&
   [ "$(sql "$work/endless.db" 'SELECT count(*) FROM runs' 2>/dev/null || echo 0)" = 0 ]; then
    pass "endless next refused: $(head -c 160 "$work/err")"
else
    cat "$work/out" "$work/err"; fail "endless next (exit $rc)"
fi

# 6. submit: rendered job posted with the token, followed to the end, imported
start_server --page-size 3
printf 'secret\n' >"$work/token"; chmod 600 "$work/token"
rig lava submit --server "$URL" --token-file "$work/token" --board qemu --plan smoke --poll 1 --db "$work/submit.db"
if [ "$rc" = 1 ] && grep -q 'LAVA job 9 submitted (qemu-smoke)' "$work/out" &&
   grep -q 'Submitted' "$work/err" && grep -q 'Running on qemu-rig' "$work/err" &&
   grep -q 'Finished on qemu-rig, Complete' "$work/err" &&
   [ "$(sql "$work/submit.db" 'SELECT lava_job_id FROM runs')" = 9 ]; then
    pass "submit: job 9 followed Submitted -> Running -> Finished and imported"
else
    cat "$work/out" "$work/err"; fail "submit (exit $rc)"
fi
printf 'wrong\n' >"$work/token"
rig lava submit --server "$URL" --token-file "$work/token" --board qemu --plan smoke --no-wait
if [ "$rc" = 2 ] && grep -q 'HTTP 401: Invalid token' "$work/err"; then
    pass "submit with a wrong token: exit 2, the server's words"
else
    cat "$work/out" "$work/err"; fail "submit with a wrong token (exit $rc)"
fi
chmod 644 "$work/token"
rig lava submit --server "$URL" --token-file "$work/token" --board qemu --plan smoke --no-wait
if [ "$rc" = 2 ] && grep -q 'readable by others' "$work/err"; then
    pass "a token file readable by others is refused"
else
    cat "$work/out" "$work/err"; fail "token file mode (exit $rc)"
fi

# 7. the nightly script: submit, follow, import, import --since, dashboard with the job's link
printf 'secret\n' >"$work/token"; chmod 600 "$work/token"
cat >"$work/nightly.conf" <<EOF
RIG=$RIG
RIG_LAVA_SERVER=$URL
RIG_LAVA_TOKEN_FILE=$work/token
BOARDS="qemu"
PLANS="smoke"
DB=$work/nightly.db
DASHBOARD=$work/dashboard
SINCE_DAYS=100000
EOF
set +e
bash jobs/nightly/nightly.sh "$work/nightly.conf" >"$work/out" 2>"$work/err"
rc=$?
set -e
job=$(sed -n 's/^LAVA job \([0-9]*\) submitted.*/\1/p' "$work/out")
if [ "$rc" = 3 ] && [ -n "$job" ] && grep -q "job $job imported (exit 1)" "$work/out" &&
   [ "$(sql "$work/nightly.db" 'SELECT count(*) FROM runs')" = 4 ] &&
   grep -q "href=\"$URL/scheduler/job/$job\">LAVA job $job</a>" "$work/dashboard/index.html"; then
    pass "nightly.sh: job $job submitted, followed, imported; jobs 6, 7 and 8 by --since; dashboard links job $job (exit $rc: the worst, job 6)"
else
    cat "$work/out" "$work/err"; fail "nightly.sh (exit $rc)"
fi

[ "$failures" = 0 ] && echo "tests/lava/rest.sh: all passed" || echo "tests/lava/rest.sh: $failures failed"
[ "$failures" = 0 ]
