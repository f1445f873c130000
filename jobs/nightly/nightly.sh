#!/usr/bin/env bash
# jobs/nightly/nightly.sh — the nightly LAVA run of a lab: every board x plan is submitted to the
# LAVA server, every job is followed to its end and imported by REST, then every job that
# finished since the last night (LAVA jobs submitted by hand, jobs that outlived a timeout) is
# imported too, and the dashboard is written. Run by suspend-rig-nightly.timer (systemd) or
# suspend-rig-nightly.cron; by hand: jobs/nightly/nightly.sh [CONFIG].
#
# CONFIG (default /etc/suspend-rig/nightly.conf, see nightly.conf): shell variables
#   RIG_TOP      the suspend-rig tree (boards/, plans/, jobs/)          default: this tree
#   RIG          the rig binary                                         default: $RIG_TOP/out/bin/rig
#   RIG_LAVA_SERVER, RIG_LAVA_TOKEN_FILE   the server and the token (rig lava --help)
#   BOARDS       board names or files, space separated                  default: qemu
#   PLANS        plan names or files                                    default: nightly
#   DB           results database                                       default: $RIG_TOP/out/results.db
#   DASHBOARD    where the site goes                                    default: $RIG_TOP/out/dashboard
#   KERNEL_URL, INITRD_URL   what the workers boot (default: file:// URLs of out/: a worker on
#                this host only)
#   JOB_TIMEOUT  seconds to follow one job                              default: 14400
#   SINCE_DAYS   import every job finished in the last N days           default: 2
# Exit status: the worst of the jobs' imports (0 pass, 1 a verdict failed, 3 infrastructure),
# 2 for a configuration error. Every step is logged on stdout with the time.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
case "${1:-}" in -h|--help) sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac   # usage: the header
config=${1:-/etc/suspend-rig/nightly.conf}
if [ -f "$config" ]; then
    # shellcheck disable=SC1090
    . "$config"
elif [ $# -gt 0 ]; then
    echo "nightly: $config: no such file" >&2; exit 2
fi
RIG_TOP=${RIG_TOP:-$(cd "$here/../.." && pwd)}
RIG=${RIG:-$RIG_TOP/out/bin/rig}
BOARDS=${BOARDS:-qemu}
PLANS=${PLANS:-nightly}
DB=${DB:-$RIG_TOP/out/results.db}
DASHBOARD=${DASHBOARD:-$RIG_TOP/out/dashboard}
JOB_TIMEOUT=${JOB_TIMEOUT:-14400}
SINCE_DAYS=${SINCE_DAYS:-2}
export RIG_TOP RIG_LAVA_SERVER RIG_LAVA_TOKEN_FILE
cd "$RIG_TOP" || exit 2
[ -x "$RIG" ] || { echo "nightly: $RIG: not executable (make rig)" >&2; exit 2; }
[ -n "${RIG_LAVA_SERVER:-}" ] || { echo "nightly: RIG_LAVA_SERVER is not set ($config)" >&2; exit 2; }

log() { printf '%s nightly: %s\n' "$(date -u +%FT%TZ)" "$*"; }
worst=0
# the worst exit so far; a job refused as usage (not finished, say) is an infrastructure matter here
note() { local c=$1; [ "$c" = 2 ] && c=3; [ "$c" -gt "$worst" ] && worst=$c; return 0; }

since=$(date -u -d "$SINCE_DAYS days ago" +%FT%T)
night=$(date -u +%F)
extra=()
[ -z "${KERNEL_URL:-}" ] || extra+=(--kernel "$KERNEL_URL")
[ -z "${INITRD_URL:-}" ] || extra+=(--initrd "$INITRD_URL")

jobs=()
for board in $BOARDS; do
    for plan in $PLANS; do
        out=$("$RIG" lava submit --board "$board" --plan "$plan" --night "$night" --no-wait "${extra[@]}")
        rc=$?
        echo "$out"
        id=$(sed -n 's/^LAVA job \([0-9]*\) submitted.*/\1/p' <<<"$out")
        if [ "$rc" = 0 ] && [ -n "$id" ]; then
            jobs+=("$id")
            log "$board x $plan: job $id"
        else
            log "$board x $plan: not submitted (exit $rc)"; note 3
        fi
    done
done
for id in "${jobs[@]}"; do
    "$RIG" lava import --db "$DB" --job "$id" --follow --timeout "$JOB_TIMEOUT"
    rc=$?; note "$rc"
    log "job $id imported (exit $rc)"
done
"$RIG" lava import --db "$DB" --since "$since"
rc=$?; note "$rc"
log "jobs finished since $since imported (exit $rc)"
if "$RIG" dashboard --db "$DB" --out "$DASHBOARD" >/dev/null; then
    log "dashboard: $DASHBOARD/index.html"
else
    log "dashboard failed"; note 3
fi
log "done (exit $worst)"
exit "$worst"
