#!/usr/bin/env bash
# End-to-end bisect on the QEMU board: a small kernel git history on top of the default kernel base
# (tests/bisect/make-history.sh: seven commits, one of which hangs about one resume in three) is
# bisected by `rig bisect`, which must name the fault commit; and a range with no bad commit in it
# must end inconclusive rather than blame a harmless commit (the negative control).
#
# Usage: tests/bisect/run.sh        (make check-bisect; .ci/run runs it after make check when CI has
#                                    the time; 10 to 23 minutes under TCG, as the flaky hang draws)
# Environment: OUT (default ./out), CONFIDENCE (default 0.95), CULPRIT (1..7, default 4).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. tests/lib.sh
rig=out/bin/rig
out=${OUT:-$top/out}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export RIG_LOCK_DIR=$work/locks
db=$work/results.db
repo=$out/bisect/linux.git

# --- usage errors are told before anything is built ---------------------------------------
"$rig" bisect --board qemu --plan tests/bisect/plan.yaml --kernel-src "$work" --good a --bad b >"$work/usage.log" 2>&1
check "bisect: a directory that is not a git tree is a usage error (exit 2)" [ $? -eq 2 ]
check "bisect: ... and says so" has "$work/usage.log" 'is not a git tree'

mapfile -t revs < <(bash tests/bisect/make-history.sh "$repo") || true
if [ "${#revs[@]}" -ne 3 ]; then
    fail "fixture history: make-history.sh did not give good, bad and culprit"
    finish "bisect end-to-end"
    exit 1
fi
good=${revs[0]} bad=${revs[1]} culprit=${revs[2]}
echo "history: good ${good:0:12}, bad ${bad:0:12}, fault commit ${culprit:0:12}"

"$rig" bisect --board qemu --plan tests/bisect/plan.yaml --kernel-src "$repo" --good "$bad" --bad "$good" >"$work/reversed.log" 2>&1
check "bisect: good after bad is a usage error (exit 2)" [ $? -eq 2 ]

# --- the bisect: must name the fault commit -----------------------------------------------
start=$(date +%s)
"$rig" bisect --board qemu --plan tests/bisect/plan.yaml --kernel-src "$repo" --good "$good" \
    --bad "$bad" --confidence "${CONFIDENCE:-0.95}" --db "$db" >"$work/bisect.log" 2>&1
rc=$?
grep -E '^(rig bisect|step|building|first bad|inconclusive|bisect stopped|[0-9]+ steps)' "$work/bisect.log" | sed 's/^/  [bisect] /'
echo "  [bisect] wall time $(( $(date +%s) - start )) s"
check "bisect: exits 0 (an answer at the confidence asked)" [ "$rc" -eq 0 ]
check "bisect: names the fault commit" has "$work/bisect.log" "^first bad commit: $culprit "
check "bisect: the database holds the answer" \
    [ "$(sql "$db" "SELECT status || ' ' || result_commit FROM bisects ORDER BY id DESC LIMIT 1")" = "found $culprit" ]
check "bisect: every step is stored with its posterior top 3" \
    [ "$(sql "$db" "SELECT count(*) FROM bisect_steps WHERE json_array_length(posterior_top3) BETWEEN 1 AND 3")" -ge 2 ]
check "bisect: at least one hang was observed and recovered from" \
    [ "$(sql "$db" "SELECT count(*) FROM cycles WHERE status = 'hang'")" -ge 1 ]
check "bisect: each run records the candidate's git sha" \
    [ "$(sql "$db" "SELECT count(*) FROM runs WHERE kernel_sha IS NULL OR length(kernel_sha) <> 40")" -eq 0 ]
dir=$(sed -n 's/^rig bisect: .*directory \(.*\)$/\1/p' "$work/bisect.log")
check "bisect: the text log has every step" \
    [ "$(grep -c '^step ' "$dir/bisect.log" 2>/dev/null)" -eq "$(sql "$db" "SELECT count(*) FROM bisect_steps")" ]

"$rig" dashboard --db "$db" --out "$work/dash" >"$work/dash.log" 2>&1
check "bisect: the dashboard has a page for it naming the answer" \
    grep -lq "${culprit:0:12}" "$work/dash/bisects/$(sql "$db" "SELECT max(id) FROM bisects").html"

# --- negative control: no bad commit in the range -> inconclusive, nobody blamed ----------
before=$(git --git-dir="$repo" rev-parse "$culprit^")
"$rig" bisect --board qemu --plan tests/bisect/plan.yaml --kernel-src "$repo" --good "$good" \
    --bad "$before" --max-cycles 8 --db "$db" >"$work/clean.log" 2>&1
rc=$?
grep -E '^(step|inconclusive|first bad)' "$work/clean.log" | sed 's/^/  [no-culprit] /'
check "negative control: a range without the fault is inconclusive (exit 1)" [ "$rc" -eq 1 ]
check "negative control: no commit is named first bad" bash -c "! grep -q '^first bad commit' '$work/clean.log'"

finish "bisect end-to-end"
