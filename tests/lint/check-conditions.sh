#!/usr/bin/env bash
# A test driver's `check NAME COMMAND...` judges one command. Written as
#   check "x" [ a ] && [ b ]
# only `[ a ]` is judged: `[ b ]` runs after check, its failure is lost, and the test asserts less
# than it says (two e2e checks did, unnoticed, until 2026-12-05). This lint refuses any check whose
# statement (backslash continuations joined) chains a condition with && or || after its first
# command; write one `[ a -a b ]` or a function instead.
# Usage: check-conditions.sh [FILE...] (default: every tests/**/*.sh and jobs/**/*.sh).
# Exit 0 clean, 1 with every offending file:line listed. Its negative control: --self-test.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)

lint() {
    awk '
        function judge() {
            if (stmt ~ /^[ \t]*check[ \t]/ && stmt ~ /[]")][ \t]*(&&|\|\|)/) {
                printf "%s:%d: check chains a condition outside itself: %s\n", FILENAME, first, substr(stmt, 1, 120)
                bad = 1
            }
        }
        FNR == 1 { stmt = "" }
        {
            if (stmt == "") first = FNR
            stmt = stmt $0
            if ($0 ~ /\\$/) { sub(/\\$/, "", stmt); next }
            judge(); stmt = ""
        }
        END { exit bad }
    ' "$@"
}

if [ "${1:-}" = --self-test ]; then
    tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
    printf 'check "a" [ 1 -eq 1 ] && [ 1 -eq 2 ]\n' >"$tmp/bad1.sh"
    printf 'check "b" \\\n    [ 1 -eq 1 ] && \\\n    [ 2 -eq 2 ]\n' >"$tmp/bad2.sh"
    printf 'check "c" [ 1 -eq 1 -a 2 -eq 2 ]\nif [ 1 ] && [ 2 ]; then :; fi\n' >"$tmp/good.sh"
    lint "$tmp/bad1.sh" >/dev/null && { echo "not ok - lint missed a chained check on one line"; exit 1; }
    lint "$tmp/bad2.sh" >/dev/null && { echo "not ok - lint missed a chained check across lines"; exit 1; }
    out=$(lint "$tmp/good.sh") || { echo "not ok - lint refused good checks: $out"; exit 1; }
    echo "ok - check-conditions lint: 2 chained checks refused, 1 good file passed"
    exit 0
fi

if [ $# -eq 0 ]; then
    mapfile -t files < <(cd "$top" && find tests jobs -name '*.sh' | sort)
    cd "$top"
    set -- "${files[@]}"
fi
if lint "$@"; then
    echo "ok - check-conditions lint: $# test scripts, no check chains a condition outside itself"
else
    exit 1
fi
