#!/usr/bin/env bash
# run-units.sh BIN... — run each cmocka unit-test program (built with ASan+UBSan) and sum up.
set -uo pipefail
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export RIG_TOP=${RIG_TOP:-$(pwd)}
passed=0 failed=0 failed_names=()
for bin in "$@"; do
    echo "=== $(basename "$bin")"
    if "$bin"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1)); failed_names+=("$(basename "$bin")")
    fi
done
echo "unit programs: $passed passed, $failed failed${failed_names:+ (${failed_names[*]})}"
[ "$failed" -eq 0 ]
