#!/usr/bin/env bash
# Flake-aware culprit finding vs repeat-N bisect on simulated suspend-hang histories.
# Prints the accuracy / mean-cycles table for q = 0.01 (good commits hang 1 % of the time) and
# q = 0 (only bad commits hang). Seeded: the same numbers on every run. rig/doc/bisect.md quotes it.
#   bench/bisect-sim.sh [--trials T] [--seed S]   (extra options go to every rig bisect-sim call)
set -euo pipefail
OUT=${OUT:-$(cd "$(dirname "$0")/.." && pwd)/out}
RIG=${RIG:-$OUT/bin/rig}
if [[ ! -x $RIG ]]; then
	echo "bisect-sim: $RIG not built (make rig)" >&2
	exit 2
fi
for q in 0.01 0; do
	"$RIG" bisect-sim --q "$q" --trials 200 --max-cycles 5000 "$@"
	echo
done
