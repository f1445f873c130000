#!/usr/bin/env bash
# rig known: a known issue seen on night 1 and absent for the 8 nights after is POSSIBLY FIXED
# with --nights 7, active with --nights 9; an intermittent entry needs twice the nights.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. tests/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# usage: test-possibly-fixed.sh DB — DB is any results database the rig created (its schema).
src=${1:?usage: test-possibly-fixed.sh RESULTS_DB}
db=$tmp/results.db
cp "$src" "$db"
sqlite3 "$db" "PRAGMA foreign_keys=ON; DELETE FROM runs;"
cat >"$tmp/known.yaml" <<'YAML'
issues:
  - id: steady-fault
    title: seen every night until it was fixed
    verdict: clean-resume
  - id: flaky-fault
    title: seen now and then
    verdict: clean-resume
    intermittent: true
YAML
for n in 1 2 3 4 5 6 7 8 9; do
    sqlite3 "$db" "INSERT INTO runs(board, night, started_at, status) VALUES ('qemu', '2026-11-0$n', $n, 'pass');
                   INSERT INTO cycles(run_id, idx, step_kind, status, started_at) VALUES (last_insert_rowid(), 0, 'suspend', 'pass', $n);"
done
cyc1=$(sqlite3 "$db" "SELECT min(c.id) FROM cycles c JOIN runs r ON c.run_id = r.id WHERE r.night = '2026-11-01'")
sqlite3 "$db" "INSERT INTO verdicts(cycle_id, name, result, known_issue) VALUES ($cyc1, 'clean-resume', 'fail', 'steady-fault'),
                                                                            ($cyc1, 'clean-resume', 'fail', 'flaky-fault')"
out/bin/rig known --db "$db" --known "$tmp/known.yaml" --nights 7 >"$tmp/out7" 2>&1
cat "$tmp/out7"
check "steady entry quiet for 8 nights: possibly fixed" has "$tmp/out7" '^steady-fault +2026-11-01 +8 +POSSIBLY FIXED'
check "intermittent entry needs 14 quiet nights: still active" has "$tmp/out7" '^flaky-fault +2026-11-01 +8 +active'
out/bin/rig known --db "$db" --known "$tmp/known.yaml" --nights 9 >"$tmp/out9" 2>&1
check "with --nights 9 the steady entry is active" has "$tmp/out9" '^steady-fault .* active'
finish "rig known"
