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
# lacks FILE REGEX: no line of the file matches (so a file that is not there lacks it too).
lacks() { ! grep -Eq -- "$2" "$1"; }
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
# show_run LOG TAG [LINES]: the end of a rig run's log (LINES, 30) and, when the log names its run
# directory, the end of the board's console and of QEMU's raw serial output and stderr: CI shows
# only its output, and a boot that stopped (firmware, PXE, kernel or agent) is told apart there.
# run_dir LOG: the run directory a rig run's log names (its last, if it names several).
run_dir() { sed -n 's/^rig run: .*run directory //p' "$1" | tail -n 1; }
show_run() {
    local dir f
    tail -n "${3:-30}" "$1" | sed "s/^/  [$2] /"
    dir=$(run_dir "$1")
    [ -n "$dir" ] || return 0
    [ -s "$dir/console.log" ] || echo "  [$2] --- $dir/console.log is empty: the board's serial port carried nothing"
    for f in console.log qemu-serial.log qemu.stderr; do
        [ -s "$dir/$f" ] || continue
        echo "  [$2] --- the end of $dir/$f"
        tail -n 12 "$dir/$f" | cut -c1-160 | sed "s/^/  [$2] /"
    done
}
