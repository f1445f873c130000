#!/usr/bin/env bash
# make bench — figures, never pass/fail. Each section prints "bench: NAME = VALUE UNIT".
#
#   BENCH=kernel,boot,rig,vbench,bisect   sections to run (default: all but kernel-cold and
#                                  image-debian; BENCH=image-debian times the Debian board's image build)
#   BENCH_COLD=1                   also time a cold kernel build (no ccache: ~8-10 minutes)
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
case "${1:-}" in -h|--help) sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac   # usage: the header
. tests/lib.sh
sections=${BENCH:-kernel,boot,rig,vbench,bisect}
rig=out/bin/rig
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export RIG_LOCK_DIR=$tmp/locks
want() { [[ ",$sections," == *",$1,"* ]]; }
figure() { printf 'bench: %-38s = %s\n' "$1" "$2"; }
seconds_of() { local s; s=$(date +%s.%N); "$@" >/dev/null 2>&1; echo "$(date +%s.%N) - $s" | bc; }

if want kernel; then
    # Warm: a fresh output tree (nothing built) compiled through the shared ccache.
    figure "kernel warm build (fresh tree, ccache)" "$(OUT=$tmp/warm seconds_of kernel/build.sh) s"
    if [ "${BENCH_COLD:-0}" = 1 ]; then
        figure "kernel cold build (no ccache)" "$(OUT=$tmp/cold CCACHE=0 seconds_of kernel/build.sh) s"
    fi
    rm -rf "$tmp/warm" "$tmp/cold"
fi

if want boot; then
    # Power on to the agent's ready line, then power off (TCG).
    figure "boot to agent, QEMU board (TCG)" "$(seconds_of "$rig" boot --board qemu) s"
    if [ -f out/image-debian/current/nvme.img ]; then
        figure "boot to agent, Debian board (TCG, systemd)" "$(seconds_of "$rig" boot --board qemu-debian) s"
    fi
fi

if want image-debian; then
    # The Debian board's image from nothing but the .deb cache (mmdebstrap included), then with
    # only the rig's files changed (the cached Debian base reused). BENCH=image-debian.
    figure "Debian image, cold (mmdebstrap)" \
        "$(OUT=$tmp/img RIG_CACHE=$tmp/cache seconds_of bash -c 'mkdir -p $RIG_CACHE && cp -r ~/.cache/suspend-rig/debian-debs ~/.cache/suspend-rig/apt-debian-image ~/.cache/suspend-rig/fio-* $RIG_CACHE/ 2>/dev/null; cp -r out/bin $OUT/ 2>/dev/null || { mkdir -p $OUT && cp -r out/bin $OUT/; }; image/debian/build.sh') s"
    touch "$tmp/img/bin/journald-logger"; echo >>"$tmp/img/bin/journald-logger"
    figure "Debian image, rig files changed (base reused)" \
        "$(OUT=$tmp/img RIG_CACHE=$tmp/cache seconds_of image/debian/build.sh) s"
    rm -rf "$tmp/img" "$tmp/cache"
fi

if want rig; then
    # Rig overhead: cycles per hour driven by the rig / cycles per hour of a bare rtcwake loop
    # inside the same guest, same sleep length, no workloads.
    n=5 secs=3
    cat >"$tmp/bench.yaml" <<EOF
name: bench
knob: {freeze_filesystems: 1}
workloads: [none]
cycles: $n
steps:
  - suspend: {mode: deep, wake: rtc, seconds: $secs}
EOF
    "$rig" run --board qemu --plan "$tmp/bench.yaml" --db "$tmp/bench.db" -q >/dev/null 2>&1
    rig_s=$(sql "$tmp/bench.db" "SELECT sum(ended_at - started_at) FROM cycles")
    # The bare loop is timed on the host's clock, as the rig's cycles are: between two lines it
    # writes to /dev/kmsg, stamped by the console log as they arrive (rig boot names the log on
    # stderr). The guest's CLOCK_BOOTTIME (/proc/uptime, in the same lines) is shown beside it.
    console=$("$rig" boot --board qemu --timeout 600 --exec \
        "echo rig-bench-bare-start \$(cut -d' ' -f1 /proc/uptime) >/dev/kmsg; for i in \$(seq $n); do rtcwake -m disable >/dev/null 2>&1; rtcwake -m mem -s $secs >/dev/null; done; echo rig-bench-bare-end \$(cut -d' ' -f1 /proc/uptime) >/dev/kmsg" 2>&1 |
        sed -n 's/.*console log: //p' | tail -n1)
    # "[host epoch] [ printk] rig-bench-bare-start UPTIME": the host's difference, then the guest's
    read -r bare bare_guest < <(awk -F'[][]' '
        /rig-bench-bare-start/ { s = $2; n = split($5, w, " "); gs = w[n] }
        /rig-bench-bare-end/ { e = $2; n = split($5, w, " "); ge = w[n] }
        END { if (s != "" && e != "") printf "%.1f %.1f\n", e - s, ge - gs }' "${console:-/dev/null}")
    figure "rig cycles ($n x deep rtc ${secs}s)" "${rig_s} s"
    figure "bare rtcwake loop (same)" "${bare:-?} s (host clock, between two kmsg lines on the console)"
    figure "bare rtcwake loop, guest CLOCK_BOOTTIME" "${bare_guest:-?} s"
    if [ -n "$bare" ]; then
        # cycles/hour(rig) / cycles/hour(bare) = bare time / rig time for the same n cycles
        figure "rig overhead ratio (goal >= 0.97)" "$(echo "scale=3; $bare / $rig_s" | bc)"
    fi
    "$rig" run --board qemu --plan tests/e2e/plans/hang.yaml --db "$tmp/hang.db" -q >/dev/null 2>&1
    figure "hang detection after the timeout (goal <= 1 s)" \
        "$(sql "$tmp/hang.db" "SELECT printf('%.0f', max(value)) FROM measurements WHERE name='hang_detection_ms'") ms"
fi

if want vbench; then
    # The virtual bench (vbench/): its boot, and the same five deep RTC suspends as the rig
    # section's, driven from inside the bench through its UART and GPIO lines.
    bash tests/vbench/run.sh timing >"$tmp/vbench.out" 2>&1
    figure "boot to agent, bench VM (TCG, 1 vCPU)" \
        "$(sed -n 's/^  bench: boot to agent = //p' "$tmp/vbench.out")"
    bench_s=$(sed -n 's/^vbench: timing: \([0-9.]*\) s for 5 cycles$/\1/p' "$tmp/vbench.out")
    figure "bench cycles (5 x deep rtc 3s, UART+GPIO)" "${bench_s:-?} s"
    if [ -n "$bench_s" ] && [ -n "${rig_s:-}" ]; then
        figure "bench extra cost per cycle" "$(echo "scale=1; ($bench_s - $rig_s) / 5" | bc) s"
    fi
fi

if want bisect; then
    # Issue 23's cell (n = 64, p = 0.3): q = 0 with p estimated from scratch and from 200 earlier
    # cycles of the bad commit (rig bisect --bad-history), and q = 0.01 (repeat-N cannot reach 95 %).
    figure "bisect: flake-aware vs repeat-N" "see below (ratio = FA cycles / RN cycles)"
    header="s/^commits     p |/  $(printf '%-26s' options) |/p"
    for sim in "--q 0" "--q 0 --detect-cycles 200" "--q 0.01"; do
        # shellcheck disable=SC2086 # the options are words
        "$rig" bisect-sim --commits 64 --p 0.3 $sim --trials 1000 --seed 1 2>&1 |
            sed -n -e "$header" -e "s/^ *64  0.30 |/  $(printf '%-26s' "$sim") |/p"
        header=
    done
fi
