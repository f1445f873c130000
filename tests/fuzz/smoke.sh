#!/bin/bash
# A short, time-boxed libFuzzer run of every harness (make fuzz-smoke): each program runs for
# FUZZ_SECONDS (default 20) at nice 19 from a corpus seeded out of the repository's test data
# (seeds.sh), then prints its executions and crashes. Any crash, leak or sanitizer report
# fails the run; the reproducer is kept in $OUT/fuzz/artifacts/<harness>/.
#   smoke.sh [--expect-crash] HARNESS...
# --expect-crash runs the negative control (control/fuzz_control_crash.c): it passes only when
# every harness given crashed and the crash was counted.
set -u
expect_crash=0
if [ "${1:-}" = --expect-crash ]; then expect_crash=1; shift; fi
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=${OUT:-$top/out}
seconds=${FUZZ_SECONDS:-20}
[ $# -gt 0 ] || { echo "usage: $0 HARNESS..." >&2; exit 2; }
status=0
printf '%-22s %10s %8s %s\n' harness executions crashes result
for bin in "$@"; do
	name=$(basename "$bin")
	corpus=$out/fuzz/corpus/$name
	artifacts=$out/fuzz/artifacts/$name
	log=$out/fuzz/$name.log
	mkdir -p "$corpus" "$artifacts"
	bash "$here/seeds.sh" "$name" "$top" "$corpus" || { echo "$name: cannot seed" >&2; exit 2; }
	nice -n 19 "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
		-max_len=65536 -print_final_stats=1 -artifact_prefix="$artifacts/" \
		"$corpus" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	crashes=$(find "$artifacts" -type f | wc -l)
	result=ok
	if [ "$expect_crash" = 1 ]; then
		if [ "$rc" -ne 0 ] && [ "$crashes" -ne 0 ] && grep -q 'ERROR: AddressSanitizer' "$log"; then
			result="ok (the planted crash was caught, as it must be)"
			rm -rf "$artifacts"
		else
			result="FAILED: the planted crash went unseen (exit $rc; see $log)"
			status=1
		fi
	elif [ "$rc" -ne 0 ] || [ "$crashes" -ne 0 ]; then
		result="FAILED (exit $rc; see $log)"
		status=1
	fi
	printf '%-22s %10s %8s %s\n' "$name" "${execs:-?}" "$crashes" "$result"
done
exit $status
