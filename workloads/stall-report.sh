#!/bin/sh
# Runs stall-report on every writer's telemetry file for one frozen window, one line per writer:
#   <name> ops=... longest_ms=... completed_inside_window=... blocked_across_window=... errors=...
# Usage: stall-report.sh FREEZE_NS THAW_NS [TELEMETRY_DIR (default /run/rig)]
# POSIX sh: it runs on the board's busybox. Exit 0, or 2 on usage errors or an unreadable file.
set -u

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
	echo "usage: $0 FREEZE_NS THAW_NS [TELEMETRY_DIR]" >&2
	exit 2
fi
freeze="$1"
thaw="$2"
dir="${3:-/run/rig}"
status=0

for tel in "$dir"/*.tel; do
	[ -e "$tel" ] || { echo "stall-report.sh: no telemetry files in $dir" >&2; exit 2; }
	name="$(basename "$tel" .tel)"
	if line="$(stall-report --freeze-ns "$freeze" --thaw-ns "$thaw" "$tel")"; then
		echo "$name $line"
	else
		status=2
	fi
done
exit "$status"
