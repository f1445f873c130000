#!/bin/bash
# seeds.sh HARNESS TOP CORPUS: copy the repository's own test inputs that fit HARNESS into
# CORPUS (existing entries are kept, so a corpus grows across runs).
set -eu
name=$1 top=$2 corpus=$3
seed() { for f in "$@"; do [ -f "$f" ] && cp -f "$f" "$corpus/seed-$(basename "$(dirname "$f")")-$(basename "$f")"; done; return 0; }
case $name in
fuzz_console) seed "$top"/rig/tests/data/console/*.log ;;
fuzz_agent_reply)
	printf '@@RIG@@ 7 begin\n@@RIG@@ 7 | hello\n@@RIG@@ 7 end rc=0 lines=1 crc=3015617425\n' \
		>"$corpus/seed-reply"
	printf '@@RIG@@ 7 error bad base64\n' >"$corpus/seed-error" ;;
fuzz_board) seed "$top"/rig/tests/data/boards/*.yaml "$top"/boards/*.yaml "$top"/rig/tests/data/engine/board*.yaml ;;
fuzz_plan)
	for f in "$top"/plans/*.yaml "$top"/rig/tests/data/plans/*.yaml; do
		[ -f "$f" ] && { printf '\0'; cat "$f"; } >"$corpus/seed-plan-$(basename "$f")"
	done
	for f in "$top"/known-issues/*.yaml "$top"/rig/tests/data/known/*.yaml; do
		[ -f "$f" ] && { printf '\1'; cat "$f"; } >"$corpus/seed-known-$(basename "$f")"
	done ;;
fuzz_lava_log) seed "$top"/rig/tests/data/lava/*.yaml "$top"/rig/tests/data/lava/*.log ;;
fuzz_journal_verify) printf 'valid_prefix=3 records=3 torn=0 corrupt=0 holes=0 first_problem=0 integrity=pass\n' >"$corpus/seed-line" ;;
fuzz_powerd_proto) for l in ping on off cycle "press 300" reset status watch "ok on" "err no"; do
		printf '%s\n' "$l" >"$corpus/seed-${l// /-}"; done ;;
fuzz_control_crash) printf 'BUG' >"$corpus/seed-bug" ;;
*) echo "seeds.sh: no seeds known for $name" >&2; exit 2 ;;
esac
