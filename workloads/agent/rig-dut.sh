#!/bin/sh
# rig-dut — the board side of the rig's cycles (POSIX sh; busybox ash on the QEMU board).
# The rig calls it through the agent; every report is one line of key=value pairs so the host
# parses it without guessing. It collects evidence only: every verdict is the rig's (rig/judge/),
# whether it reads these lines through the agent (rig run) or from a LAVA log (rig lava import).
# Usage: rig-dut COMMAND [ARGS]; `rig-dut help` lists commands.
#
# Filesystems come from /etc/rig/layout.sh (RIG_FILESYSTEMS: name type device mountpoint).
set -u
PATH=/usr/sbin:/usr/bin:/sbin:/bin
STATE=/run/rig                  # tmpfs: never frozen, survives suspend, not a reboot
TRACE=/sys/kernel/tracing
[ -d "$STATE" ] || mkdir -p "$STATE"    # a test, not a process: every command pays for this line
[ -f /etc/rig/tools.sh ] && . /etc/rig/tools.sh      # real util-linux tools over busybox applets
[ -f /etc/rig/layout.sh ] && . /etc/rig/layout.sh

# plain_name NAME — a filesystem name as board files allow it (letters, digits, '-', '_'):
# names arrive in command lines and become paths here.
plain_name() { case $1 in ''|*[!A-Za-z0-9_-]*) return 1 ;; esac; }
fs_lines() { echo "$RIG_FILESYSTEMS" | while read -r n t d m; do [ -n "$n" ] && echo "$n $t $d $m"; done; }

# build_id FILE — the GNU build-id (hex) among the ELF notes of FILE: /sys/kernel/notes holds the
# running kernel's, the one `readelf -n vmlinux` shows (kernel/build.sh records it in meta.json).
build_id() {
    od -An -v -tx1 "$1" 2>/dev/null | tr -s ' \n' '\n\n' | grep . | awk '
        { b[n++] = $1 }
        function le(i) { return hex(b[i]) + 256 * hex(b[i+1]) + 65536 * hex(b[i+2]) + 16777216 * hex(b[i+3]) }
        function hex(h,   v, k) { v = 0; for (k = 1; k <= length(h); k++) v = v * 16 + index("0123456789abcdef", substr(h, k, 1)) - 1; return v }
        END {
            i = 0
            while (i + 12 <= n) {
                nsz = le(i); dsz = le(i + 4); type = le(i + 8); i += 12
                name = ""; for (k = 0; k < nsz - 1; k++) name = name sprintf("%c", hex(b[i + k]))
                i += int((nsz + 3) / 4) * 4
                if (name == "GNU" && type == 3) { s = ""; for (k = 0; k < dsz; k++) s = s b[i + k]; print s; exit }
                i += int((dsz + 3) / 4) * 4
            }
        }'
}

cmd_info() {
    knob=absent sync=absent
    [ -r /sys/power/freeze_filesystems ] && knob=$(cat /sys/power/freeze_filesystems)
    [ -r /sys/power/sync_on_suspend ] && sync=$(cat /sys/power/sync_on_suspend)
    echo "kernel=$(uname -r) freeze_filesystems=$knob sync_on_suspend=$sync" \
         "states=$(tr ' ' ',' </sys/power/state) mem_sleep=$(tr ' ' ',' </sys/power/mem_sleep)" \
         "disk=$(tr ' ' ',' </sys/power/disk 2>/dev/null)" \
         "boot_id=$(cat /proc/sys/kernel/random/boot_id)" \
         "build_id=$(build_id /sys/kernel/notes)"
}

# knob NAME VALUE — freeze_filesystems or sync_on_suspend; prints the value read back.
cmd_knob() {
    f=/sys/power/$1
    [ -w "$f" ] || { echo "error=absent knob=$1"; return 1; }
    echo "$2" >"$f" || { echo "error=write-failed knob=$1"; return 1; }
    echo "knob=$1 value=$(cat "$f")"
}

# Kprobes on the kernel's freeze and thaw of filesystems; timestamps on CLOCK_BOOTTIME so they
# compare with the writers' telemetry. S_ID is the offset of s_id in struct super_block
# (out/kernels/<id>/meta.json); without it freeze_super is traced without the device name.
cmd_trace_setup() {
    s_id=${1:-}
    [ -d "$TRACE" ] || { echo "error=no-tracefs"; return 1; }
    echo 0 >"$TRACE/tracing_on"
    echo >"$TRACE/kprobe_events" 2>/dev/null
    echo boot >"$TRACE/trace_clock"
    name_arg=""
    [ -n "$s_id" ] && name_arg=" dev=+$s_id(%di):string"
    {
        echo "p:rig/fs_freeze filesystems_freeze"
        echo "r:rig/fs_freeze_done filesystems_freeze"
        echo "p:rig/fs_thaw filesystems_thaw"
        echo "r:rig/fs_thaw_done filesystems_thaw"
        echo "p:rig/freeze_super freeze_super who=%si:u32$name_arg"
        echo "r:rig/freeze_super_ret freeze_super ret=\$retval:s32"
        echo "p:rig/thaw_super thaw_super who=%si:u32$name_arg"
    } | while read -r ev; do echo "$ev" >>"$TRACE/kprobe_events" || echo "warning=kprobe-failed event=\"$ev\"" >&2; done
    echo 1 >"$TRACE/events/rig/enable"
    echo 1 >"$TRACE/tracing_on"
    echo "trace=on clock=$(sed 's/.*\[\(.*\)\].*/\1/' "$TRACE/trace_clock") events=$(ls "$TRACE/events/rig" | grep -cv -e enable -e filter)"
}

# Print the trace since the last call as "event t_ns [dev]" lines, then clear it (stall-ops
# reads the same lines back from $STATE/trace.last).
cmd_trace_read() {
    awk '/ rig\/|: (fs_|freeze_super|thaw_super)/ {
            for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = $i; sub(":", "", t); ev = $(i + 1); sub(":", "", ev) }
            dev = ""; if (match($0, /dev="[^"]*"/)) dev = substr($0, RSTART + 5, RLENGTH - 6)
            # busybox awk reads a string of digits 0-7 with a leading 0 as octal: strip the zeros
            split(t, p, "."); f = substr(p[2] "000000000", 1, 9); sub(/^0+/, "", f)
            ns = p[1] * 1000000000 + f
            printf "%s %.0f %s\n", ev, ns, dev
        }' "$TRACE/trace" | tee "$STATE/trace.last"
    echo >"$TRACE/trace"
}

# The per-device suspend/resume timeline (plans with `timeline: true`): the kernel's power events
# in a trace instance of their own, so the freeze probes' buffer (trace-read) stays as it was, on
# the same clock (boot) so that both, and the writers' telemetry, share one time axis. A kernel
# without the events or without trace instances is "unavailable", never an error: the cycle goes on.
TIMELINE=$TRACE/instances/rig-timeline
cmd_timeline_setup() {
    for ev in device_pm_callback_start device_pm_callback_end suspend_resume; do
        [ -d "$TRACE/events/power/$ev" ] || { echo "timeline=unavailable reason=no-event-$ev"; return 0; }
    done
    [ -d "$TIMELINE" ] || mkdir "$TIMELINE" 2>/dev/null
    [ -d "$TIMELINE/events/power" ] || { echo "timeline=unavailable reason=no-trace-instances"; return 0; }
    echo 0 >"$TIMELINE/tracing_on"
    echo boot >"$TIMELINE/trace_clock"
    # a laptop's suspend and resume: 300 devices x 8 phases x 2 events of ~100 bytes, spread
    # over the CPUs by async suspend: 1 MiB a CPU holds it with room (an overrun says LOST)
    echo 1024 >"$TIMELINE/buffer_size_kb" 2>/dev/null
    n=0
    for ev in device_pm_callback_start device_pm_callback_end suspend_resume; do
        echo 1 >"$TIMELINE/events/power/$ev/enable" && n=$((n + 1))
    done
    echo >"$TIMELINE/trace"
    echo 1 >"$TIMELINE/tracing_on"
    echo "timeline=on clock=$(sed 's/.*\[\(.*\)\].*/\1/' "$TIMELINE/trace_clock") events=$n"
}

# timeline_clear — before a sleep: the timeline read after it is that sleep's alone (a pm-test or
# a sleep whose cycle read no timeline leaves its events behind). Nothing when not set up.
timeline_clear() { [ -f "$TIMELINE/trace" ] && echo >"$TIMELINE/trace"; return 0; }

# timeline-read [MIN_US] — the power events since the last call, summarised here (the console is
# 115200 baud: a raw trace would take minutes), then cleared. Lines (timeline_summarise).
cmd_timeline_read() {
    [ -f "$TIMELINE/trace" ] || { echo "timeline=unavailable reason=not-set-up"; return 0; }
    timeline_summarise "${1:-1000}" <"$TIMELINE/trace"
    echo >"$TIMELINE/trace"
}

# timeline_summarise MIN_US <TRACE — one line per device callback of MIN_US or more (or failed),
# one "others" line per phase for the faster ones, one line per suspend_resume span; offsets in µs
# from base_ns (the first event, CLOCK_BOOTTIME ns):
#   timeline base_ns=B events=N devices=D others=O marks=M lost=L min_us=T
#   mark name="dpm_suspend" val=2 start_us=S dur_us=D        (open=1 instead of dur_us: no end)
#   dev phase=suspend name="0000:00:02.0" driver="e1000" start_us=S dur_us=D err=E   (or open=1)
#   others phase=suspend count=N start_us=S end_us=E total_us=T max_us=M
# The phase comes from the callback's own kind (device_pm_callback_start's "noirq bus [suspend]"),
# as drivers/base/power/main.c names it: prepare, suspend, suspend_late, suspend_noirq,
# resume_noirq, resume_early, resume, complete (hibernation's freeze/thaw/poweroff/restore too).
timeline_summarise() {
    awk -v min_us="$1" '
        # busybox awk reads a string with a leading 0 as octal ("012345" + 0 is 5349): the
        # fraction loses its leading zeros before it becomes a number
        function ns_of(t,   p, f) { split(t, p, "."); f = substr(p[2] "000000000", 1, 9); sub(/^0+/, "", f); return p[1] * 1000000000 + f }
        function us(ns) { return sprintf("%.0f", (ns - base) / 1000) }
        function clean(s) { gsub(/"/, "", s); return s }
        function phase_of(info, verb,   l, up) {
            l = tolower(info); up = verb ~ /^(resume|thaw|restore|recover)$/
            # dpm_prepare() and dpm_complete() trace their callbacks with no pm_ops at all
            # ("parent: P, [suspend]"); every other phase names one ("bus ", "noirq class ", ...)
            if (l ~ /^ *$/) return up ? "complete" : "prepare"
            if (l ~ /noirq/) return up ? "resume_noirq" : "suspend_noirq"
            if (l ~ /late/) return "suspend_late"
            if (l ~ /early/) return "resume_early"
            return up ? "resume" : "suspend"
        }
        # "DRIVER DEVICE" (the driver may be empty: " DEVICE") into drv and dev
        function driver_device(head,   sp) {
            if (substr(head, 1, 1) == " ") { drv = ""; dev = substr(head, 2); return }
            sp = index(head, " ")
            if (sp == 0) { drv = ""; dev = head; return }
            drv = substr(head, 1, sp - 1); dev = substr(head, sp + 1)
        }
        /\[LOST [0-9]+ EVENTS\]/ { match($0, /LOST [0-9]+/); lost += substr($0, RSTART + 5, RLENGTH - 5); next }
        {
            ts = ""; ev = ""
            for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { ts = $i; sub(":", "", ts); ev = $(i + 1); sub(":", "", ev); break }
            if (ev != "device_pm_callback_start" && ev != "device_pm_callback_end" && ev != "suspend_resume") next
            at = index($0, " " ev ": "); if (at == 0) next
            body = substr($0, at + length(ev) + 3)
            t = ns_of(ts); if (!events++) base = t
        }
        ev == "device_pm_callback_start" {
            p = index(body, ", parent: "); if (p == 0) { bad++; next }
            driver_device(substr(body, 1, p - 1)); rest = substr(body, p + 10)
            if (!match(rest, /\[[a-z]+\]$/)) { bad++; next }     # cut short (a full buffer, a torn read)
            verb = substr(rest, RSTART + 1, RLENGTH - 2); info = substr(rest, 1, RSTART - 1)
            c = index(info, ", "); while (c > 0) { info = substr(info, c + 2); c = index(info, ", ") }
            n++; d_phase[n] = phase_of(info, verb); d_name[n] = clean(dev); d_drv[n] = clean(drv)
            d_start[n] = t; d_end[n] = -1; d_err[n] = 0; open_dev[dev] = n
            next
        }
        ev == "device_pm_callback_end" {
            p = 0; q = index(body, ", err="); while (q > 0) { p += q; q = index(substr(body, p + 1), ", err=") }
            if (p == 0) { bad++; next }
            driver_device(substr(body, 1, p - 1))
            if (!(dev in open_dev)) { unmatched++; next }
            k = open_dev[dev]; delete open_dev[dev]
            d_end[k] = t; d_err[k] = substr(body, p + 6) + 0
            next
        }
        ev == "suspend_resume" {
            if (!match(body, /^[^[]+\[[0-9]+\] (begin|end)$/)) { bad++; next }
            action = substr(body, 1, index(body, "[") - 1)
            val = substr(body, index(body, "[") + 1); val = substr(val, 1, index(val, "]") - 1)
            key = action; if (action ~ /^CPU_/) key = action "[" val "]"
            if (body ~ / begin$/) {
                m++; m_name[m] = action; m_val[m] = val; m_start[m] = t; m_end[m] = -1; open_mark[key] = m
            } else if (key in open_mark) {
                m_end[open_mark[key]] = t; delete open_mark[key]
            } else unmatched++
        }
        END {
            kept = 0; agg = 0
            for (i = 1; i <= n; i++) {
                dur = d_end[i] < 0 ? -1 : (d_end[i] - d_start[i]) / 1000
                if (dur >= 0 && dur < min_us && d_err[i] == 0) {
                    ph = d_phase[i]; agg++
                    if (!(ph in o_count)) { o_order[++n_o] = ph; o_start[ph] = d_start[i]; o_end[ph] = d_end[i] }
                    o_count[ph]++; o_total[ph] += dur; if (dur > o_max[ph]) o_max[ph] = dur
                    if (d_start[i] < o_start[ph]) o_start[ph] = d_start[i]
                    if (d_end[i] > o_end[ph]) o_end[ph] = d_end[i]
                    continue
                }
                kept++
                line[kept] = sprintf("dev phase=%s name=\"%s\" driver=\"%s\" start_us=%s %s", d_phase[i], d_name[i], d_drv[i], us(d_start[i]),
                                     dur < 0 ? "open=1" : sprintf("dur_us=%.0f err=%d", dur, d_err[i]))
            }
            printf "timeline base_ns=%.0f events=%d devices=%d others=%d marks=%d lost=%d unmatched=%d bad=%d min_us=%d\n",
                   base, events, kept, agg, m, lost, unmatched, bad, min_us
            for (i = 1; i <= m; i++)
                printf "mark name=\"%s\" val=%s start_us=%s %s\n", clean(m_name[i]), m_val[i], us(m_start[i]),
                       m_end[i] < 0 ? "open=1" : sprintf("dur_us=%.0f", (m_end[i] - m_start[i]) / 1000)
            for (i = 1; i <= kept; i++) print line[i]
            for (i = 1; i <= n_o; i++) {
                ph = o_order[i]
                printf "others phase=%s count=%d start_us=%s end_us=%s total_us=%.0f max_us=%.0f\n", ph, o_count[ph],
                       us(o_start[ph]), us(o_end[ph]), o_total[ph], o_max[ph]
            }
        }'
}

# stall-ops — every writer's telemetry around the kernel's last freeze of filesystems (from the
# first fs_freeze to the last fs_thaw_done of the trace trace-read printed): a "tel" header and
# the operations overlapping that time, for the rig to judge against each filesystem's own
# frozen window. Lines: window from_ns=A to_ns=B, then writer=ID tel ... / writer=ID op ...
cmd_stall_ops() {
    set -- $(awk '$1 == "fs_freeze" && !f { f = $2 } $1 == "fs_thaw_done" { t = $2 }
                  { last = $2 } END { if (f) print f, (t ? t : last) }' "$STATE/trace.last" 2>/dev/null)
    [ $# -eq 2 ] || { echo "window none"; return 0; }
    echo "window from_ns=$1 to_ns=$2"
    for tel in "$STATE"/tel/*.tel; do
        [ -f "$tel" ] || continue
        id=${tel##*/}; id=${id%.tel}
        stall-report --dump --freeze-ns "$1" --thaw-ns "$2" "$tel" 2>&1 | sed "s/^/writer=$id /"
    done
}

# fio_loop NAME MNT — fio's rand-write job run after run on filesystem NAME. Each run is one pass
# (every block written once) over a fresh sparse file whose predecessor was durably removed
# first, so a block the run wrote and then lost can only read back as zeros, never as an older
# fio block that fio's crc32c verify would accept. The verify state goes to $STATE/fio/NAME (tmpfs): it is fio's
# acknowledgement, taken by fio-checkpoint. A run that fails (a verify error) ends the loop, so
# `alive` reports it.
fio_loop() {
    dir=$STATE/fio/$1
    mkdir -p "$dir"
    cd "$dir" || return 1
    while :; do
        # the new file exists, empty (sparse), before fio writes: after a crash only its
        # blocks are in question, not whether the file itself made it
        # the state first: a checkpoint landing in between must never find the acknowledgement
        # of a file that is already gone
        rm -f "$dir"/*.state "$dir/started"
        rm -f "$2/rand-write.dat"
        truncate -s 32M "$2/rand-write.dat" && sync -f "$2"
        # started: the job is set up and about to write (start-workloads waits for it).
        # 64 KiB/s per filesystem: steady writes the board's disks keep up with. Random 4k
        # writes are what the QEMU board (single-threaded TCG) does slowest: at 1 MiB/s each
        # the pre-suspend syncs took 45-76 s, at 256 KiB/s still 64 s (2026-12-05), and every
        # RTC suspend outlasted its alarm.
        DIR=$2 RUNTIME=86400 fio --aux-path="$dir" --output="$dir/run.log" --rate=64k \
            --exec_prerun="touch $dir/started" /usr/share/rig/fio/rand-write.fio &
        echo $! >"$dir/fio.pid"
        wait $! || break
    done
}

# fio-checkpoint — before a forced failed resume: stop every fio run (fio saves its verify state
# when it stops, and only then) and print that state, the writes fio had completed, so that it
# leaves the board before the failure: fio=NAME written=N state=<base64 of the state file>.
# fio writes no more on these filesystems until the next start-workloads.
cmd_fio_checkpoint() {
    names=""
    for f in "$STATE"/pids/*-fio; do      # stop them all at once, then collect
        [ -f "$f" ] || continue
        name=${f##*/}; name=${name%-fio}
        names="$names $name"
        kill "$(cat "$f")" 2>/dev/null     # the loop first: it must not start another run
        rm -f "$f" "$STATE/fio/$name/stopped"
        # Between two runs (the loop removing the old file, syncing the new one) no fio runs:
        # nothing is acknowledged, and no state is written.
        [ -f "$STATE/fio/$name/fio.pid" ] && kill -TERM "$(cat "$STATE/fio/$name/fio.pid")" 2>/dev/null &&
            : >"$STATE/fio/$name/stopped"
    done
    for name in $names; do
        dir=$STATE/fio/$name
        pid=$(cat "$dir/fio.pid" 2>/dev/null)
        i=0
        while [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
        state=$dir/local-rand-write-0-verify.state
        if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
            echo "fio=$name error=still-running"
        elif [ -s "$state" ]; then
            echo "fio=$name written=$(od -An -tu8 -j40 -N8 "$state" | tr -d ' ') state=$(base64 -w0 "$state")"
        elif [ ! -f "$dir/stopped" ]; then
            echo "fio=$name written=0 between_runs=1"
        else
            # fio saves its state only when stopped in its write phase: stopped in the verify
            # pass that ends each run (every block written and verified) it leaves none
            echo "fio=$name written=0 no_state=stopped-after-writing"
        fi
    done
}

# fio-verify NAME=STATE... — after the reboot: fio's verify-only pass over each filesystem's file,
# replaying the run's writes up to the checkpointed state (verify_state_load) and checking every
# block (crc32c, offset). One line each: fio=NAME verify=pass|fail acked=N verified=N err=E
# [first_error="..."]. verified = 4 KiB blocks read back and checked.
cmd_fio_verify() {
    for arg in "$@"; do
        name=${arg%%=*} b64=${arg#*=}
        # the name becomes a directory that is rm -rf'd: a plain word only (as board files allow)
        plain_name "$name" || { echo "fio=? error=bad-name"; continue; }
        case $b64 in *[!A-Za-z0-9+/=]*) echo "fio=$name error=bad-state"; continue ;; esac
        mnt=$(fs_lines | awk -v n="$name" '$1 == n {print $4}')
        [ -n "$mnt" ] || { echo "fio=$name error=unknown-filesystem"; continue; }
        dir=$STATE/fio-verify/$name
        rm -rf "$dir"; mkdir -p "$dir"
        echo "$b64" | base64 -d >"$dir/local-rand-write-0-verify.state" ||
            { echo "fio=$name error=bad-state"; continue; }
        acked=$(od -An -tu8 -j40 -N8 "$dir/local-rand-write-0-verify.state" | tr -d ' ')
        if [ ! -f "$mnt/rand-write.dat" ]; then
            echo "fio=$name verify=fail acked=$acked verified=0 err=2 first_error=\"rand-write.dat is gone\""
            continue
        fi
        DIR=$mnt fio --aux-path="$dir" --section=rand-write --output-format=terse --terse-version=3 \
            --output="$dir/terse" /usr/share/rig/fio/verify-only.fio >"$dir/log" 2>&1
        rc=$?
        # terse v3: field 5 the job's error, field 6 KiB read (and checked)
        err=$(awk -F';' 'NR == 1 {print $5}' "$dir/terse")
        kib=$(awk -F';' 'NR == 1 {print $6}' "$dir/terse")
        first=$(grep -m1 -e 'verify' -e 'fio:' "$dir/log" | tr -d '"' | cut -c1-160)
        if [ "$rc" -eq 0 ] && [ "${err:-1}" = 0 ]; then v=pass; else v=fail; fi
        echo "fio=$name verify=$v acked=$acked verified=$(( ${kib:-0} / 4 )) err=${err:-?} rc=$rc${first:+ first_error=\"$first\"}"
    done
}

# journald_start — the journald workload (systemd boards): journald-logger as a transient unit,
# acknowledging what journald has written to its persistent journal on $RIG_JOURNAL_FS. Its
# writer id is <journal filesystem>-j<gen>.
journald_start() {
    command -v systemd-run >/dev/null && [ -S /run/systemd/journal/socket ] ||
        { echo "error=no-journald (the journald workload needs a systemd board)"; return 1; }
    [ -n "${RIG_JOURNAL_FS:-}" ] && mountpoint -q /var/log/journal ||
        { echo "error=journal-not-persistent (/var/log/journal is not on a test filesystem)"; return 1; }
    gen=$(head -c 2 /dev/urandom | od -An -tx1 | tr -d ' \n' | cut -c1-3)
    id=$RIG_JOURNAL_FS-j$gen
    systemd-run --quiet --collect --unit="rig-journald-$gen" --description="rig journald workload $id" \
        /usr/bin/journald-logger --id "$id" --interval-ms 50 --ack-ms 100 --telemetry "$STATE/tel/$id.tel" ||
        { echo "error=systemd-run-failed"; return 1; }
    pid=$(systemctl show -P MainPID "rig-journald-$gen.service")
    [ "${pid:-0}" -gt 0 ] || { echo "error=journald-logger-not-running"; return 1; }
    echo "$pid" >"$STATE/pids/$id"
}

# start-workloads KIND... — journal (mmap), journal-write (write(2)), meta, fio: one writer per
# filesystem; journald: one logger to journald (its journal is on $RIG_JOURNAL_FS).
cmd_start_workloads() {
    mkdir -p "$STATE/tel" "$STATE/pids"
    for kind in "$@"; do
        if [ "$kind" = journald ]; then
            journald_start || return 1
            continue
        fi
        fs_lines | while read -r name type dev mnt; do
            case $kind in
                journal|journal-write)
                    # ids are at most 15 characters: <filesystem>-m<gen> (mmap) or -w<gen> (write).
                    # <gen> is new at every start: the writer truncates its file, and after a
                    # power cut the old instance's records (same sequence numbers) may be what
                    # is on disk; the verifier must not mistake them for the new ones.
                    mode=mmap; [ "$kind" = journal-write ] && mode=write
                    gen=$(head -c 2 /dev/urandom | od -An -tx1 | tr -d ' \n' | cut -c1-3)
                    id=$name-$(echo $mode | cut -c1)$gen
                    # Like journald: records are "logged" once stored; syncs are rare (60 s).
                    # Each completed record is acknowledged (at most every 100 ms) on /dev/kmsg.
                    journal-writer --file "$mnt/journal-$mode.dat" --id "$id" --mode "$mode" \
                        --ack-on complete --ack-ms 100 --sync-ms 60000 \
                        --telemetry "$STATE/tel/$id.tel" >"$STATE/$id.log" 2>&1 &
                    echo $! >"$STATE/pids/$id"
                    ;;
                meta)
                    # metadata operations in $mnt/meta (a fresh directory: the verifier reads
                    # every operation file in it), each acknowledged once completed; id
                    # <filesystem>-x<gen>
                    gen=$(head -c 2 /dev/urandom | od -An -tx1 | tr -d ' \n' | cut -c1-3)
                    id=$name-x$gen
                    rm -rf "$mnt/meta"
                    meta-writer --dir "$mnt/meta" --id "$id" --interval-ms 50 --ack-ms 100 \
                        >"$STATE/$id.log" 2>&1 &
                    echo $! >"$STATE/pids/$id"
                    ;;
                fio)
                    fio_loop "$name" "$mnt" >/dev/null 2>&1 &
                    echo $! >"$STATE/pids/$name-fio"
                    ;;
                none) ;;
                *) echo "error=unknown-workload kind=$kind"; return 1 ;;
            esac
        done
    done
    # fio lays its file out first: wait until every run writes, so that a checkpoint right
    # after this has something to check
    i=0
    for f in "$STATE"/pids/*-fio; do
        [ -f "$f" ] || continue
        name=${f##*/}; name=${name%-fio}
        while [ ! -f "$STATE/fio/$name/started" ] && kill -0 "$(cat "$f")" 2>/dev/null && [ $i -lt 600 ]; do
            sleep 0.1; i=$((i + 1))
        done
    done
    echo "workloads=$(ls "$STATE/pids" | wc -l)"
}

# klog SINCE [UNTIL] — the kernel's log lines stamped after SINCE (and before UNTIL) seconds: what
# went by on the console while the rig's serial adapter was unplugged.
cmd_klog() {
    dmesg | awk -v since="$1" -v until="${2:-}" '
        /^\[ *[0-9]+\.[0-9]+\]/ {
            t = substr($0, 2, index($0, "]") - 2) + 0
            keep = t > since && (until == "" || t < until + 0)
        }
        keep { print }'
}

# alive — one line per writer: still running or not.
cmd_alive() {
    for f in "$STATE"/pids/*; do
        [ -f "$f" ] || continue
        id=${f##*/} pid=$(cat "$f")
        if kill -0 "$pid" 2>/dev/null; then echo "writer=$id alive=1"; else echo "writer=$id alive=0"; fi
    done
}

# collect PART... — what the rig reads after every resume, in one agent round trip instead of one
# each (each costs the console's round trip and a fresh rig-dut): every PART's output follows a
# line "collect=PART". trace before stall: stall-ops reads the window trace-read kept.
cmd_collect() {
    for part in "$@"; do
        case $part in
            trace|alive|stall) ;;
            *) echo "error=bad-argument arg=$part"; return 1 ;;
        esac
    done
    for part in "$@"; do
        echo "collect=$part"
        case $part in
            trace) cmd_trace_read ;;
            alive) cmd_alive ;;
            stall) cmd_stall_ops ;;
        esac
    done
}

cmd_stop_workloads() {
    for f in "$STATE"/pids/*; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null; done
    for f in "$STATE"/fio/*/fio.pid; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null; done
    sleep 1
    rm -f "$STATE"/pids/*
    echo "stopped=1"
}

# Milliseconds since boot (busybox date has no %N).
uptime_ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }

# systemd_sleep VERB — sleep the way users do: `systemctl VERB` (suspend, hibernate, hybrid-sleep,
# suspend-then-hibernate) asks logind, which starts systemd-VERB.service; wait until that run of
# the unit has ended and report what systemd says about it, as keys for the result line:
# systemd_result (the unit's Result, or refused/timeout), user_freeze/user_thaw (systemd-sleep
# freezes user.slice before the sleep and thaws it after), sleep_pre_ms/sleep_post_ms
# (systemd-sleep's own time before the kernel sleeps and after it returns), systemd_said.
systemd_sleep() {
    unit=systemd-$1.service
    before=$(systemctl show -P InvocationID "$unit")
    if ! said=$(systemctl "$1" 2>&1); then
        echo "systemd_result=refused systemd_said=\"$(echo "$said" | tr -d '"' | tr '\n' ' ' | cut -c1-150)\""
        return 1
    fi
    i=0 inv=
    while [ $i -lt 3000 ]; do      # 10 minutes awake: a sleep that never starts is reported
        inv=$(systemctl show -P InvocationID "$unit")
        state=$(systemctl show -P ActiveState "$unit")
        [ -n "$inv" ] && [ "$inv" != "$before" ] && { [ "$state" = inactive ] || [ "$state" = failed ]; } && break
        sleep 0.2; i=$((i + 1))
    done
    [ $i -lt 3000 ] || { echo "systemd_result=timeout systemd_said=\"$unit did not run\""; return 1; }
    result=$(systemctl show -P Result "$unit")
    journalctl --sync 2>/dev/null
    journalctl --no-pager -o short-monotonic "_SYSTEMD_INVOCATION_ID=$inv" 2>/dev/null >"$STATE/sleep-journal"
    start_us=$(systemctl show -P ExecMainStartTimestampMonotonic "$unit")
    exit_us=$(systemctl show -P ExecMainExitTimestampMonotonic "$unit")
    awk -v start="${start_us:-0}" -v exit_="${exit_us:-0}" -v result="$result" '
        { t = $1; gsub(/[][]/, "", t); t *= 1000 }
        /[Ff]roze unit .user\.slice|user\.slice.*frozen/ { freeze = "froze" }
        /[Ff]ail.*freez.*user\.slice/ { freeze = "failed"; said = $0 }
        /[Tt]hawed unit .user\.slice|user\.slice.*thawed/ { thaw = "thawed" }
        /[Ff]ail.*thaw.*user\.slice/ { thaw = "failed"; said = $0 }
        /Performing sleep operation/ { perform = t }
        /System returned from sleep operation|returned from sleep/ { back = t }
        /[Ff]ailed|[Ee]rror/ && said == "" { said = $0 }
        END {
            pre = perform && start ? perform - start / 1000 : -1
            post = back && exit_ ? exit_ / 1000 - back : -1
            gsub(/"/, "", said); sub(/^\[[^]]*\] /, "", said)
            printf "systemd_result=%s user_freeze=%s user_thaw=%s sleep_pre_ms=%d sleep_post_ms=%d",
                   result, freeze ? freeze : "none", thaw ? thaw : "none", pre, post
            if (said != "") printf " systemd_said=\"%s\"", substr(said, 1, 150)
            printf "\n"
        }' "$STATE/sleep-journal"
    [ "$result" = success ]
}

# Wake accounting: wake_mark just before the sleep, wake_report right after it returns; the line
# `wake irq= irq_name= asleep_ms= awake_ms= sources= rtc= hw_sleep_ms=` that
# rig/judge/wake_time.h reads. What the kernel lacks is reported as "unavailable", never an error
# (a board without the file sleeps on).
#   asleep_ms  Δ(CLOCK_BOOTTIME) − Δ(CLOCK_MONOTONIC) over the sleep: monotonic stops while
#              suspended, boottime does not. Boottime from /proc/uptime (10 ms steps), monotonic
#              from /proc/timer_list's "now at" (root only).
#   awake_ms   Δ(CLOCK_MONOTONIC): the time the board was awake between the mark and the report
#              (the kernel's suspend entry and resume; the host cannot split it).
#   irq        /sys/power/pm_wakeup_irq (the kernel clears it as each suspend starts; unreadable
#              when no wakeup interrupt was recorded), irq_name its action in /proc/interrupts.
#   sources    the wakeup sources (/sys/class/wakeup/wakeup*/) whose event_count or
#              wakeup_count changed: NAME:EVENTS:WAKEUPS,... ("none": none did).
#   rtc        the board's wakeup sources that belong to an RTC (their device has an rtc/
#              child, e.g. rtc_cmos's 00:01, or the name starts with rtc): NAME,... ("none": the
#              RTC has no wakeup source, so only the timing can tell an RTC wake).
#   hw_sleep_ms  Δ/sys/power/suspend_stats/total_hw_sleep: the time the hardware itself reported
#              in its deepest sleep state (s2idle on LPS0 platforms; the file is hidden elsewhere).
# RIG_SYSFS and RIG_PROC stand for /sys and /proc (workloads/tests/rig-dut-wake.sh).
# One awk for the mark and two for the report, whatever the number of wakeup sources: the
# mark is taken after the RTC alarm is armed, and a cat or an awk costs about 20 ms under TCG (a
# loop per source and per clock cost the sleep 0.7 s a cycle on the QEMU board).
#
# wake_snapshot — one awk over what the kernel has: "clocks BOOTTIME_MS MONOTONIC_MS",
# "hw TOTAL_HW_SLEEP_US", "wakeup" (the class exists) and per wakeup source "src wakeupN NAME
# EVENTS WAKEUPS RTC" (NAME without the line's separators; RTC 1 when it belongs to an RTC).
wake_snapshot() {
    p=${RIG_PROC:-/proc} s=${RIG_SYSFS:-/sys} rtcs=" "
    set --
    for f in "$p/uptime" "$p/timer_list" "$s/power/suspend_stats/total_hw_sleep"; do
        [ -r "$f" ] && set -- "$@" "$f"
    done
    [ -d "$s/class/wakeup" ] && echo wakeup
    for d in "$s"/class/wakeup/wakeup*; do
        [ -r "$d/event_count" ] || continue
        [ -d "$d/device/rtc" ] && rtcs="$rtcs${d##*/} "
        for f in name event_count wakeup_count; do [ -r "$d/$f" ] && set -- "$@" "$d/$f"; done
    done
    [ $# -gt 0 ] || return 0
    awk -v rtcs="$rtcs" '
        FNR == 1 { n = split(FILENAME, part, "/"); key = part[n - 1]; file = part[n] }
        file == "uptime" && FNR == 1 { boot = sprintf("%.0f", $1 * 1000) }
        file == "timer_list" && mono == "" && /^now at [0-9]+ nsecs/ { mono = sprintf("%.0f", $3 / 1000000) }
        file == "total_hw_sleep" && FNR == 1 { hw = $1 }
        key ~ /^wakeup[0-9]+$/ && FNR == 1 {
            if (!(key in seen)) { seen[key] = 1; order[++count] = key }
            if (file == "name") { v = $0; gsub(/[ ,:="]/, "_", v); name[key] = v }
            else if (file == "event_count") events[key] = $1 + 0
            else if (file == "wakeup_count") wakeups[key] = $1 + 0
        }
        END {
            if (boot != "" && mono != "") print "clocks", boot, mono
            if (hw ~ /^[0-9]+$/) print "hw", hw
            for (i = 1; i <= count; i++) {
                k = order[i]
                if (!(k in events)) continue
                nm = (name[k] != "") ? name[k] : k
                r = (nm ~ /^rtc/ || index(rtcs, " " k " ")) ? 1 : 0
                print "src", k, nm, events[k], wakeups[k] + 0, r
            }
        }' "$@" 2>/dev/null
}
wake_mark() { wake_snapshot >"$STATE/wake-mark" || : >"$STATE/wake-mark"; }
wake_report() {
    wake_snapshot >"$STATE/wake-now"
    irq=
    # the read fails when the kernel recorded no wakeup interrupt: unavailable, not an error
    [ -r "${RIG_SYSFS:-/sys}/power/pm_wakeup_irq" ] &&
        { read -r irq <"${RIG_SYSFS:-/sys}/power/pm_wakeup_irq"; } 2>/dev/null
    case $irq in ''|*[!0-9]*) irq=unavailable ;; esac
    set -- "$STATE/wake-now"
    [ -r "$STATE/wake-mark" ] && set -- "$STATE/wake-mark" "$@"     # no mark: nothing to compare
    [ -r "${RIG_PROC:-/proc}/interrupts" ] && set -- "$@" "${RIG_PROC:-/proc}/interrupts"
    awk -v irq="$irq" '
        FILENAME ~ /wake-mark$/ {
            if ($1 == "clocks") { b0 = $2; m0 = $3 } else if ($1 == "hw") hw0 = $2
            else if ($1 == "wakeup") marked = 1
            else if ($1 == "src") { e[$2] = $4; w[$2] = $5 }
            next
        }
        FILENAME ~ /wake-now$/ {
            if ($1 == "clocks") { b1 = $2; m1 = $3 } else if ($1 == "hw") hw1 = $2
            else if ($1 == "src") {
                de = $4 - e[$2]; dw = $5 - w[$2]
                if (de != 0 || dw != 0) { sources = sources sep $3 ":" de ":" dw; sep = "," }
                if ($6 == 1 && !rtc_seen[$3]++) { rtc = rtc rsep $3; rsep = "," }
            }
            next
        }
        irq != "unavailable" && $1 == (irq ":") && irq_name == "" { irq_name = $NF }
        END {
            asleep = awake = "unavailable"
            if (b0 != "" && b1 != "") {
                awake = m1 - m0; asleep = (b1 - b0) - (m1 - m0)
                if (asleep < 0) asleep = 0      # boottime in 10 ms steps against monotonic in 1 ms
            }
            if (!marked) sources = rtc = "unavailable"
            hw = (hw0 != "" && hw1 != "") ? int((hw1 - hw0) / 1000) : "unavailable"
            printf "wake irq=%s irq_name=%s asleep_ms=%s awake_ms=%s sources=%s rtc=%s hw_sleep_ms=%s\n",
                irq, (irq_name != "" ? irq_name : "unavailable"), asleep, awake,
                (sources != "" ? sources : "none"), (rtc != "" ? rtc : "none"), hw
        }' "$@"
}

# suspend MODE WAKE SECONDS [VERB] — deep|s2idle|shallow; wake rtc (rtcwake) or external
# (qmp/button: the host wakes the board). VERB: enter the sleep through `systemctl VERB`
# (suspend, hybrid-sleep, suspend-then-hibernate) instead of writing /sys/power/state.
# Returns after resume with the kernel's result, then the wake accounting (wake_report).

cmd_suspend() {
    mode=$1 wake=$2 secs=$3 verb=${4:-}
    case $mode in
        deep|shallow) echo "$mode" >/sys/power/mem_sleep || { echo "error=mem_sleep mode=$mode"; return 1; }; state=mem ;;
        s2idle)  # pm_debug_messages: "PM: suspend-to-idle" tells the rig the board is asleep
            # (a KERN_DEBUG line: the console loglevel goes to 8 for this suspend)
            echo s2idle >/sys/power/mem_sleep 2>/dev/null; state=mem
            echo 1 >/sys/power/pm_debug_messages 2>/dev/null
            printk_saved=$(cut -f1 /proc/sys/kernel/printk); echo 8 >/proc/sys/kernel/printk ;;
        *) echo "error=bad-mode mode=$mode"; return 1 ;;
    esac
    before=$(cat /sys/power/suspend_stats/success 2>/dev/null || echo 0)
    rtcwake -m disable >/dev/null 2>&1          # a stale alarm would wake the next suspend at once
    presync_ms=0
    if [ "$wake" = rtc ]; then
        # The alarm counts from the moment it is armed. The pre-suspend sync and the freeze of
        # filesystems can take longer than the sleep (17-21 s measured on the QEMU board with fio
        # and the journal writers busy): the alarm then fires before the board is asleep and
        # nothing wakes it. Syncing first leaves the kernel little to write after arming.
        t0=$(uptime_ms); sync; presync_ms=$(( $(uptime_ms) - t0 ))
        rtcwake -m no -s "$secs" >/dev/null || { echo "error=rtcwake"; return 1; }
    fi
    timeline_clear
    start=$(date +%s)
    echo "rig-dut: suspend $mode wake=$wake${verb:+ via systemctl $verb}" >/dev/kmsg
    systemd=
    wake_mark
    if [ -n "$verb" ]; then
        if systemd=$(systemd_sleep "$verb"); then rc=0; else rc=1; fi
        systemd=" via=systemctl $systemd"
    elif echo "$state" >/sys/power/state; then rc=0; else rc=$?; fi
    woke=$(wake_report)
    after=$(cat /sys/power/suspend_stats/success 2>/dev/null || echo 0)
    echo 0 >/sys/power/pm_debug_messages 2>/dev/null
    [ -n "${printk_saved:-}" ] && echo "$printk_saved" >/proc/sys/kernel/printk
    echo "result=$rc successes=$((after - before)) slept_s=$(( $(date +%s) - start )) presync_ms=$presync_ms" \
         "last_failed_step=$(cat /sys/power/suspend_stats/last_failed_step 2>/dev/null | tr ' ' _)$systemd"
    echo "$woke"
}

# hibernate_mode MODE — make MODE the kernel's hibernation mode (/sys/power/disk), or say why not:
# a mode the kernel does not list is refused (error=mode-not-offered asked=MODE offered=...),
# never left to the kernel's own default, which mode= names (the bracketed word, as rig-dut left
# the file; on success the one MODE became). A hybrid sleep (suspend) suspends to RAM as
# mem_sleep says: deep, so that S3 is what the host sees.
hibernate_mode() {
    disk_file=${RIG_SYSFS:-/sys}/power/disk
    offered=$({ tr -d '[]\n' <"$disk_file"; } 2>/dev/null | tr -s ' ' ',')
    case ",$offered," in
        *",$1,"*) ;;
        *) echo "result=1 error=mode-not-offered asked=$1 $(kernel_disk_mode) offered=${offered:-none}"
           return 1 ;;
    esac
    echo "$1" >"$disk_file" 2>/dev/null ||
        { echo "result=1 error=mode-not-accepted asked=$1 $(kernel_disk_mode) offered=$offered"; return 1; }
    if [ "$1" = suspend ]; then
        echo deep >"${RIG_SYSFS:-/sys}/power/mem_sleep" 2>/dev/null ||
            { echo "result=1 error=mem_sleep asked=$1 $(kernel_disk_mode)"; return 1; }
    fi
    kernel_disk_mode
}
# "mode=WORD": the bracketed word of /sys/power/disk ("mode=" when there is none)
kernel_disk_mode() {
    echo "mode=$({ sed -n 's/.*\[\([a-z_]*\)\].*/\1/p' "${RIG_SYSFS:-/sys}/power/disk"; } 2>/dev/null)"
}

# hibernate [MODE] [systemctl] — write the image and do what MODE says (/sys/power/disk's words:
# shutdown, the default, platform, reboot, suspend, test_resume); the next boot restores it (or
# discards it with noresume); reboot: QEMU restarts the guest in place, as LAVA needs (-no-reboot:
# QEMU exits and the rig starts it again); suspend and test_resume come back without a boot.
# systemctl: through `systemctl hibernate` (its HibernateMode, the board's sleep.conf, decides).
cmd_hibernate() {
    disk=shutdown via=
    for arg in "$@"; do
        case $arg in
            shutdown|platform|reboot|suspend|test_resume) disk=$arg ;;
            systemctl) via=systemctl ;;
            *) echo "error=bad-argument arg=$arg"; return 1 ;;
        esac
    done
    chosen=$(hibernate_mode "$disk") || { echo "$chosen"; return 1; }
    timeline_clear
    echo "rig-dut: hibernate $disk${via:+ via systemctl}" >/dev/kmsg
    systemd=
    if [ -n "$via" ]; then
        if systemd=$(systemd_sleep hibernate); then rc=0; else rc=1; fi
        systemd=" via=systemctl $systemd"
    elif echo disk >/sys/power/state; then rc=0; else rc=$?; fi
    echo "result=$rc $chosen restored=1 boot_id=$(cat /proc/sys/kernel/random/boot_id)$systemd"
}

# pm-test LEVEL MODE — a suspend that stops at LEVEL (freezer, devices, platform, processors, core).
cmd_pm_test() {
    echo "$1" >/sys/power/pm_test || { echo "error=pm_test level=$1"; return 1; }
    cmd_suspend "$2" none 0
    echo none >/sys/power/pm_test
}

# fsfreeze NAME freeze|thaw|state — userspace freeze of one filesystem (owner semantics).
cmd_fsfreeze() {
    plain_name "$1" || { echo "error=bad-name"; return 1; }
    mnt=$(fs_lines | awk -v n="$1" '$1 == n {print $4}')
    [ -n "$mnt" ] || { echo "error=unknown-filesystem name=$1"; return 1; }
    case $2 in
        freeze) fsfreeze -f "$mnt" && echo "fs=$1 frozen=1" ;;
        thaw) fsfreeze -u "$mnt" && echo "fs=$1 frozen=0" ;;
        state)  # a write to a frozen filesystem blocks: probe it from a child with a deadline
            ( : >"$mnt/.rig-probe" ) & p=$!
            sleep 1
            if kill -0 "$p" 2>/dev/null; then echo "fs=$1 frozen=1"; else echo "fs=$1 frozen=0"; fi ;;
        *) echo "error=bad-action action=$2"; return 1 ;;
    esac
}

# journald_scan — the entries of every journald workload in the journal (all files, the
# *.journal~ ones journald renamed included), as a journal file's scan: valid_prefix (entries
# 1..N all there), records (entries there), holes (missing below the highest), first_problem
# (the first missing one below the highest). Line: journal=FS/journald <scan> id=ID.
# (RIG_JOURNAL_DIR: another journal directory, for workloads/tests/rig-dut-journald.sh.)
journald_scan() {
    dir=${RIG_JOURNAL_DIR:-/var/log/journal}
    command -v journalctl >/dev/null && [ -d "$dir" ] || return 0
    journalctl --directory="$dir" -F RIG_ID 2>/dev/null | while read -r id; do
        journalctl --directory="$dir" --output=cat --no-pager "RIG_ID=$id" 2>/dev/null |
            awk -v id="$id" '
                $1 == "rig-jd" && $2 == "id=" id && $3 ~ /^seq=[0-9]+$/ {
                    s = substr($3, 5) + 0; if (!(s in seen)) { seen[s] = 1; present++ }
                    if (s > max) max = s
                }
                END {
                    prefix = 0; while ((prefix + 1) in seen) prefix++
                    fs = id; sub(/-[^-]*$/, "", fs)
                    printf "journal=%s/journald valid_prefix=%d records=%d torn=0 corrupt=0 holes=%d first_problem=%d id=%s\n",
                           fs, prefix, present, max - present, prefix < max ? prefix + 1 : 0, id
                }'
    done
}

# journal_verify DIR BOOT_S — journalctl --verify over each journal file in DIR, one by one. A
# file journald set aside (*.journal~) before BOOT_S was damaged by an earlier power-off (a
# previous run's, or `rig boot`'s power-off of the board), not by the cycle being judged: it is
# counted apart (earlier), never as this cycle's damage. journald renames the file a power cut
# left open at the first boot after the cut, so the cut being judged shows as a file renamed
# (ctime) since BOOT_S. Prints "files=N bad_files=N bad_earlier=N renamed=N", then one
# "FAIL: FILE (reason)" line per file bad this boot.
journal_verify() {
    files=0 bad=0 earlier=0 renamed=0 fails=""
    for f in $(find "$1" \( -name '*.journal' -o -name '*.journal~' \) | sort); do
        files=$((files + 1))
        set_aside_before=0
        case $f in *'~')
            if [ "$(stat -c %Z "$f")" -ge "$2" ]; then renamed=$((renamed + 1)); else set_aside_before=1; fi ;;
        esac
        verify_out=$(journalctl --verify --file="$f" 2>&1) && continue
        if [ $set_aside_before = 1 ]; then
            earlier=$((earlier + 1))
        else
            bad=$((bad + 1))
            fails="$fails$(echo "$verify_out" | grep -m1 '^FAIL' || echo "FAIL: $f")
"
        fi
    done
    echo "files=$files bad_files=$bad bad_earlier=$earlier renamed=$renamed"
    printf '%s' "$fails"
}

# journald-check — journald's own view of its journal after a boot: its complaints this boot
# (corrupted, truncated or uncleanly closed files) with what it said, then, with journald sent
# back to /run for a moment so that no file is being written, journal_verify over every file on
# the journal's filesystem.
cmd_journald_check() {
    command -v journalctl >/dev/null || { echo "error=no-journald"; return 1; }
    mnt=$(fs_lines | awk -v n="${RIG_JOURNAL_FS:-}" '$1 == n {print $4}')
    [ -n "$mnt" ] && [ -d "$mnt/journal" ] || { echo "error=no-persistent-journal"; return 1; }
    said=$( { journalctl -b --no-pager --output=cat -t systemd-journald 2>/dev/null; dmesg 2>/dev/null; } |
        grep -iE 'corrupt|truncat|uncleanly|renaming and replacing|Failed to (open|write)' | sort -u)
    journal_release
    boot_s=$(( $(date +%s) - $(cut -d. -f1 /proc/uptime) - 1 ))
    out=$(journal_verify "$mnt/journal" "$boot_s")
    journal_hold
    counts=$(echo "$out" | sed -n 1p)
    bad=$(echo "$counts" | sed 's/.*bad_files=\([0-9]*\).*/\1/')
    complaints=$(echo "$said" | grep -c .)
    corrupt=$(echo "$said" | grep -ciE 'corrupt(ed)? (journal|file)|truncat|bad message')
    echo "journald verify=$([ "$bad" -eq 0 ] && echo pass || echo fail) $counts" \
         "complaints=$complaints corrupt_complaints=$corrupt"
    echo "$out" | grep '^FAIL' | head -n 5 | sed 's/^/journald verify_output: /'
    echo "$said" | grep . | head -n 5 | cut -c1-200 | sed 's/^/journald said: /'
}

# verify — after a reboot: every journal file scanned (valid prefix, torn, corrupt, holes and the
# writer id its records carry). The rig judges no-loss against the acknowledgements it saw.
# Lines: journal=NAME/MODE <journal-verify's line>; on a systemd board, journald's entries too
# (journald_scan).
cmd_verify() {
    fs_lines | while read -r name type dev mnt; do
        for mode in mmap write; do
            if [ ! -f "$mnt/journal-$mode.dat" ]; then
                # On a mounted filesystem a missing file is evidence (a writer's file lost with
                # its creation); the judge reads it only for a writer that was acknowledged.
                grep -q " $mnt " /proc/mounts && echo "journal=$name/$mode gone=1"
                continue
            fi
            echo "journal=$name/$mode $(journal-verify "$mnt/journal-$mode.dat" 2>&1 | tr '\n' ' ')"
        done
        [ -d "$mnt/meta" ] && echo "journal=$name/meta $(meta-verify "$mnt/meta" 2>&1 | tr '\n' ' ')"

    done
    journald_scan
}

# journal_release / journal_hold — on a systemd board journald keeps its persistent journal open
# on $RIG_JOURNAL_FS: release sends it back to /run for the fsck, hold brings it back (the same
# as rig-storage does at boot).
journal_release() {
    mountpoint -q /var/log/journal 2>/dev/null || return 0
    journalctl --relinquish-var 2>/dev/null
    umount /var/log/journal 2>/dev/null
}

journal_hold() {
    mnt=$(fs_lines | awk -v n="${RIG_JOURNAL_FS:-}" '$1 == n {print $4}')
    [ -n "$mnt" ] && command -v journalctl >/dev/null && grep -q " $mnt " /proc/mounts || return 0
    mountpoint -q /var/log/journal || mount --bind "$mnt/journal" /var/log/journal
    journalctl --flush 2>/dev/null
}

cmd_fsck() {
    journal_release
    fs_lines | tac | while read -r name type dev mnt; do
        src=$(awk -v m="$mnt" '$2 == m {print $1}' /proc/mounts)
        umount "$mnt" 2>/dev/null || { echo "fs=$name fsck=skipped reason=busy"; continue; }
        case $type in
            ext4) out=$(e2fsck -fn "$src" 2>&1); rc=$? ;;
            xfs) out=$(xfs_repair -n "$src" 2>&1); rc=$? ;;
            btrfs) out=$(btrfs check --readonly "$src" 2>&1); rc=$? ;;
            *) rc=0 ;;
        esac
        echo "fs=$name fsck_rc=$rc"
        [ $rc -eq 0 ] || echo "$out" | tail -n 5 | sed "s/^/fs=$name fsck_output: /"
        # a loop device keeps its image file (and the filesystem holding it) busy
        [ -b "$dev" ] || losetup -d "$src" 2>/dev/null
    done
    fs_lines | while read -r name type dev mnt; do
        grep -q " $mnt " /proc/mounts && continue
        src=$dev; [ -b "$dev" ] || src=$(losetup -f --show "$dev")
        mount -t "$type" "$src" "$mnt" || echo "fs=$name remount=failed"
    done
    journal_hold
}

case ${1:-help} in
    info) cmd_info ;;
    knob) shift; cmd_knob "$@" ;;
    trace-setup) shift; cmd_trace_setup "$@" ;;
    trace-read) cmd_trace_read ;;
    timeline-setup) cmd_timeline_setup ;;
    timeline-read) shift; cmd_timeline_read "$@" ;;
    start-workloads) shift; cmd_start_workloads "$@" ;;
    stop-workloads) cmd_stop_workloads ;;
    fio-checkpoint) cmd_fio_checkpoint ;;
    fio-verify) shift; cmd_fio_verify "$@" ;;
    alive) cmd_alive ;;
    klog) shift; cmd_klog "$@" ;;
    stall-ops) cmd_stall_ops ;;
    collect) shift; cmd_collect "$@" ;;
    suspend) shift; cmd_suspend "$@" ;;
    hibernate) shift; cmd_hibernate "$@" ;;
    pm-test) shift; cmd_pm_test "$@" ;;
    fsfreeze) shift; cmd_fsfreeze "$@" ;;
    verify) cmd_verify ;;
    journald-check) cmd_journald_check ;;
    fsck) cmd_fsck ;;
    help|*) sed -n '2,6p' "$0"; grep -o '^    [a-z-]*)' "$0" | tr -d ' )' | tr '\n' ' '; echo ;;
esac
