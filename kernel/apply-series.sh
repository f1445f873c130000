#!/usr/bin/env bash
# apply-series.sh SERIES_DIR TREE — apply a quilt-style series (SERIES_DIR/series lists the
# patches in order; '#' starts a comment; an optional -pN follows a name) to TREE.
# apply-series.sh --hash SERIES_DIR — print a content hash of the series (for build ids).
# A patch that does not apply is refused: nothing is half-applied silently, and the message
# names the patch and the hunks that failed.
set -euo pipefail

entries() {
    sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$1/series" | grep -v '^[[:space:]]*$' || true
}

if [ "${1:-}" = "--hash" ]; then
    dir=${2:?usage: apply-series.sh --hash SERIES_DIR}
    while read -r p _; do
        [ -f "$dir/$p" ] || { echo "series: patch $p listed in $dir/series does not exist" >&2; exit 1; }
    done < <(entries "$dir")
    { entries "$dir"; entries "$dir" | while read -r p _; do cat "$dir/$p"; done; } | sha256sum | cut -c1-16
    exit 0
fi
dir=${1:?usage: apply-series.sh SERIES_DIR TREE}
tree=${2:?usage: apply-series.sh SERIES_DIR TREE}
n=0
while read -r name strip; do
    n=$((n + 1))
    [ -f "$dir/$name" ] || { echo "series: patch $n ($name) listed in $dir/series does not exist" >&2; exit 1; }
    strip=${strip:--p1}
    if ! out=$(patch -d "$tree" "$strip" --forward --batch --dry-run <"$dir/$name" 2>&1); then
        echo "series: patch $n ($name) does not apply to $tree:" >&2
        echo "$out" | grep -E 'patching file|FAILED|Reversed|can.t find file|malformed|Only garbage' \
            | sed 's/^/  /' >&2
        exit 1
    fi
    patch -d "$tree" "$strip" --forward --batch --no-backup-if-mismatch -s <"$dir/$name" >/dev/null
    echo "series: applied $name" >&2
done < <(entries "$dir")
echo "series: $n patch(es) applied" >&2
