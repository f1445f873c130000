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

# 8. a job of the rig's evidence-recording test definitions: its verdicts are in its log, not its
#    test cases. The log is made by the real rig-agent --record over a stand-in rig-dut: the
#    kernel froze nvme-ext4 only, so the other filesystems' stall fails (the skip-xfs-freeze
#    pattern), and so does knob-semantics (knob 1: every filesystem), as rig run would judge it.
mkdir -p "$work/fakebin"
cat >"$work/fakebin/rig-dut" <<'DUT'
#!/bin/sh
case "$1" in
    info) echo "kernel=7.3.4-rig freeze_filesystems=1 sync_on_suspend=1 boot_id=e5" ;;
    knob) echo "knob=$2 value=$3" ;;
    trace-setup) echo "trace=on clock=boot events=7" ;;
    start-workloads) echo "workloads=4" ;;
    suspend) echo "result=0 successes=1 slept_s=3 presync_ms=12 last_failed_step="
        echo "wake irq=8 irq_name=rtc0 asleep_ms=2900 awake_ms=400 sources=rtc0:1:1" ;;
    trace-read) printf '%s\n' "fs_freeze 10000000000 " "freeze_super 10001000000 nvme0n1p1" \
        "freeze_super_ret 10002000000 " "fs_freeze_done 10003000000 " "fs_thaw 12000000000 " \
        "thaw_super 12001000000 nvme0n1p1" "fs_thaw_done 12002000000 " ;;
    alive) echo "writer=nvme-ext4-m1a alive=1" ;;
    stall-ops) printf '%s\n' "window from_ns=10000000000 to_ns=12002000000" \
        "writer=nvme-ext4-m1a tel ops=90 errors=0 longest_ns=1990000000 inflight_start_ns=0 retained=9" \
        "writer=nvme-ext4-m1a op start_ns=10001500000 end_ns=12001500000 err=0 kind=store seq=90" ;;
esac
DUT
chmod +x "$work/fakebin/rig-dut"
python3 - "$work/jobs-evidence.json" "$work/fakebin" <<'PY'
import json, os, subprocess, sys
env = dict(os.environ, PATH=sys.argv[2] + ":" + os.environ["PATH"],
           RIG_AGENT_TMP=os.path.dirname(sys.argv[1]))
lines, t = [], [0]
def target(msg):
    t[0] += 1
    lines.append(json.dumps({"dt": "2026-12-04T03:00:%02d.%06d" % (t[0] // 100, t[0] % 100),
                             "lvl": "target", "msg": msg}))
def record(*cmd):
    out = subprocess.run(["sh", "workloads/agent/rig-agent.sh", "--record", *cmd], env=env,
                         capture_output=True, text=True).stdout
    for l in out.splitlines():
        target(l)
target("[    0.000000] Linux version 7.3.4-rig (rig@lab) #1 SMP PREEMPT_DYNAMIC")
target("<LAVA_SIGNAL_STARTRUN 0_rig-setup-000 1_1.1>")
lines.append(json.dumps({"dt": "2026-12-04T03:00:00.5", "lvl": "results",
                         "msg": {"case": "board.qemu", "definition": "0_rig-setup-000", "result": "pass"}}))
for c in (["rig-dut", "knob", "freeze_filesystems", "1"], ["rig-dut", "trace-setup"],
          ["rig-dut", "start-workloads", "journal"], ["rig-dut", "info"]):
    record(*c)
target("<LAVA_SIGNAL_ENDRUN 0_rig-setup-000 1_1.1>")
target("<LAVA_SIGNAL_STARTRUN 1_cycle-000-suspend 1_1.2>")
target("[   20.000000] PM: suspend entry (deep)")
target("[   20.100000] ACPI: PM: Preparing to enter system sleep state S3")
target("[   20.200000] PM: suspend exit")
for c in (["rig-dut", "suspend", "deep", "rtc", "3"], ["rig-dut", "trace-read"], ["rig-dut", "alive"],
          ["rig-dut", "stall-ops"]):
    record(*c)
target("<LAVA_SIGNAL_ENDRUN 1_cycle-000-suspend 1_1.2>")
json.dump({"21": {"health": "Complete", "device": "qemu-rig", "end_time": "2026-12-04T03:10:00Z",
                  "tests": {"results": [{"id": 1, "name": "board.qemu", "result": "pass",
                                         "suite": "0_rig-setup-000", "unit": "", "measurement": None,
                                         "logged": "2026-12-04T03:00:00Z"}]},
                  "log": "\n".join(lines) + "\n"}}, open(sys.argv[1], "w"))
PY
cp "$work/jobs.json" "$work/jobs-cases.json"; cp "$work/jobs-evidence.json" "$work/jobs.json"
start_server --page-size 5
cp "$work/jobs-cases.json" "$work/jobs.json"
rig lava import --db "$work/evidence.db" --server "$URL" --job 21
verdicts=$(sql "$work/evidence.db" "SELECT group_concat(v.name || ':' || ifnull(v.filesystem, '-') || ':' || v.result, ' ')
    FROM (SELECT * FROM verdicts ORDER BY name, filesystem) v")
# the suspend's wake accounting: LAVA cannot see the board fall asleep (entry unknown)
wakes=$(sql "$work/evidence.db" "SELECT group_concat(wake || ':' || requested_ms || ':' || asleep_ms || ':' ||
    ifnull(entry_ms, '?') || ':' || irq_name || ':' || sources, ' ') FROM cycle_wakes")
if [ "$rc" = 1 ] && grep -q 'console lines in its log' "$work/out" &&
   [ "$verdicts" = "clean-resume:-:pass knob-semantics:-:fail order:-:skip stall:loop-ext4:fail stall:nvme-btrfs:fail stall:nvme-ext4:pass stall:sata-xfs:fail suspend:-:pass wake-time:-:pass" ] &&
   [ "$wakes" = "rtc:3000:2900:?:rtc0:rtc0:1:1" ]; then
    pass "a job's evidence fetched with its log by REST and judged by the rig: $verdicts; wake $wakes (exit $rc)"
else
    cat "$work/out" "$work/err"; echo "$verdicts"; echo "$wakes"; fail "evidence over REST (exit $rc)"
fi

[ "$failures" = 0 ] && echo "tests/lava/rest.sh: all passed" || echo "tests/lava/rest.sh: $failures failed"
[ "$failures" = 0 ]
