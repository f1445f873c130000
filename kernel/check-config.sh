#!/usr/bin/env bash
# check-config.sh CONFIG FRAGMENT... — after olddefconfig, did every requested option survive?
# Kconfig silently drops options whose dependencies are not met; list every one that did not
# end up with the requested value and fail.
set -euo pipefail
config=${1:?usage: check-config.sh CONFIG FRAGMENT...}
shift
missing=0
for frag in "$@"; do
    while IFS= read -r line; do
        case "$line" in
            CONFIG_*=*) opt=${line%%=*}; want=${line#*=} ;;
            "# CONFIG_"*" is not set") opt=${line#\# }; opt=${opt%% *}; want=n ;;
            *) continue ;;
        esac
        got=$(grep -E "^$opt=" "$config" | head -n1 | cut -d= -f2- || true)
        [ -n "$got" ] || got=n
        if [ "$got" != "$want" ]; then
            echo "config: $opt requested $want in $(basename "$frag"), got $got" >&2
            missing=$((missing + 1))
        fi
    done <"$frag"
done
if [ "$missing" -gt 0 ]; then
    echo "config: $missing requested option(s) did not survive olddefconfig (unmet dependencies?)" >&2
    exit 1
fi
