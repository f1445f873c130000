# Helpers for the shell test drivers (tests/*/run.sh). Sourced.
TESTS_PASSED=0
TESTS_FAILED=0
TESTS_FAILED_NAMES=()
ok()   { echo "ok - $1"; TESTS_PASSED=$((TESTS_PASSED + 1)); }
fail() { echo "not ok - $1"; TESTS_FAILED=$((TESTS_FAILED + 1)); TESTS_FAILED_NAMES+=("$1"); }
# check NAME CONDITION-COMMAND...: ok when the command succeeds.
check() { local name=$1; shift; if "$@"; then ok "$name"; else fail "$name"; fi; }
# check_eq NAME GOT WANT: ok when the two strings are equal; else both are shown.
check_eq() {
    if [ "$2" = "$3" ]; then ok "$1"; else fail "$1"; echo "#   got:  $2"; echo "#   want: $3"; fi
}
# has FILE REGEX: the file contains a line matching the extended regex.
has() { grep -Eq -- "$2" "$1"; }
# retried WHY: a test driver ran something again. Only a documented, explained cause may be
# retried (say which, with its measured rate); every retry is counted and listed by finish.
TESTS_RETRIES=()
retried() { TESTS_RETRIES+=("$1"); echo "retry: $1"; }
finish() {
    echo "$1: $TESTS_PASSED passed, $TESTS_FAILED failed, ${#TESTS_RETRIES[@]} retried"
    [ "${#TESTS_RETRIES[@]}" -eq 0 ] || printf '  retried: %s\n' "${TESTS_RETRIES[@]}"
    [ "$TESTS_FAILED" -eq 0 ] || { printf '  failed: %s\n' "${TESTS_FAILED_NAMES[@]}"; return 1; }
}
# sql DB QUERY: one value.
sql() { sqlite3 -batch -noheader "$1" "$2"; }
