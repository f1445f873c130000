#!/bin/bash
# Headless-browser test of the dashboard: render a small history with planted hostile strings,
# load the pages in Chromium from file://, assert on the DOM chromium built, and save a
# screenshot of the index.
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

cells=$(grep -o '<td class="cell [a-z]*"' <<<"$INDEX_DOM" | wc -l)
[ "$cells" -eq 15 ] || fail "index: $cells matrix cells, want 15 (3 boards x 5 nights)"
for cls in pass fail known infra none; do
	grep -q "<td class=\"cell $cls\"" <<<"$INDEX_DOM" || fail "index: no '$cls' cell"
done
grep -q 'failing\|new failure' <<<"$INDEX_DOM" || fail "index: no regression line"

# The planted markup must arrive as text: no script or img element, title untouched.
for dom in INDEX_DOM RUN_DOM BOARD_DOM; do
	grep -q '<script' <<<"${!dom}" && fail "$dom: a <script> element made it into the page"
	grep -q '<img' <<<"${!dom}" && fail "$dom: an <img> element made it into the page"
	grep -q '<title>[^<]*pwned\|<title>1</title>' <<<"${!dom}" && fail "$dom: planted script ran"
done
grep -q '<title>run 13</title>' <<<"$RUN_DOM" || fail "run page: title changed"
grep -q '&lt;script&gt;document.title' <<<"$RUN_DOM" || fail "run page: console tail not shown"
grep -q 'hang in phase' <<<"$RUN_DOM" || fail "run page: no hang details"
[ "$(grep -o '<svg class="phases"' <<<"$RUN_DOM" | wc -l)" -eq 4 ] || fail "run page: want 4 timelines"
grep -q '<svg class="trend"' <<<"$RUN_DOM" || fail "run page: no trend chart"

chrome --screenshot="$SHOT" --window-size=1400,900 "file://$SITE/index.html" >/dev/null
[ -s "$SHOT" ] || fail "no screenshot"
echo "browser.sh: PASS ($cells cells; screenshot $SHOT)"
