# Shared helpers for the shell parts of suspend-rig (kernel/, image/, tests/). Sourced, not run.
RIG_CACHE=${RIG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/suspend-rig}
export RIG_CACHE

log() { printf '[%s] %s\n' "$(basename "$0")" "$*" >&2; }
die() { printf '[%s] error: %s\n' "$(basename "$0")" "$*" >&2; exit 1; }

# private_apt NAME "SOURCES LINE..." — set up apt with its own sources list and state under
# $RIG_CACHE/apt-NAME (the system's apt configuration is never touched) and leave the options
# in the array APT_OPTS. Lists older than a day are refreshed.
private_apt() {
    local name=$1 lines=$2 dir=$RIG_CACHE/apt-$1
    mkdir -p "$dir"/{lists/partial,archives/partial}
    printf '%s\n' "$lines" >"$dir/sources.list.new"
    if ! cmp -s "$dir/sources.list.new" "$dir/sources.list"; then
        mv "$dir/sources.list.new" "$dir/sources.list"
        rm -f "$dir"/lists/*Packages* "$dir"/lists/*Sources*
    fi
    APT_OPTS=(-o "Dir::Etc::SourceList=$dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
              -o "Dir::State::Lists=$dir/lists" -o "Dir::Cache=$dir" -o "Dir::Cache::archives=$dir/archives"
              -o Dir::State::status=/dev/null -o APT::Architecture=amd64 -o Debug::NoLocking=1
              -o APT::Sandbox::User=root)
    if [ -z "$(find "$dir/lists" -maxdepth 1 \( -name '*Packages*' -o -name '*Sources*' \) -mmin -1440 | head -n1)" ]; then
        log "refreshing package lists ($name)"
        apt-get "${APT_OPTS[@]}" -qq update || die "apt-get update failed for: $lines"
    fi
    APT_DIR=$dir
}

# copy_with_libs BIN TARGET STAGE — copy a program into an image's staging tree STAGE as TARGET,
# with the shared libraries ldd names (symlinks dereferenced, each library once).
copy_with_libs() {
    local bin=$1 target=$2 stage=$3 lib
    mkdir -p "$(dirname "$target")"
    cp -L "$bin" "$target"
    for lib in $(ldd "$bin" 2>/dev/null | grep -oE '/[^ ]+\.so[^ ]*'); do
        [ -e "$stage$lib" ] || { mkdir -p "$stage$(dirname "$lib")"; cp -L "$lib" "$stage$lib"; }
    done
}

# install_busybox STAGE — Debian's static busybox as STAGE/bin/busybox, every applet a link to it.
install_busybox() {
    local stage=$1 busybox applet
    busybox=$(command -v busybox) || die "busybox not found (make deps installs busybox-static)"
    file -L "$busybox" | grep -q 'statically linked' || die "$busybox is not static: install busybox-static"
    mkdir -p "$stage/bin"
    cp "$busybox" "$stage/bin/busybox"
    for applet in $("$busybox" --list); do
        [ -e "$stage/bin/$applet" ] || ln -s busybox "$stage/bin/$applet"
    done
}

# pack_initramfs STAGE FILE — a reproducible newc archive of STAGE: sorted names, owner 0,
# timestamps 0; written to FILE.tmp, then renamed.
pack_initramfs() {
    local stage=$1 file=$2
    find "$stage" -exec touch -h -d @0 {} +
    (cd "$stage" && find . -print0 | LC_ALL=C sort -z |
        cpio --null --create --format=newc --owner=0:0 --reproducible --quiet) >"$file.tmp"
    mv "$file.tmp" "$file"
}

# help_from_header "$@" — a script's --help (-h): its header comment (the usage) on stdout, exit 0,
# before it touches anything.
help_from_header() {
    case "${1:-}" in
        -h|--help) sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
    esac
}
