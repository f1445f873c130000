#!/usr/bin/env bash
# check-config.sh CONFIG FRAGMENT... — after olddefconfig, did every requested option survive?
# Kconfig silently drops options whose dependencies are not met; list every one that did not
# end up with the requested value and fail. When several fragments name an option, the last
# one wins, as in merge_config.sh (the bench kernel turns on what base.config turns off).
set -euo pipefail
config=${1:?usage: check-config.sh CONFIG FRAGMENT...}
shift
declare -A want_of from_of
order=()
for frag in "$@"; do
    while IFS= read -r line; do
        case "$line" in
            CONFIG_*=*) opt=${line%%=*}; want=${line#*=} ;;
            "# CONFIG_"*" is not set") opt=${line#\# }; opt=${opt%% *}; want=n ;;
            *) continue ;;
        esac
        [ -n "${want_of[$opt]+set}" ] || order+=("$opt")
        want_of[$opt]=$want
        from_of[$opt]=$(basename "$frag")
    done <"$frag"
done
missing=0
for opt in "${order[@]}"; do
    want=${want_of[$opt]}
    got=$(grep -E "^$opt=" "$config" | head -n1 | cut -d= -f2- || true)
    [ -n "$got" ] || got=n
    if [ "$got" != "$want" ]; then
        echo "config: $opt requested $want in ${from_of[$opt]}, got $got" >&2
        missing=$((missing + 1))
    fi
done
if [ "$missing" -gt 0 ]; then
    echo "config: $missing requested option(s) did not survive olddefconfig (unmet dependencies?)" >&2
    exit 1
fi
