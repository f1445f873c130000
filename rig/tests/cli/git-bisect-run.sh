#!/usr/bin/env bash
# git-bisect-run.sh — `git bisect run rig bisect-step -- TEST` on a real git repository made here.
# The culprit sits inside a merged branch; the board is unusable on the first step (the test exits
# 3, infrastructure) and the test is killed by a signal on the second. Through rig bisect-step
# git skips both commits and names the branch commit, not the merge. Negative controls: the same
# test without bisect-step, where git takes exit 3 for "bad" and blames a good commit, and where
# the signal's exit 137 aborts the bisect.
# Usage: rig/tests/cli/git-bisect-run.sh   (after `make rig`; RIG=path/to/rig to override; ~1 s)
set -uo pipefail
RIG=$(realpath "${RIG:-out/bin/rig}")
work=$(mktemp -d "${TMPDIR:-/tmp}/rig-git-bisect.XXXXXX")
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
ok() { echo "ok - $*"; passed=$((passed + 1)); }
not_ok() { echo "not ok - $*"; failed=$((failed + 1)); }

[ -x "$RIG" ] || { echo "git-bisect-run.sh: $RIG missing (make rig)"; exit 2; }
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
export GIT_CONFIG_NOSYSTEM=1 HOME=$work
repo=$work/repo
# main: c0 - c1 - c2 - c3 - c4 - merge(c4, s3) - z; side from c1: s1 - s2 (adds the bug) - s3.
# Fixed commit dates (the merge shares s3's): git bisect breaks ties between equally good
# midpoints by date, and the controls need it to test the same commits every time.
n=0
commit() {
    n=$((n + 1))
    export GIT_AUTHOR_DATE="@$((1700000000 + n)) +0000" GIT_COMMITTER_DATE="@$((1700000000 + n)) +0000"
    echo "$1" > "$1.txt" && git add -A && git commit -q -m "$1" && git tag "$1"
}
{
    git init -q -b main "$repo" && cd "$repo" &&
    commit c0 && commit c1 && commit c2 && commit c3 && commit c4 &&
    git checkout -q -b side c1 && commit s1 && touch bug && commit s2 && commit s3 &&
    git checkout -q main && git merge -q --no-edit -m merge side && git tag merge && commit z
} || { echo "git-bisect-run.sh: cannot build the fixture repository"; exit 2; }
# A stand-in for a plan's `rig run` (outside the repository, as a lab's runner is): the first
# call finds the board unusable (exit 3), the second is killed by a signal unless NOKILL is set,
# then 1 when the regression is in the checked-out tree, 0 when not.
cat > "$work/test.sh" <<'SCRIPT'
#!/bin/sh
state=$(dirname "$0")/state
git log -1 --format=%s >> "$state.log"
[ -e "$state.1" ] || { touch "$state.1"; exit 3; }
[ -n "${NOKILL:-}" ] || [ -e "$state.2" ] || { touch "$state.2"; kill -KILL $$; }
[ -e bug ] && exit 1
exit 0
SCRIPT
chmod +x "$work/test.sh"

# bisect RUNNER...: git bisect run from c0 (good) to z (bad), git's output in run.log.
bisect() {
    rm -f "$work"/state.*
    git -C "$repo" bisect reset >/dev/null 2>&1
    git -C "$repo" bisect start z c0 >/dev/null 2>&1 || return 2
    (cd "$repo" && git bisect run "$@") >"$work/run.log" 2>&1
    local rc=$?
    git -C "$repo" bisect reset >/dev/null 2>&1
    return $rc
}
first_bad() { sed -n 's/^\([0-9a-f]\{40\}\) is the first bad commit$/\1/p' "$work/run.log"; }
tested() { tr '\n' ' ' < "$work/state.log"; }
sha() { git -C "$repo" rev-parse "$1"; }

bisect "$RIG" bisect-step -- "$work/test.sh"
if [ "$(first_bad)" = "$(sha s2)" ]; then
    ok "git bisect run through rig bisect-step names s2, inside the merged branch (tested: $(tested))"
else
    not_ok "git bisect run through rig bisect-step named '$(first_bad)', not s2 (tested: $(tested))"
    cat "$work/run.log"
fi
if head -n 2 "$work/state.log" | tr '\n' ' ' | grep -q '^c4 s3 $' && grep -c '^running' "$work/run.log" | grep -q '^[3-9]'; then
    ok "the infrastructure failure and the killed step were skipped and the bisect went on"
else
    not_ok "the first two steps were not c4 and s3, or the bisect stopped early (tested: $(tested))"
fi

# Negative controls: the same test without rig bisect-step.
NOKILL=1 bisect "$work/test.sh"
if [ "$(first_bad)" = "$(sha c4)" ]; then
    ok "negative control: without bisect-step git takes exit 3 for bad and blames good c4"
else
    not_ok "negative control: without bisect-step git named '$(first_bad)', not c4 (tested: $(tested))"
fi
if ! bisect "$work/test.sh" && [ -z "$(first_bad)" ] && grep -q "exit code 137" "$work/run.log"; then
    ok "negative control: without bisect-step the killed test (137) aborts git bisect run"
else
    not_ok "negative control: the killed test did not abort git bisect run"; cat "$work/run.log"
fi
echo "git-bisect-run.sh: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
