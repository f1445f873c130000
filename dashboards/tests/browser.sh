#!/bin/bash
# Headless-browser test of the dashboard: render a small history with planted hostile strings,
# load the pages in Chromium from file:// (index, a run, a board, a bisect), assert on the DOM
# chromium built, and save screenshots of the index and the bisect page.
#
#   dashboards/tests/browser.sh            (after `make rig`; RIG=path/to/rig to override)
#
# Needs: chromium (Debian package), sqlite3 CLI. Exit 0 pass, 1 fail, 77 skipped (no chromium).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$ROOT/out}
RIG=${RIG:-$OUT/bin/rig}
WORK=$OUT/dashboard-browser-test
DB=$WORK/results.db
SITE=$WORK/site
SHOT=$WORK/index.png
PLANT='<script>document.title="pwned";alert(1)</script>'
GOOD=1111111111111111111111111111111111111111
BAD=2222222222222222222222222222222222222222
CULPRIT=3333333333333333333333333333333333333333

fail() { echo "browser.sh: FAIL: $*" >&2; exit 1; }

command -v chromium >/dev/null || { echo "browser.sh: SKIP: chromium not installed" >&2; exit 77; }
command -v sqlite3 >/dev/null || fail "sqlite3 CLI not installed"
[ -x "$RIG" ] || fail "no rig binary at $RIG (make rig, or set RIG=)"

rm -rf "$WORK"
mkdir -p "$WORK"
PROFILE=$(mktemp -d)
trap 'rm -rf "$PROFILE"' EXIT

# 3 boards x 5 nights of synthetic runs (4 cycles each), then shape the last nights by hand.
"$RIG" dashboard --synthetic-runs 15 --cycles 4 --boards 3 --keep --out "$WORK/unused" \
	> "$WORK/synth.log"
SYNTH_DIR=$(sed -n 's/^kept //p' "$WORK/synth.log")
[ -f "$SYNTH_DIR/results.db" ] || fail "synthetic database not created"
mv "$SYNTH_DIR/results.db" "$DB"
rm -rf "$SYNTH_DIR" "$WORK/unused"

# Run ids 1..15 go board-00, board-01, board-02 night after night: ids 13..15 are the last night.
sqlite3 "$DB" <<SQL
.bail on
PRAGMA foreign_keys = ON;
UPDATE runs SET status = 'pass' WHERE id <= 12;
UPDATE runs SET status = 'fail' WHERE id = 13;
UPDATE runs SET status = 'known' WHERE id = 14;
UPDATE runs SET status = 'infra' WHERE id = 15;
DELETE FROM runs WHERE id = 11;
UPDATE verdicts SET result = 'fail', detail = 'lost records $PLANT'
 WHERE cycle_id IN (SELECT id FROM cycles WHERE run_id = 13) AND name = 'stall';
UPDATE cycles SET status = 'hang', hang_phase = 'resume', console_tail = 'PM: suspend entry
$PLANT' WHERE run_id = 13 AND idx = 1;
UPDATE verdicts SET result = 'fail', known_issue = 'lockdep-freezer'
 WHERE cycle_id IN (SELECT id FROM cycles WHERE run_id = 14) AND name = 'clean-resume';
UPDATE runs SET kernel_version = '6.17<img src=x onerror="document.title=1">' WHERE id = 14;
-- A bisect of board-01 on the first night: two steps, the answer in both posteriors.
INSERT INTO bisects (id, board, plan, good, bad, confidence, result_commit, result_confidence,
 status, started_at, ended_at) VALUES (1, 'board-01', 'nightly $PLANT', '$GOOD', '$BAD', 0.95,
 '$CULPRIT', 0.97, 'found', 1735732800, 1735736400);
INSERT INTO bisect_steps (bisect_id, idx, "commit", cycles, fails, verdict, posterior_top3, at)
 VALUES (1, 0, '$BAD', 3, 2, 'PFH', '[{"commit": "$CULPRIT", "p": 0.6}]', 1735733000),
 (1, 1, '$CULPRIT', 4, 1, 'PPPI $PLANT',
  '[{"commit": "$CULPRIT", "p": 0.97}, {"commit": "<img src=x onerror=alert(1)>", "p": 0.01}]',
  1735734000);
SQL

"$RIG" dashboard --db "$DB" --out "$SITE" >/dev/null

chrome() {
	timeout 90 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
		--no-first-run --disable-component-update --disable-sync --user-data-dir="$PROFILE" \
		"$@" 2>/dev/null
}

INDEX_DOM=$(chrome --dump-dom "file://$SITE/index.html")
RUN_DOM=$(chrome --dump-dom "file://$SITE/runs/13.html")
BOARD_DOM=$(chrome --dump-dom "file://$SITE/boards/board-01.html")
BISECT_DOM=$(chrome --dump-dom "file://$SITE/bisects/1.html")

cells=$(grep -o '<td class="cell [a-z]*"' <<<"$INDEX_DOM" | wc -l)
[ "$cells" -eq 15 ] || fail "index: $cells matrix cells, want 15 (3 boards x 5 nights)"
for cls in pass fail known infra none; do
	grep -q "<td class=\"cell $cls\"" <<<"$INDEX_DOM" || fail "index: no '$cls' cell"
done
grep -q 'failing\|new failure' <<<"$INDEX_DOM" || fail "index: no regression line"

# The planted markup must arrive as text: no script or img element, title untouched.
for dom in INDEX_DOM RUN_DOM BOARD_DOM BISECT_DOM; do
	grep -q '<script' <<<"${!dom}" && fail "$dom: a <script> element made it into the page"
	grep -q '<img' <<<"${!dom}" && fail "$dom: an <img> element made it into the page"
	grep -q '<title>[^<]*pwned\|<title>1</title>' <<<"${!dom}" && fail "$dom: planted script ran"
done
grep -q '<title>run 13</title>' <<<"$RUN_DOM" || fail "run page: title changed"
grep -q '&lt;script&gt;document.title' <<<"$RUN_DOM" || fail "run page: console tail not shown"
grep -q 'hang in phase' <<<"$RUN_DOM" || fail "run page: no hang details"
[ "$(grep -o '<svg class="phases"' <<<"$RUN_DOM" | wc -l)" -eq 4 ] || fail "run page: want 4 timelines"
grep -q '<svg class="trend"' <<<"$RUN_DOM" || fail "run page: no trend chart"

grep -q '<ul id="bisects">' <<<"$INDEX_DOM" || fail "index: no recent bisects"
grep -q '<table id="bisects">' <<<"$BOARD_DOM" || fail "board page: no bisects table"
grep -q '<title>bisect 1</title>' <<<"$BISECT_DOM" || fail "bisect page: title changed"
grep -q '<span id="status" class="found">found</span>' <<<"$BISECT_DOM" || fail "bisect page: status"
[ "$(grep -o '<tr id="step-' <<<"$BISECT_DOM" | wc -l)" -eq 2 ] || fail "bisect page: want 2 steps"
[ "$(grep -o '<span class="oc o[pfhi]" title=' <<<"$BISECT_DOM" | wc -l)" -eq 7 ] ||
	fail "bisect page: want 7 outcome cells (PFH, PPPI)"
[ "$(grep -o '<code class="answer"' <<<"$BISECT_DOM" | wc -l)" -eq 4 ] ||
	fail "bisect page: the answer should be highlighted 4 times (answer, step 1, 2 posteriors)"
grep -q '<svg class="posterior"' <<<"$BISECT_DOM" || fail "bisect page: no posterior chart"

chrome --screenshot="$SHOT" --window-size=1400,900 "file://$SITE/index.html" >/dev/null
[ -s "$SHOT" ] || fail "no screenshot"
chrome --screenshot="$WORK/bisect.png" --window-size=1400,900 "file://$SITE/bisects/1.html" >/dev/null
[ -s "$WORK/bisect.png" ] || fail "no bisect page screenshot"
echo "browser.sh: PASS ($cells cells, a bisect of 2 steps; screenshots $SHOT, $WORK/bisect.png)"
