#!/bin/bash
# Checks the fio jobs in workloads/fio on the host: each parses, runs for a second in a temp
# directory without a verify error and saves its verify state; verify-only.fio then passes on
# that data, agrees with the write job on every data-defining option, and fails once a block is
# damaged (negative control). Usage: workloads/tests/fio-jobs.sh   (about 10 s)
set -euo pipefail

FIO_DIR="$(cd "$(dirname "$0")/../fio" && pwd)"
JOBS=(seq-write rand-write mmap-write)
DATA_OPTIONS=(filename size bs ioengine rw randseed)

command -v fio >/dev/null || { echo "fio-jobs: fio is not installed" >&2; exit 1; }
WORK="$(mktemp -d "${TMPDIR:-/tmp}/fio-jobs.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
export DIR="$WORK" RUNTIME=1
failures=0

fail() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}

# Value of option $2 as section [$3] of job file $1 sees it: the section's own line, else [global].
option_value() {
	awk -v want="$2" -v section="$3" '
		/^\[/ { current = substr($0, 2, length($0) - 2); next }
		/^[ \t]*[;#]/ { next }
		{
			split($0, kv, "=")
			if (kv[1] != want) next
			if (current == section) own = kv[2]
			else if (current == "global") global = kv[2]
		}
		END { print (own != "" ? own : global) }' "$1"
}

# Terse v3 field 5 is the job's error number.
job_error() {
	awk -F';' 'NR == 1 { print $5 }' "$1"
}

run_fio() {
	local out="$1"; shift
	fio --aux-path="$WORK" --output-format=terse --terse-version=3 "$@" >"$out" 2>"$out.err"
}

for job in "${JOBS[@]}" verify-only; do
	fio --parse-only "$FIO_DIR/$job.fio" >/dev/null 2>&1 || fail "$job.fio does not parse"
done

for job in "${JOBS[@]}"; do
	for option in "${DATA_OPTIONS[@]}"; do
		written="$(option_value "$FIO_DIR/$job.fio" "$option" "$job")"
		verified="$(option_value "$FIO_DIR/verify-only.fio" "$option" "$job")"
		[[ "$written" == "$verified" ]] ||
			fail "$option: $job.fio has '$written', verify-only.fio [$job] has '$verified'"
	done

	if ! run_fio "$WORK/$job.out" "$FIO_DIR/$job.fio" || [[ "$(job_error "$WORK/$job.out")" != 0 ]]; then
		fail "$job.fio: run failed: $(head -c 300 "$WORK/$job.out.err")"
		continue
	fi
	[[ -s "$WORK/local-$job-0-verify.state" ]] || fail "$job.fio saved no verify state"
	run_fio "$WORK/$job.verify" --section="$job" "$FIO_DIR/verify-only.fio" ||
		fail "verify-only [$job] failed on intact data: $(head -c 300 "$WORK/$job.verify.err")"
done

# Negative control: a zeroed block in the middle of the sequential file must fail verification.
dd if=/dev/zero of="$WORK/seq-write.dat" bs=4k seek=100 count=1 conv=notrunc status=none
if run_fio "$WORK/damaged.verify" --section=seq-write "$FIO_DIR/verify-only.fio"; then
	fail "verify-only [seq-write] passed on a damaged file"
fi

if ((failures > 0)); then
	echo "fio-jobs: $failures failure(s)" >&2
	exit 1
fi
echo "fio-jobs: ${#JOBS[@]} jobs ran and verified; damaged data was caught"
