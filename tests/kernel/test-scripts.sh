#!/usr/bin/env bash
# Unit tests of kernel/'s scripts on tiny synthetic inputs (no kernel build): config-fragment
# verification, series apply and refusal, freeze-series detection.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok()   { echo "ok - $1"; passed=$((passed + 1)); }
fail() { echo "not ok - $1"; failed=$((failed + 1)); }
expect() { # expect NAME WANT_RC CMD...  (stdout+stderr of CMD in $tmp/out)
    local name=$1 want=$2; shift 2
    "$@" >"$tmp/out" 2>&1; local rc=$?
    if [ "$rc" -eq "$want" ]; then ok "$name"; else fail "$name (rc $rc, want $want)"; sed 's/^/    /' "$tmp/out"; fi
}
contains() { if grep -q -- "$2" "$tmp/out"; then ok "$1"; else fail "$1: no '$2' in output"; sed 's/^/    /' "$tmp/out"; fi; }

# --- check-config.sh ---
printf 'CONFIG_A=y\nCONFIG_B="x"\n# CONFIG_C is not set\nCONFIG_D=16\n' >"$tmp/config"
printf 'CONFIG_A=y\nCONFIG_B="x"\n# CONFIG_C is not set\nCONFIG_E=n\n' >"$tmp/good.config"
printf 'CONFIG_A=y\nCONFIG_C=y\nCONFIG_D=32\nCONFIG_F=y\n' >"$tmp/bad.config"
expect "check-config accepts a fragment that survived" 0 "$top/kernel/check-config.sh" "$tmp/config" "$tmp/good.config"
expect "check-config refuses dropped options" 1 "$top/kernel/check-config.sh" "$tmp/config" "$tmp/bad.config"
contains "check-config names a dropped option" "CONFIG_C requested y in bad.config, got n"
contains "check-config names a changed value" "CONFIG_D requested 32 in bad.config, got 16"
contains "check-config names a missing option" "CONFIG_F requested y in bad.config, got n"
contains "check-config counts them" "3 requested option(s) did not survive"
printf '# CONFIG_A is not set\nCONFIG_D=32\n' >"$tmp/early.config"
printf 'CONFIG_D=16\n' >"$tmp/late.config"
expect "check-config: a later fragment overrides an earlier one" 0 \
    "$top/kernel/check-config.sh" "$tmp/config" "$tmp/early.config" "$tmp/good.config" "$tmp/late.config"
expect "check-config: ... and only the last one counts" 1 \
    "$top/kernel/check-config.sh" "$tmp/config" "$tmp/late.config" "$tmp/early.config"
contains "check-config names the fragment that won" "CONFIG_D requested 32 in early.config, got 16"

# --- apply-series.sh ---
mk_tree() {
    rm -rf "$1"; mkdir -p "$1/fs" "$1/kernel/power"
    printf 'struct super_block;\nvoid freeze_super(void);\nvoid thaw_super(void);\n' >"$1/fs/super.c"
    printf 'static int pm_async;\npower_attr(pm_async);\n' >"$1/kernel/power/main.c"
}
mk_tree "$tmp/a"; mk_tree "$tmp/b"
cp -r "$tmp/a" "$tmp/a.orig"
printf 'void filesystems_freeze(bool all);\n' >>"$tmp/b/fs/super.c"
printf 'power_attr(freeze_filesystems);\n' >>"$tmp/b/kernel/power/main.c"
mkdir -p "$tmp/series"
(cd "$tmp" && diff -u a.orig/fs/super.c b/fs/super.c | sed -e 's|^--- a.orig/|--- a/|' >series/0001-fs.patch)
(cd "$tmp" && diff -u a.orig/kernel/power/main.c b/kernel/power/main.c | sed -e 's|^--- a.orig/|--- a/|' >series/0002-power.patch)
printf '# the freeze series, synthetic\n0001-fs.patch\n0002-power.patch -p1\n' >"$tmp/series/series"
expect "detect-series: absent before" 0 "$top/kernel/detect-series.sh" "$tmp/a"
contains "detect-series says absent" "^absent$"
expect "apply-series applies a good series" 0 "$top/kernel/apply-series.sh" "$tmp/series" "$tmp/a"
contains "apply-series reports the count" "2 patch(es) applied"
expect "detect-series: present after" 0 "$top/kernel/detect-series.sh" "$tmp/a"
contains "detect-series says present" "^present$"
expect "apply-series refuses a series that no longer applies" 1 "$top/kernel/apply-series.sh" "$tmp/series" "$tmp/a"
contains "refusal names the patch" "patch 1 (0001-fs.patch) does not apply"
contains "refusal names the failure" "Reversed\|FAILED"
mk_tree "$tmp/c"
printf 'struct other;\n' >"$tmp/c/kernel/power/main.c"
expect "apply-series refuses a hunk that fails" 1 "$top/kernel/apply-series.sh" "$tmp/series" "$tmp/c"
contains "failed hunk is named" "patch 2 (0002-power.patch) does not apply"
contains "failed hunk line is shown" "Hunk #1 FAILED"
printf 'missing.patch\n' >"$tmp/series/series"
expect "apply-series refuses a missing patch file" 1 "$top/kernel/apply-series.sh" "$tmp/series" "$tmp/c"
contains "missing patch is named" "missing.patch"
expect "series hash refuses a missing patch file" 1 "$top/kernel/apply-series.sh" --hash "$tmp/series"
printf '0001-fs.patch\n' >"$tmp/series/series"
h1=$("$top/kernel/apply-series.sh" --hash "$tmp/series")
printf '0001-fs.patch # comment\n\n' >"$tmp/series/series"
h2=$("$top/kernel/apply-series.sh" --hash "$tmp/series")
[ "$h1" = "$h2" ] && ok "series hash ignores comments" || fail "series hash ignores comments ($h1 vs $h2)"

# --- the project's series (kernel/series/<name>/, make kernel KERNEL=<name>) ---
for dir in "$top"/kernel/series/*/; do
    name=$(basename "$dir")
    expect "series $name: every patch listed exists" 0 "$top/kernel/apply-series.sh" --hash "$dir"
    if [ -f "$dir/README.md" ] && grep -q '^\*\*Base\*\*' "$dir/README.md"; then ok "series $name: README.md names its base"
    else fail "series $name: README.md missing or without a **Base** line"; fi
    # Against the real base when make kernel has unpacked it: a copy of the files the patches
    # touch (the pristine tree stays as it is; a copy of all of it took 18 s here).
    pristine=$(ls -d "$top"/out/src/linux-source-*/ 2>/dev/null | grep -v '\.tmp/$' | tail -n 1)
    if [ -n "$pristine" ]; then
        mkdir -p "$tmp/base-$name"
        sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$dir"/*.patch | sort -u >"$tmp/files"
        (cd "$pristine" && xargs cp --parents -t "$tmp/base-$name" <"$tmp/files")
        expect "series $name applies to $(basename "$pristine")" 0 "$top/kernel/apply-series.sh" "$dir" "$tmp/base-$name"
        rm -rf "$tmp/base-$name"
    else
        echo "# series $name: no unpacked base under out/src (make kernel): applied only by the build"
    fi
done

echo "kernel scripts: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
