#!/usr/bin/env bash
# commands.sh — the rig command line as a user meets it: every command that `rig help` lists
# answers --help, -h and `rig help COMMAND` with exit 0 and its own usage on stdout, and nothing
# on stderr (rig help --help too), and so do the scripts a lab engineer runs by hand; no
# command, an unknown command and bad numbers (out of range, not whole) are refused with exit 2
# before anything else happens (no board is booted).
# Usage: rig/tests/cli/commands.sh   (after `make rig`; RIG=path/to/rig to override; ~1 s)
set -uo pipefail
RIG=${RIG:-out/bin/rig}
work=$(mktemp -d "${TMPDIR:-/tmp}/rig-cli-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
ok() { echo "ok - $*"; passed=$((passed + 1)); }
not_ok() { echo "not ok - $*"; failed=$((failed + 1)); }
# expect CODE DESCRIPTION COMMAND...: exit status CODE
expect() {
    local want=$1 what=$2; shift 2
    "$@" >"$work/out" 2>"$work/err"; local rc=$?
    if [ "$rc" = "$want" ]; then ok "$what (exit $rc)"; else not_ok "$what: exit $rc, wanted $want"; cat "$work/err"; fi
}

[ -x "$RIG" ] || { echo "commands.sh: $RIG missing (make rig)"; exit 2; }
commands=$("$RIG" help | awk '/^commands:/ { f = 1; next } /^$/ { f = 0 } f && $1 != "help" { print $1 }')
[ "$(echo "$commands" | wc -w)" -ge 10 ] && ok "rig help lists $(echo $commands | wc -w) commands" ||
    not_ok "rig help lists too few commands: $commands"
for c in $commands; do
    for form in "$c --help" "$c -h" "help $c"; do
        # shellcheck disable=SC2086 # the form is words
        "$RIG" $form >"$work/out" 2>"$work/err"; rc=$?
        if [ "$rc" = 0 ] && head -n 1 "$work/out" | grep -q "^usage: rig $c\b" && [ ! -s "$work/err" ]; then
            ok "rig $form"
        else
            not_ok "rig $form: exit $rc, first line '$(head -n 1 "$work/out")', stderr '$(head -c 200 "$work/err")'"
        fi
    done
done
for form in "--help" "-h" "help" "help --help" "help -h" "help help"; do
    # shellcheck disable=SC2086 # the form is words
    "$RIG" $form >"$work/out" 2>"$work/err"; rc=$?
    if [ "$rc" = 0 ] && head -n 1 "$work/out" | grep -q "^usage: rig COMMAND" && [ ! -s "$work/err" ]; then
        ok "rig $form"
    else
        not_ok "rig $form: exit $rc, first line '$(head -n 1 "$work/out")', stderr '$(head -c 200 "$work/err")'"
    fi
done
# the scripts a lab engineer runs by hand answer --help the same way, before touching anything
for script in scripts/deps.sh kernel/build.sh kernel/fetch-source.sh image/build.sh \
              image/debian/build.sh jobs/lava-lab.sh jobs/nightly/nightly.sh bench/run.sh \
              vbench/build.sh vbench/lab.sh; do
    OUT="$work/out-dir" bash "$script" --help >"$work/out" 2>"$work/err"; rc=$?
    if [ "$rc" = 0 ] && [ -s "$work/out" ] && [ ! -s "$work/err" ] && [ ! -e "$work/out-dir" ]; then
        ok "$script --help"
    else
        not_ok "$script --help: exit $rc, stderr '$(head -c 200 "$work/err")'"
    fi
done
expect 2 "rig without a command" "$RIG"
expect 2 "an unknown command" "$RIG" no-such-command
expect 2 "rig help of an unknown command" "$RIG" help no-such-command
expect 0 "rig --version" "$RIG" --version
# numbers are whole and in range, never wrapped (4294967297 used to be taken as 1 night)
expect 2 "rig known --nights 4294967297" "$RIG" known --nights 4294967297
expect 2 "rig known --nights 0" "$RIG" known --nights 0
expect 2 "rig run --cycles 4294967297" "$RIG" run --board qemu --plan smoke --cycles 4294967297
expect 2 "rig run --cycles ' 5'" "$RIG" run --board qemu --plan smoke --cycles ' 5'
expect 2 "rig boot --timeout abc" "$RIG" boot --board qemu --timeout abc
expect 2 "rig boot --kernel with no bzImage" "$RIG" boot --board qemu --kernel /nonexistent
expect 2 "rig power --ms 1e3" "$RIG" power --board qemu --ms 1e3 press
expect 2 "rig results --last -1" "$RIG" results --last -1
expect 2 "rig bisect-sim --seed -1" "$RIG" bisect-sim --seed -1
expect 2 "rig bisect --bad-history 5/3" "$RIG" bisect --board qemu --plan smoke --kernel-src . \
    --good HEAD~1 --bad HEAD --bad-history 5/3
expect 2 "rig bisect --bad-history 3" "$RIG" bisect --board qemu --plan smoke --kernel-src . \
    --good HEAD~1 --bad HEAD --bad-history 3
# a "billion laughs" board (10^9 nodes once its aliases are expanded) is refused at its first
# alias, by file and line, before anything is parsed further: exit 2 within a second
laughs=rig/tests/data/boards/billion-laughs.yaml
start=$(date +%s%N)
"$RIG" run --board "$laughs" --plan smoke >"$work/out" 2>"$work/err"; rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
if [ "$rc" = 2 ] && [ "$ms" -lt 1000 ] && grep -q "^rig: $laughs:16: YAML alias \*l0: aliases are refused" "$work/err"; then
    ok "rig run on a billion-laughs board: exit 2 in $ms ms"
else
    not_ok "rig run on a billion-laughs board: exit $rc in $ms ms, stderr '$(head -c 300 "$work/err")'"
fi

echo "cli commands: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
