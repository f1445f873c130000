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

# help_from_header "$@" — a script's --help (-h): its header comment (the usage) on stdout, exit 0,
# before it touches anything.
help_from_header() {
    case "${1:-}" in
        -h|--help) sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
    esac
}
