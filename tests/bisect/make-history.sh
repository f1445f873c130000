#!/usr/bin/env bash
# make-history.sh — a small kernel git history to bisect, on top of the default kernel base.
#
# Usage: tests/bisect/make-history.sh REPO
#   Creates (or reuses) the bare repository REPO holding, on branch "main":
#     c0 the unpacked Debian linux-source tree (the base the rig builds by default)
#     c1..c7 seven commits touching compiled files harmlessly (comments), except one:
#     the fault commit (tests/bisect/hang-resume.patch), which hangs resume on about one
#     cycle in three, at position $CULPRIT (default 4).
#   Prints three lines on stdout: the good commit (c0), the bad commit (c7) and the culprit.
#
# The pristine tree is read, never modified: commits are made with a private index, in a bare
# repository (no 1.5 GB checkout). Deterministic: fixed author, committer and dates, so the
# same base gives the same commit ids. Environment: OUT (default ./out), CULPRIT (1..7).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/scripts/lib/common.sh"

repo=${1:?usage: make-history.sh REPO}
culprit=${CULPRIT:-4}
[[ $culprit =~ ^[1-7]$ ]] || die "CULPRIT must be 1..7, not '$culprit'"
out=$(mkdir -p "${OUT:-$top/out}" && cd "${OUT:-$top/out}" && pwd)
pristine=$("$top/kernel/fetch-source.sh" "$out/src" | tail -n1)

export GIT_AUTHOR_NAME="suspend-rig fixture" GIT_AUTHOR_EMAIL=rig@suspend-rig.invalid
export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
export GIT_DIR=$repo GIT_INDEX_FILE=$repo/rig-index
stamp() { export GIT_AUTHOR_DATE="2026-01-01T00:0$1:00Z" GIT_COMMITTER_DATE="2026-01-01T00:0$1:00Z"; }

# Each harmless commit edits a file that is compiled in the QEMU board's kernel, so every
# candidate is a real rebuild (ccache misses for one object), as in a real history.
harmless_files=(kernel/power/main.c fs/super.c kernel/power/process.c kernel/freezer.c
                fs/ext4/super.c kernel/power/suspend.c drivers/base/power/main.c)

key=$( { sed -n 2p "$pristine/.debian-package"; cat "$here/hang-resume.patch"; echo "$culprit"; } | sha256sum | cut -c1-16)
if [ -f "$repo/rig-fixture" ] && [ "$(head -n1 "$repo/rig-fixture")" = "$key" ]; then
    tail -n3 "$repo/rig-fixture"
    exit 0
fi
rm -rf "$repo"
mkdir -p "$repo"
repo=$(cd "$repo" && pwd)
export GIT_DIR=$repo GIT_INDEX_FILE=$repo/rig-index
git init -q --bare "$repo"
git config core.looseCompression 1
git config gc.auto 0

log "committing the base tree $(basename "$pristine") (one-off, a few minutes)"
start=$(date +%s)
# -f: Debian's top-level .gitignore ignores everything; every file of the package belongs in.
(cd "$pristine" && GIT_WORK_TREE=$pristine git add -f -A .)
git rm -q --cached --ignore-unmatch .debian-package .unpacked
stamp 0
parent=$(git commit-tree -m "base: $(sed -n 1,2p "$pristine/.debian-package" | paste -sd' ')" "$(git write-tree)")
good=$parent
log "base committed in $(( $(date +%s) - start ))s: $good"

for i in 1 2 3 4 5 6 7; do
    stamp "$i"
    if [ "$i" = "$culprit" ]; then
        tmp=$(mktemp -d)
        file=kernel/power/suspend.c
        mkdir -p "$tmp/a/$(dirname $file)"
        git cat-file blob "$parent:$file" >"$tmp/a/$file"
        patch -s -d "$tmp/a" -p1 <"$here/hang-resume.patch" || die "hang-resume.patch does not apply to $file"
        blob=$(git hash-object -w "$tmp/a/$file")
        rm -rf "$tmp"
        msg="PM: suspend: wait for slow devices after resume (fixture: hangs one resume in three)"
    else
        file=${harmless_files[$((i - 1))]}
        blob=$( { git cat-file blob "$parent:$file"; printf '/* fixture commit %d: no functional change */\n' "$i"; } \
                | git hash-object -w --stdin)
        msg="$(dirname "$file" | tr / ' '): comment only (fixture commit $i)"
    fi
    git update-index --cacheinfo "100644,$blob,$file"
    parent=$(git commit-tree -p "$parent" -m "$msg" "$(git write-tree)")
    [ "$i" = "$culprit" ] && culprit_sha=$parent
done
git update-ref refs/heads/main "$parent"
git symbolic-ref HEAD refs/heads/main
printf '%s\n' "$key" "$good" "$parent" "$culprit_sha" >"$repo/rig-fixture"
tail -n3 "$repo/rig-fixture"
