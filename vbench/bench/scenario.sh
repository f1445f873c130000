#!/bin/sh
# vbench-scenario NAME... — the virtual bench's checks, run inside the bench VM (through
# `rig boot --exec`, by tests/vbench/run.sh) with rig driving the QEMU board over the bench's
# 16550 and gpio-sim lines exactly as it would drive a real board (vbench/README.md).
#
#   units       the libgpiod backend's unit tests on real lines (1.6 and 2.x builds)
#   held        a line another consumer holds: refused naming chip, line and holder
#   smoke       bench smoke plan + a power cut through the relay, via rig powerd
#   cable       console cable pulled and plugged back while the board sleeps (cycle kept), then
#               pulled for good (infrastructure error, finished cycles kept)
#   powerd      rig powerd killed while the board sleeps: the relay falls open, rig says so
#   baud        a console at the wrong speed: rig says the console is garbled
#   loss        negative control: the same relay cut with knob 0 and no sync loses records
#   timing      (make bench) 5 deep suspends woken by the RTC, no workloads: the cycles' time
#
# Prints "vbench: ok - ..." / "vbench: not ok - ..." per check; exit 1 when one failed.
export RIG_TOP=/rig OUT=/rig/out PATH=/usr/sbin:/usr/bin:/sbin:/bin
cd /rig || exit 2
db=/rig/out/results.db
logs=/run/vbench
chip=$(cat /run/vbench/chip)
sim=$(cat /run/vbench/sim)
failed=0

ok() { echo "vbench: ok - $*"; }
bad() { echo "vbench: not ok - $*"; failed=1; }
check() { desc=$1; shift; if "$@"; then ok "$desc"; else bad "$desc"; fi; }
sql() { sqlite3 "$db" "$1"; }
has() { grep -q -- "$2" "$1"; }
lacks() { ! grep -q -- "$2" "$1"; }
sim_value() { cat "$sim/sim_gpio$1/value"; }
now() { cut -d. -f1 /proc/uptime; }

verdicts() { # NAME RESULT: verdicts of this run
    sql "SELECT count(*) FROM verdicts v JOIN cycles c ON v.cycle_id = c.id
         WHERE c.run_id = $RUN_ID AND v.name = '$1' AND v.result = '$2'"
}
cycles() { # [STATUS]
    sql "SELECT count(*) FROM cycles WHERE run_id = $RUN_ID${1:+ AND status = '$1'}"
}

start_powerd() {
    # one left by a scenario that failed half-way would hold the lines
    [ -f "$logs/powerd.pid" ] && kill "$(cat "$logs/powerd.pid")" 2>/dev/null && sleep 0.5
    rig powerd --board qemu-bench >"$logs/powerd.log" 2>&1 &
    powerd=$!
    echo "$powerd" >"$logs/powerd.pid"
    for _ in $(seq 50); do
        [ -S /run/rig/qemu-bench-powerd.sock ] && return 0
        sleep 0.1
    done
    bad "rig powerd did not start: $(cat "$logs/powerd.log")"
}

stop_powerd() {
    kill "$powerd" 2>/dev/null
    wait "$powerd" 2>/dev/null
    rm -f "$logs/powerd.pid"
}

# rig_run NAME ARGS...: rig run on the bench's board in the background; rig_wait collects it.
rig_run() {
    name=$1
    shift
    started=$(now)
    rig run --board qemu-bench --db "$db" "$@" >"$logs/$name.log" 2>&1 &
    rig_pid=$!
}

rig_wait() {
    wait "$rig_pid"
    RC=$?
    RUN_ID=$(sql "SELECT max(id) FROM runs")
    echo "vbench: $name: rig run exit $RC after $(( $(now) - started )) s (run $RUN_ID)"
    sql "SELECT '  [$name] cycle ' || idx || ' ' || status || ' ' ||
                printf('%.1f', ended_at - started_at) || ' s: ' || step_desc
         FROM cycles WHERE run_id = $RUN_ID ORDER BY idx"
    sed -n '/^verdict /,$p' "$logs/$name.log" | sed "s/^/  [$name] /"
    [ "$RC" -le 1 ] || tail -n 25 "$logs/$name.log" | sed "s/^/  [$name] /"
}

# wait_for FILE PATTERN SECONDS [AFTER]: until the log says PATTERN (after a line with AFTER).
wait_for() {
    for _ in $(seq $(( $3 * 5 ))); do
        sed -n "\\|${4:-.}|,\$p" "$1" 2>/dev/null | grep -q -- "$2" && return 0
        kill -0 "$rig_pid" 2>/dev/null || return 1
        sleep 0.2
    done
    return 1
}

# The PNP device the DUT's UART hangs off. ttyS1's device is the serial core's port (7.3:
# serial-base bus, e.g. 00:04:0.0), a child of the PNP device 00:04 that 8250_pnp binds.
uart_pnp() {
    d=$(readlink -f /sys/class/tty/ttyS1/device)
    while [ -n "$d" ] && [ "$d" != / ]; do
        [ -e "/sys/bus/pnp/devices/${d##*/}" ] && { echo "${d##*/}"; return 0; }
        d=${d%/*}
    done
    return 1
}
# A write the kernel refuses (e.g. ENODEV: not that driver's device) would leave the cable
# plugged in while the checks wait for rig to notice; say so instead.
unplug() { echo "$1" >/sys/bus/pnp/drivers/serial/unbind || bad "cable: could not unbind '$1' from 8250_pnp"; }
plug() { echo "$1" >/sys/bus/pnp/drivers/serial/bind || bad "cable: could not bind '$1' to 8250_pnp again"; }

scenario_units() {
    for t in test_gpio_libgpiod test_gpio_libgpiod2; do
        if ! command -v "$t" >/dev/null; then
            bad "$t is not in the bench image"
            continue
        fi
        RIG_TEST_GPIO_CHIP=vbench-relays RIG_TEST_GPIO_SIM=$sim "$t" >"$logs/$t.log" 2>&1
        rc=$?
        sed -n 's/^libgpiod /  [units] libgpiod /p; s/^\(GPIO chip.*held by.*\)/  [units] \1/p' "$logs/$t.log"
        check "$t: every test passed on gpio-sim lines" [ "$rc" -eq 0 ]
        check "$t: none skipped" [ "$(grep -c SKIPPED "$logs/$t.log")" -eq 0 ]
    done
}

scenario_held() {
    gpioset --mode=signal vbench-relays 1=0 &
    holder=$!
    sleep 0.5
    rig power --board qemu-bench status >"$logs/held.log" 2>&1
    rc=$?
    kill "$holder"
    wait "$holder" 2>/dev/null
    sed 's/^/  [held] /' "$logs/held.log"
    check "held: rig power exits 3 on a line gpioset holds" [ "$rc" -eq 3 ]
    check "held: the error names chip, line and holder" \
        has "$logs/held.log" "GPIO chip vbench-relays ($chip) line 1 'power-button': already held by 'gpioset'"
    if command -v rig-gpiod2 >/dev/null; then
        rig-gpiod2 powerd --board qemu-bench >"$logs/held-powerd.log" 2>&1 &
        holder=$!
        sleep 1
        rig powerd --board vbench/boards/qemu-bench-second.yaml >"$logs/held2.log" 2>&1
        rc=$?
        kill "$holder"
        wait "$holder" 2>/dev/null
        sed 's/^/  [held] /' "$logs/held2.log"
        check "held: a second rig powerd on the same lines exits 3" [ "$rc" -eq 3 ]
        check "held: ... naming the first one's consumer label and pid (GPIO v2 fdinfo)" \
            has "$logs/held2.log" "already held by 'rig\[$holder\]' (pid $holder rig-gpiod2)"
    fi
}

scenario_smoke() {
    start_powerd
    rig_run smoke --plan vbench/plans/smoke.yaml
    rig_wait
    check "smoke: rig run exits 0" [ "$RC" -eq 0 ]
    check "smoke: 5 cycles recorded, all passed" [ "$(cycles pass)" -eq 5 ]
    check "smoke: 3 suspends passed (RTC; button from s2idle; button from S3)" \
        [ "$(verdicts suspend pass)" -eq 3 ]
    check "smoke: hibernation restored after a press on the button" [ "$(verdicts hibernate pass)" -eq 1 ]
    check "smoke: power cut through the relay: nothing acknowledged lost" \
        [ "$(verdicts no-loss fail)" -eq 0 -a "$(verdicts no-loss pass)" -ge 4 ]
    check "smoke: filesystems clean after the power cut" [ "$(verdicts fsck fail)" -eq 0 ]
    check "smoke: the console was the bench's UART" \
        [ "$(sql "SELECT board FROM runs WHERE id = $RUN_ID")" = qemu-bench ]
    check "smoke: rig went through rig powerd" lacks "$logs/smoke.log" "no rig powerd answers"
    stop_powerd
}

scenario_cable() {
    start_powerd
    rig_run cable --plan vbench/plans/sleepy.yaml --cycles 3
    dev=$(uart_pnp) || bad "cable: no PNP device behind ttyS1 ($(readlink -f /sys/class/tty/ttyS1/device))"
    # cycle 1: unplugged for 4 s while the board sleeps, plugged back before it wakes
    if wait_for "$logs/cable.log" "phase resume" 400 "cycle 1/3: "; then
        sleep 2
        unplug "$dev"
        sleep 4
        plug "$dev"
    else
        bad "cable: cycle 1 never reached its sleep"
    fi
    # cycle 2: a break on the line while the board sleeps (the host puts it on the bench's UART)
    if wait_for "$logs/cable.log" "phase resume" 400 "cycle 2/3: "; then
        sleep 2
        echo break >/run/vbench/host.fifo
    fi
    # cycle 3: pulled for good once cycle 2 is stored
    if wait_for "$logs/cable.log" "phase resume" 400 "cycle 3/3: "; then
        sleep 2
        unplug "$dev"
    fi
    rig_wait
    plug "$dev"
    check "cable: rig run exits 3 (infrastructure)" [ "$RC" -eq 3 ]
    check "cable: the unplug was noticed" has "$logs/cable.log" "went away"
    check "cable: and the replug, without losing the cycle" has "$logs/cable.log" "back after"
    check "cable: a break on the line is reported" has "$logs/cable.log" "break on the line"
    check "cable: the first two cycles are kept, passed" \
        [ "$(sql "SELECT count(*) FROM cycles WHERE run_id = $RUN_ID AND idx < 2 AND status = 'pass'")" -eq 2 ]
    check "cable: the third is an infrastructure error" \
        [ "$(sql "SELECT status FROM cycles WHERE run_id = $RUN_ID AND idx = 2")" = infra ]
    check "cable: the error says the console did not come back" \
        has "$logs/cable.log" "did not come back"
    stop_powerd
}

scenario_powerd() {
    start_powerd
    rig_run killed --plan vbench/plans/sleepy.yaml --cycles 2
    if wait_for "$logs/killed.log" "phase resume" 400 "cycle 2/2: "; then
        sleep 2
        kill -9 "$powerd"
    else
        bad "powerd: cycle 2 never reached its sleep"
    fi
    rig_wait
    wait "$powerd" 2>/dev/null
    check "powerd: rig run exits 3 (infrastructure)" [ "$RC" -eq 3 ]
    check "powerd: rig says rig powerd went away" has "$logs/killed.log" "went away mid-run"
    check "powerd: ... and that the relay fell open (the board is unpowered)" \
        has "$logs/killed.log" "relay now open: the board is unpowered"
    check "powerd: the relay line really rests low" [ "$(sim_value 0)" = 0 ]
    check "powerd: the board's TX falling with its power shows as a break" \
        has "$logs/killed.log" "break on the line"
    check "powerd: the first cycle is kept, passed" \
        [ "$(sql "SELECT status FROM cycles WHERE run_id = $RUN_ID AND idx = 0")" = pass ]
}

scenario_loss() {
    start_powerd
    rig_run loss --plan vbench/plans/power-cut-knob0.yaml
    rig_wait
    check "loss: rig run exits 1 (a verdict failed)" [ "$RC" -eq 1 ]
    check "loss: no-loss failed: the relay's cut lost acknowledged records" \
        [ "$(verdicts no-loss fail)" -ge 1 ]
    sql "SELECT '  [loss] no-loss ' || v.filesystem || ' ' || v.result || ': ' || v.detail
         FROM verdicts v JOIN cycles c ON v.cycle_id = c.id
         WHERE c.run_id = $RUN_ID AND v.name = 'no-loss'"
    stop_powerd
}

scenario_baud() {
    started=$(now)
    rig boot --board vbench/boards/qemu-bench-9600.yaml >"$logs/baud.log" 2>&1
    RC=$?
    echo "vbench: baud: rig boot exit $RC after $(( $(now) - started )) s"
    sed 's/^/  [baud] /' "$logs/baud.log" | tail -n 5
    check "baud: rig boot exits 3" [ "$RC" -eq 3 ]
    check "baud: rig says the console is garbled and names the speed" has "$logs/baud.log" "9600 baud"
    check "baud: well before the boot timeout" [ $(( $(now) - started )) -lt 120 ]
}

# The same plan as the direct board's figure in bench/run.sh: the bench's cost per cycle.
scenario_timing() {
    cat >"$logs/timing.yaml" <<EOF
name: bench-timing
knob: {freeze_filesystems: 1}
workloads: [none]
cycles: 5
steps:
  - suspend: {mode: deep, wake: rtc, seconds: 3}
EOF
    start_powerd
    rig_run timing --plan "$logs/timing.yaml"
    rig_wait
    check "timing: rig run exits 0" [ "$RC" -eq 0 ]
    echo "vbench: timing: $(sql "SELECT printf('%.1f', sum(ended_at - started_at)) FROM cycles
                                 WHERE run_id = $RUN_ID") s for 5 cycles"
    stop_powerd
}

for s in "$@"; do
    case $s in
        units|held|smoke|loss|cable|powerd|baud|timing) "scenario_$s" ;;
        *) bad "unknown scenario $s"; exit 2 ;;
    esac
done
exit $failed
