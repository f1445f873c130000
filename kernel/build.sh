#!/usr/bin/env bash
# build.sh — build the kernel under test. See kernel/README.md for the full description.
#
# Usage: kernel/build.sh [--help]
#
# Environment (all optional):
#   KERNEL_SRC=DIR        build this git tree instead of Debian's linux-source package
#   KERNEL_REF=REV        revision of KERNEL_SRC to build (default HEAD)
#   LINUX_SOURCE_PKG=PKG  pin the Debian package (see fetch-source.sh)
#   SERIES=DIR            quilt-style series (DIR/series + patches) applied before building
#   CONFIG_BASE=TARGET    base config target (default tinyconfig)
#   CONFIG_FRAGMENTS="F…" fragments merged on top (default kernel/configs/*.config)
#   OUT=DIR               output root (default ./out)
#   JOBS=N                parallel jobs (default nproc)
#   CCACHE=0              disable ccache (cache in ~/.cache/suspend-rig/ccache)
#   KERNEL_LINK=NAME      name of the stable link under OUT (default kernel: out/kernel)
#   KERNEL_PRUNE=1        delete the build tree out/build/<id> once the artefacts are out (rig bisect
#                         sets it); a pruned build whose artefacts exist is reused as it is. A git
#                         source without SERIES builds in one tree per source, out/build/git-<key>,
#                         moved from commit to commit (only what changed is rebuilt); it is kept
#
# Results: out/kernels/<id>/{vmlinux,bzImage,config,System.map,meta.json}, out/kernel -> kernels/<id>.
# The last line on stdout is the artefact directory.
# Identity: the kernel release ends in -<id> (make LOCALVERSION, after the config's "-rig"), and
# meta.json holds it ("version") with the GNU build-id of vmlinux ("build_id"): what a board's
# `uname -r` and /sys/kernel/notes report, compared by the rig after every boot.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$top/scripts/lib/common.sh"

if [ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ]; then
    sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
    exit 0
fi
[ $# -eq 0 ] || die "unexpected argument: $1 (settings are environment variables; see --help)"

out=$(mkdir -p "${OUT:-$top/out}" && cd "${OUT:-$top/out}" && pwd)
jobs=${JOBS:-$(nproc)}
config_base=${CONFIG_BASE:-tinyconfig}
if [ -n "${CONFIG_FRAGMENTS:-}" ]; then
    read -r -a fragments <<<"$CONFIG_FRAGMENTS"
else
    fragments=("$here"/configs/*.config)
fi
for f in "${fragments[@]}"; do [ -f "$f" ] || die "config fragment not found: $f"; done

# ---- identify the base tree --------------------------------------------------------------
git_sha="" base_desc="" pristine=""
if [ -n "${KERNEL_SRC:-}" ]; then
    [ -d "$KERNEL_SRC" ] || die "KERNEL_SRC is not a directory: $KERNEL_SRC"
    git -C "$KERNEL_SRC" rev-parse --git-dir >/dev/null 2>&1 || die "KERNEL_SRC is not a git tree: $KERNEL_SRC"
    ref=${KERNEL_REF:-HEAD}
    git_sha=$(git -C "$KERNEL_SRC" rev-parse --verify -q "$ref^{commit}") \
        || die "KERNEL_REF '$ref' is not a commit in $KERNEL_SRC"
    base_desc="git:$(cd "$KERNEL_SRC" && pwd)@$git_sha"
else
    pristine=$("$here/fetch-source.sh" "$out/src" | tail -n1)
    base_desc="debian:$(sed -n 1p "$pristine/.debian-package")=$(sed -n 2p "$pristine/.debian-package")"
fi

series_hash="none"
if [ -n "${SERIES:-}" ]; then
    [ -f "$SERIES/series" ] || die "SERIES=$SERIES has no 'series' file"
    series_hash=$("$here/apply-series.sh" --hash "$SERIES")
fi

cc_version=$(gcc --version | head -n1)
config_hash=$( { echo "$config_base"; cat "${fragments[@]}"; } | sha256sum | cut -c1-16)
# "identity=2": the release carries -<id> and meta.json the build-id (earlier builds had neither).
id=$(printf '%s\n' "$base_desc" "$series_hash" "$config_hash" "$cc_version" identity=2 | sha256sum | cut -c1-12)
tree=$out/build/$id
art=$out/kernels/$id
# A git source without a series keeps one work tree per source, moved from commit to commit like
# a developer's checkout during a bisect: make then rebuilds only what the commits changed.
moving_tree=""
if [ -n "$git_sha" ] && [ -z "${SERIES:-}" ]; then
    moving_tree=$(printf '%s\n' "$(cd "$KERNEL_SRC" && pwd)" "$config_hash" "$cc_version" | sha256sum | cut -c1-12)
    tree=$out/build/git-$moving_tree
fi
log "build id $id: $base_desc, series $series_hash, config $config_hash"

# Artefacts are named by every input: a pruned build, or a commit the moving tree has built
# before, is already the answer.
if [ -f "$art/meta.json" ] && [ -f "$art/bzImage" ] && jq -e '.build_id' "$art/meta.json" >/dev/null 2>&1 && { [ -n "$moving_tree" ] || [ ! -d "$tree" ]; }; then
    ln -sfn "kernels/$id" "$out/${KERNEL_LINK:-kernel}"
    log "reusing the earlier build $id ($(jq -r .version "$art/meta.json"))"
    echo "$art"
    exit 0
fi

# Record whether the base already has the freeze series, and whether SERIES brought it.
note_series_state() { # BASE_STATE
    local after_state=$1
    [ -z "${SERIES:-}" ] || after_state=$("$here/detect-series.sh" "$tree")
    if [ "$1" = present ]; then freeze_series=merged
    elif [ "$after_state" = present ]; then freeze_series=applied
    else freeze_series=absent; fi
    echo "$freeze_series" >"$tree/.freeze-series"
    touch "$tree/.prepared"
}

# ---- prepare the tree: out/build/<id> is the source, out/build/<id>/obj the objects ----------
# Objects live one level below the source so Kbuild uses relative paths (srctree=..): ccache then
# hits across build ids, clones and CI checkouts.
if [ -n "$moving_tree" ]; then
    mkdir -p "$out/build"
    exec 9>"$tree.lock"
    flock 9   # two builds must not move the same tree at once
    git_dir=$(git -C "$KERNEL_SRC" rev-parse --absolute-git-dir)
    tgit() { GIT_DIR=$git_dir GIT_WORK_TREE=$tree GIT_INDEX_FILE=$tree.index git "$@"; }
    old_sha=$(cat "$tree.sha" 2>/dev/null || true)
    if [ -f "$tree/.prepared" ] && [ -n "$old_sha" ] && [ "$old_sha" != "$git_sha" ]; then
        log "moving $tree from ${old_sha:0:12} to ${git_sha:0:12}"
        tgit read-tree -m -u "$old_sha" "$git_sha" || { log "cannot move the tree: checking out afresh"; rm -f "$tree/.prepared"; }
    fi
    if [ ! -f "$tree/.prepared" ]; then
        rm -rf "$tree" "$tree.index"
        mkdir -p "$tree"
        log "checking out $git_sha from $KERNEL_SRC into $tree"
        tgit read-tree -u --reset "$git_sha" || die "cannot check out $git_sha from $KERNEL_SRC"
    fi
    echo "$git_sha" >"$tree.sha"
    note_series_state "$("$here/detect-series.sh" "$tree")"
elif [ ! -f "$tree/.prepared" ]; then
    rm -rf "$tree"
    mkdir -p "$out/build"
    if [ -n "$git_sha" ]; then
        log "exporting $git_sha from $KERNEL_SRC"
        mkdir -p "$tree"
        git -C "$KERNEL_SRC" archive --format=tar "$git_sha" | tar -x -C "$tree"
    else
        log "linking $(basename "$pristine") into $tree"
        cp -al "$pristine" "$tree"   # hard links: patch(1) breaks them for the files it changes
        rm -f "$tree/.unpacked"
    fi
    base_state=$("$here/detect-series.sh" "$tree")
    if [ -n "${SERIES:-}" ]; then
        "$here/apply-series.sh" "$SERIES" "$tree" || { rm -rf "$tree"; die "series $SERIES does not apply"; }
    fi
    note_series_state "$base_state"
fi
freeze_series=$(cat "$tree/.freeze-series")

# ---- configure ---------------------------------------------------------------------------
obj=$tree/obj
mkdir -p "$obj"
kmake() { make -C "$tree" O=obj -j"$jobs" "$@"; }
if [ ! -f "$obj/.config.hash" ] || [ "$(cat "$obj/.config.hash")" != "$config_hash" ]; then
    log "configuring: $config_base + ${#fragments[@]} fragments"
    kmake -s "$config_base" >/dev/null
    (cd "$tree" && KCONFIG_CONFIG=obj/.config scripts/kconfig/merge_config.sh -m -O obj obj/.config \
        "${fragments[@]}" >"$obj/merge_config.log" 2>&1) || die "merge_config.sh failed: see $obj/merge_config.log"
    kmake -s olddefconfig >/dev/null
    "$here/check-config.sh" "$obj/.config" "${fragments[@]}"
    echo "$config_hash" >"$obj/.config.hash"
fi

# ---- build -------------------------------------------------------------------------------
if [ "${CCACHE:-1}" != 0 ] && command -v ccache >/dev/null; then
    export CCACHE_DIR=${CCACHE_DIR:-$RIG_CACHE/ccache}
    export CCACHE_BASEDIR=$out CCACHE_NOHASHDIR=1 CCACHE_SLOPPINESS=time_macros,include_file_mtime,include_file_ctime
    export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
    cc="ccache gcc"
else
    cc=gcc
fi
# Fixed timestamp, user and host: the same inputs give the same vmlinux (reproducible builds).
export KBUILD_BUILD_TIMESTAMP=${KBUILD_BUILD_TIMESTAMP:-"Thu Jan  1 00:00:00 UTC 2026"}
export KBUILD_BUILD_USER=suspend-rig KBUILD_BUILD_HOST=suspend-rig
start=$(date +%s)
log "building vmlinux and bzImage with $jobs jobs ($cc); log in $obj/build.log"
# LOCALVERSION (not CONFIG_LOCALVERSION): the config, and so every object and ccache entry, stays
# the same; only what includes the release string is rebuilt when the id changes (a bisect step).
if ! kmake CC="$cc" LOCALVERSION="-$id" vmlinux bzImage >"$obj/build.log" 2>&1; then
    grep -E 'error|Error' "$obj/build.log" | head -n 20 >&2 || true
    die "kernel build failed: see $obj/build.log"
fi
elapsed=$(( $(date +%s) - start ))

# ---- artefacts ---------------------------------------------------------------------------
version=$(cat "$obj/include/config/kernel.release")
case $version in *"-$id") ;; *) die "kernel release $version does not end in -$id" ;; esac
build_id=$(readelf -n "$obj/vmlinux" | sed -n 's/^ *Build ID: *\([0-9a-f]*\)$/\1/p' | head -n1)
[ -n "$build_id" ] || die "vmlinux has no GNU build-id note (readelf -n $obj/vmlinux)"
offsets=$("$here/offsets.sh" "$obj") || die "could not compute struct offsets for the rig's kprobes"
mkdir -p "$art"
cp "$obj/vmlinux" "$obj/arch/x86/boot/bzImage" "$obj/System.map" "$art/"
cp "$obj/.config" "$art/config"
jq -n --arg id "$id" --arg version "$version" --arg build_id "$build_id" --arg base "$base_desc" --arg git_sha "$git_sha" \
      --arg series "${SERIES:-}" --arg series_name "${SERIES:+$(basename "$SERIES")}" --arg series_hash "$series_hash" --arg freeze_series "$freeze_series" \
      --arg config_base "$config_base" --arg config_hash "$config_hash" --arg compiler "$cc_version" \
      --argjson build_seconds "$elapsed" --argjson offsets "$offsets" \
      --argjson fragments "$(printf '%s\n' "${fragments[@]##*/}" | jq -R . | jq -s .)" \
      '{id:$id, version:$version, build_id:$build_id, base:$base, git_sha:(if $git_sha=="" then null else $git_sha end),
        series:(if $series=="" then null else $series end),
        series_name:(if $series_name=="" then null else $series_name end), series_hash:$series_hash,
        freeze_series:$freeze_series, config_base:$config_base, config_fragments:$fragments,
        config_hash:$config_hash, compiler:$compiler, build_seconds:$build_seconds,
        offsets:$offsets}' >"$art/meta.json"
ln -sfn "kernels/$id" "$out/${KERNEL_LINK:-kernel}"
if [ "${KERNEL_PRUNE:-0}" = 1 ] && [ -z "$moving_tree" ]; then
    rm -rf "$tree"
    log "pruned the build tree $tree"
fi
log "kernel $version (freeze_series: $freeze_series) built in ${elapsed}s"
echo "$art"
