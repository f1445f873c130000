#!/usr/bin/env bash
# check-config.sh CONFIG FRAGMENT... — after olddefconfig, did every requested option survive?
# Kconfig silently drops options whose dependencies are not met; list every one that did not
# end up with the requested value and fail. As in merge_config.sh, a later fragment overrides an
# earlier one (systemd.config turns on what base.config turns off).
set -euo pipefail
config=${1:?usage: check-config.sh CONFIG FRAGMENT...}
shift
declare -A want from
order=()
for frag in "$@"; do
    while IFS= read -r line; do
        case "$line" in
            CONFIG_*=*) opt=${line%%=*}; value=${line#*=} ;;
            "# CONFIG_"*" is not set") opt=${line#\# }; opt=${opt%% *}; value=n ;;
            *) continue ;;
        esac
        [ -n "${want[$opt]+set}" ] || order+=("$opt")
        want[$opt]=$value
        from[$opt]=$(basename "$frag")
    done <"$frag"
done
missing=0
for opt in "${order[@]}"; do
    got=$(grep -E "^$opt=" "$config" | head -n1 | cut -d= -f2- || true)
    [ -n "$got" ] || got=n
    if [ "$got" != "${want[$opt]}" ]; then
        echo "config: $opt requested ${want[$opt]} in ${from[$opt]}, got $got" >&2
        missing=$((missing + 1))
    fi
done
if [ "$missing" -gt 0 ]; then
    echo "config: $missing requested option(s) did not survive olddefconfig (unmet dependencies?)" >&2
    exit 1
fi
