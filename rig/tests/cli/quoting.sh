#!/usr/bin/env bash
# quoting.sh — a path that reaches a shell stays data: an OUT holding `;$(touch F)` expands into
# power.command ({out}, bare and inside double quotes) as itself, and F is never created.
# Negative control: the same payload substituted as text (the old way) does create F, so the
# check can see an injection. No board: a command-backend board whose commands only print.
# Usage: rig/tests/cli/quoting.sh   (after `make rig`; RIG=path/to/rig to override; ~1 s)
set -uo pipefail
RIG=$(readlink -f "${RIG:-out/bin/rig}")
[ -x "$RIG" ] || { echo "quoting.sh: $RIG missing (make rig)"; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/rig-quoting-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
failed=0
ok() { echo "ok - $*"; }
not_ok() { echo "not ok - $*"; failed=$((failed + 1)); }

cat >"$work/inject.yaml" <<YAML
name: inject
console:
  transport: serial
  path: /dev/null
power:
  backend: command
  command:
    on: "printf '%s\\\\n' {out}/x \"at {out}\" 'in {out} single' >$work/seen"
    off: "true"
    status: "echo off"
sleep:
  states: [deep]
  wake: [rtc]
YAML
out="$work/o;\$(touch $work/pwned)"
RIG_LOCK_DIR=$work/locks OUT=$out "$RIG" power --board "$work/inject.yaml" on >"$work/out" 2>"$work/err"
rc=$?
printf '%s\n' "$out/x" "at $out" "in $out single" >"$work/want"
if [ "$rc" = 0 ] && cmp -s "$work/seen" "$work/want"; then
    ok "power.command got {out} as one word each time: $(head -n 1 "$work/seen")"
else
    not_ok "power.command with OUT='$out': exit $rc, got '$(cat "$work/seen" 2>/dev/null)'"; cat "$work/err"
fi
if [ ! -e "$work/pwned" ]; then
    ok "the \$(touch) in OUT did not run"
else
    not_ok "the \$(touch) in OUT ran"
fi
rm -f "$work/pwned"
sh -c "printf '%s\\n' $out/x" >/dev/null 2>&1
if [ -e "$work/pwned" ]; then
    ok "negative control: the payload substituted as text runs"
else
    not_ok "negative control: the payload did not run unquoted; the check above proves nothing"
fi
[ "$failed" = 0 ] || { echo "quoting.sh: $failed failure(s)"; exit 1; }
