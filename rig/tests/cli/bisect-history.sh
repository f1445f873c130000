#!/usr/bin/env bash
# bisect-history.sh — rig bisect reads the bad kernel's history from the results database: the
# cycles of runs whose kernel was built from the bad commit, on the same board, at the plan's
# step and knob, become the prior evidence about p ("history: F of C cycles of <kernel> from
# runs ..."). --bad-history overrides it, --no-history ignores it. Negative controls: cycles of
# another commit, another board, another step, the other knob value, a series build and an
# unusable (infra) cycle are in the same database and must not count. No board is booted: every
# build fails. Without a history the search must first see the bad commit fail, cannot build it
# and stops (exit 3); with one (2 failures, at least --endpoint-fails) it goes straight to the
# middle commit, whose failed build leaves a range (exit 0), with p's estimate from the history
# alone: the posterior mean (F+1)/(C+2) of a uniform prior.
# Usage: rig/tests/cli/bisect-history.sh   (after `make rig`; RIG=path/to/rig to override; ~1 s)
set -uo pipefail
. "$(dirname "$0")/../../../tests/lib.sh"
RIG=$(realpath "${RIG:-out/bin/rig}")
work=$(mktemp -d "${TMPDIR:-/tmp}/rig-bisect-history.XXXXXX")
trap 'rm -rf "$work"' EXIT

[ -x "$RIG" ] || { echo "bisect-history.sh: $RIG missing (make rig)"; exit 2; }
command -v sqlite3 >/dev/null || { echo "bisect-history.sh: sqlite3 missing (make deps)"; exit 2; }
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
export GIT_CONFIG_NOSYSTEM=1 HOME=$work RIG_LOCK_DIR=$work/locks OUT=$work/out
repo=$work/repo
{
    git init -q -b main "$repo" && echo a > "$repo/a" && git -C "$repo" add a &&
    git -C "$repo" commit -q -m good && echo b > "$repo/a" && git -C "$repo" commit -q -am middle &&
    echo c > "$repo/a" && git -C "$repo" commit -q -am bad
} || { echo "bisect-history.sh: cannot build the fixture repository"; exit 2; }
bad=$(git -C "$repo" rev-parse HEAD)
other=$(git -C "$repo" rev-parse HEAD~1)
db=$work/results.db

# bisect ARGS...: rig bisect of the fixture on the QEMU board with tests/bisect/plan.yaml (deep
# suspends at freeze_filesystems 1); output in $work/out.txt. Every build fails.
bisect() {
    "$RIG" bisect --board qemu --plan tests/bisect/plan.yaml --kernel-src "$repo" --good HEAD~2 \
        --bad HEAD --build-cmd /bin/false --db "$db" "$@" >"$work/out.txt" 2>&1
}
# expect_line CODE DESCRIPTION PATTERN ARGS...: bisect ARGS exits CODE and prints PATTERN
expect_line() {
    local want=$1 what=$2 pattern=$3; shift 3
    bisect "$@"; local rc=$?
    if [ "$rc" = "$want" ] && grep -q -- "$pattern" "$work/out.txt"; then
        ok "$what"
    else
        fail "$what: exit $rc (wanted $want), no line '$pattern' in:"; cat "$work/out.txt"
    fi
}

expect_line 3 "an empty database: no history" "^history: no earlier cycles of ${bad:0:12} on board qemu"

# run ID BOARD SHA META: a run of a kernel built from SHA; cycle RUN IDX DESC KNOB STATUS
run() {
    sql "$db" "INSERT INTO runs (id, board, night, kernel_version, kernel_sha, kernel_meta,
        started_at) VALUES ($1, '$2', '2026-12-01', '7.3.4-bad', '$3', $4, 1)"
}
cycle() {
    sql "$db" "INSERT INTO cycles (run_id, idx, step_kind, step_desc, status, started_at,
        knob_freeze_filesystems) VALUES ($1, $2, 'suspend', '$3', '$5', 1, $4)"
}
deep='suspend deep wake=rtc 2s'
run 5 qemu "$bad" NULL
run 6 qemu "$bad" "'{\"series\": null}'"
run 7 qemu "$other" NULL
run 8 laptop-x86 "$bad" NULL
run 9 qemu "$bad" "'{\"series\": \"/srv/faults\"}'"
cycle 5 0 "$deep" 1 fail; cycle 5 1 "$deep" 1 pass; cycle 5 2 "$deep" 1 infra
cycle 5 3 "$deep" 0 fail; cycle 5 4 'hibernate resume=yes' 1 fail
cycle 6 0 "$deep" 1 hang; cycle 6 1 "$deep" 1 pass; cycle 6 2 "$deep" 1 pass
for r in 7 8 9; do cycle $r 0 "$deep" 1 fail; cycle $r 1 "$deep" 1 fail; done

expect_line 0 "the bad commit's cycles at the plan's step and knob are the history" \
    "^history: 2 of 5 cycles of 7.3.4-bad (${bad:0:12}) from runs 6, 5:"
check "the search starts from p ~ 3/7" has "$work/out.txt" "^step 0: .* p ~ 0\.43;"
check "the history line is in bisect.log" grep -q "^history: 2 of 5 cycles" "$OUT"/bisects/qemu/*/bisect.log
expect_line 0 "--bad-history overrides the database" \
    "^history: 1 of 9 cycles of the bad commit, as --bad-history gave them" --bad-history 1/9
check "the search starts from p ~ 2/11" has "$work/out.txt" "^step 0: .* p ~ 0\.18;"
expect_line 3 "--no-history ignores the database" "^history: not read (--no-history)" --no-history
expect_line 2 "--bad-history with --no-history is refused" "contradict" --no-history --bad-history 1/9

finish "bisect history"
