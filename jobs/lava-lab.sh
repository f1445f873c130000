#!/usr/bin/env bash
# jobs/lava-lab.sh — a whole LAVA lab on this host: Debian's lava-server 2023.01 on PostgreSQL 15,
# the scheduler, the event publisher and a lava-worker connected to it, everything on localhost
# (API on LAVA_LAB_PORT, 8000; events on the next port and on 5500); the rig's QEMU board
# registered as device qemu-rig (jobs/devices/qemu-rig.jinja2, extending the server's own qemu
# device type); a user "rig" with an API token for `rig lava submit` / `rig lava import`.
#
#   jobs/lava-lab.sh up       install what is missing, configure, start; idempotent (make lava-lab)
#   jobs/lava-lab.sh down     stop the daemons this script started (make lava-lab-down)
#   jobs/lava-lab.sh status   what runs, the URL, the worker's and the device's state
#   jobs/lava-lab.sh purge    down, then drop the database, the lab's configuration and token
#
# Needs root. With systemd as PID 1 the daemons are the packages' own units, configured through
# /etc/lava-server/lava-server-gunicorn and /etc/lava-dispatcher/lava-worker; without it (a CI
# container) the script starts the same commands itself with start-stop-daemon and pid files.
#
# Environment: LAVA_LAB_PORT (8000), LAVA_LAB_DIR (/var/lib/suspend-rig/lava-lab: token, pid
# files, logs), LAVA_LAB_DISKS (/var/lib/lava/rig/qemu-rig: the board's sparse disks),
# LAVA_LAB_NO_INSTALL=1 (fail instead of installing packages), RIG (out/bin/rig: the worker's
# QEMU runs under `rig lock --board qemu`), LAVA_LAB_LOCK_WAIT (180 s: how long a job's QEMU waits
# for a board `rig run` holds before the job is refused; keep it well under the 5 min boot timeout),
# LAVA_LAB_LOCK_DIR (the board locks' directory, as RIG_LOCK_DIR; default rig's own).
# After `up`: $LAVA_LAB_DIR/rig.token holds the rig's token, $LAVA_LAB_DIR/env sets
# RIG_LAVA_SERVER and RIG_LAVA_TOKEN_FILE, which `rig lava submit/import` read.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
PORT=${LAVA_LAB_PORT:-8000}
LAB=${LAVA_LAB_DIR:-/var/lib/suspend-rig/lava-lab}
DISKS=${LAVA_LAB_DISKS:-/var/lib/lava/rig/qemu-rig}
URL="http://localhost:$PORT"
WORKER=rig-lab-worker
DEVICE=qemu-rig
DEVICE_TYPE=qemu
PG_VERSION=15
PACKAGES=(postgresql lava-server lava-dispatcher lavacli curl)
DEVICES_DIR=/etc/lava-server/dispatcher-config/devices
EVENT_PORT=${LAVA_LAB_EVENT_PORT:-5500}
PUBLISHER_PORT=$((PORT + 1))
SETTINGS_CHANGED=0
RIG=${RIG:-$top/out/bin/rig}
LOCK_WAIT=${LAVA_LAB_LOCK_WAIT:-180}
QEMU_LOCKED=/usr/local/lib/suspend-rig/qemu-rig-locked
LOGS=/var/log/lava-server
WORKER_TOKEN=
RIG_TOKEN=

say() { printf 'lava-lab: %s\n' "$*"; }
die() { printf 'lava-lab: %s\n' "$*" >&2; exit 1; }
with_systemd() { [ -d /run/systemd/system ]; }
stamp() { date +%s.%N; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

install_packages() {
    local missing=() p
    for p in "${PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    [ "${LAVA_LAB_NO_INSTALL:-0}" = 1 ] && die "missing packages: ${missing[*]} (LAVA_LAB_NO_INSTALL=1)"
    say "installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >"$LAB/apt.log" 2>&1 ||
        { tail -n 30 "$LAB/apt.log" >&2; die "apt-get install failed (log: $LAB/apt.log)"; }
}

start_postgres() {
    if pg_isready -q -h localhost 2>/dev/null; then return 0; fi
    if with_systemd; then
        systemctl start postgresql
    else
        pg_ctlcluster "$PG_VERSION" main start
        touch "$LAB/postgres-started"
    fi
    for _ in $(seq 1 100); do pg_isready -q -h localhost && return 0; sleep 0.2; done
    die "PostgreSQL $PG_VERSION did not come up (pg_lsclusters; /var/log/postgresql/)"
}

run_register() {
    LAB_WORKER=$WORKER LAB_DEVICE=$DEVICE LAB_DEVICE_TYPE=$DEVICE_TYPE LAB_USER=rig \
        lava-server manage shell -c "$(cat "$top/jobs/lava-lab-register.py")" 2>"$LAB/register.log" | tail -n 1
}

json_field() {
    python3 -c 'import json, sys
v = json.loads(sys.stdin.read() or "{}").get(sys.argv[1], "")
print(", ".join(v) if isinstance(v, list) else v)' "$1"
}

# Database and role: lava-server's own postinst (idempotent, ~40 s), run only when the schema is
# not current. Then worker, device type, device, the rig's user and token, in one Django process
# (jobs/lava-lab-register.py: one start instead of ~3 s per `lava-server manage` call).
register() {
    local json added
    if [ -f /etc/lava-server/settings.d/00-database.yaml ]; then
        json=$(run_register) || { cat "$LAB/register.log" >&2; die "registration failed"; }
    else
        json='{"migrate": true}'
    fi
    if [ "$(json_field migrate <<<"$json")" = True ]; then
        say "creating and migrating the lavaserver database"
        /usr/bin/python3 /usr/share/lava-server/postinst.py >"$LAB/postinst.log" 2>&1 ||
            { tail -n 30 "$LAB/postinst.log" >&2; die "lava-server postinst.py failed"; }
        json=$(run_register) || { cat "$LAB/register.log" >&2; die "registration failed"; }
    fi
    added=$(json_field added <<<"$json")
    [ -z "$added" ] || say "added: $added"
    WORKER_TOKEN=$(json_field worker_token <<<"$json")
    RIG_TOKEN=$(json_field rig_token <<<"$json")
    [ -n "$WORKER_TOKEN" ] && [ -n "$RIG_TOKEN" ] ||
        { cat "$LAB/register.log" >&2; die "no tokens from the registration: $json"; }
}

# The board's dictionary is the project's file with one line added before it: QEMU is started
# through a wrapper that holds the board's lock (`rig lock`), as `rig run` does. The server renders
# it with its own device-type template, as jobs/render-device.py does for the checks. Its disks
# are sparse files on the worker, partitioned and formatted by the board's /init on first boot.
install_device() {
    local rig_abs
    rig_abs=$(readlink -f "$RIG")
    [ -x "$rig_abs" ] || die "$RIG missing: make rig first (or RIG=...)"
    mkdir -p "$(dirname "$QEMU_LOCKED")"
    printf '%s\n' '#!/bin/sh' \
        "# Written by suspend-rig jobs/lava-lab.sh: LAVA's qemu boot method runs this instead of" \
        "# qemu-system-x86_64 for device $DEVICE: the job's QEMU holds board qemu as rig run does." \
        ${LAVA_LAB_LOCK_DIR:+"export RIG_LOCK_DIR='$LAVA_LAB_LOCK_DIR'"} \
        "exec $rig_abs lock --board qemu --wait $LOCK_WAIT -- qemu-system-x86_64 \"\$@\"" \
        >"$QEMU_LOCKED.tmp"
    chmod 755 "$QEMU_LOCKED.tmp"
    mv "$QEMU_LOCKED.tmp" "$QEMU_LOCKED"
    { printf "{%% set rig_qemu_command = '%s' %%}\n" "$QEMU_LOCKED"
      cat "$top/jobs/devices/$DEVICE.jinja2"; } >"$DEVICES_DIR/$DEVICE.jinja2.tmp"
    chown lavaserver:lavaserver "$DEVICES_DIR/$DEVICE.jinja2.tmp"
    mv "$DEVICES_DIR/$DEVICE.jinja2.tmp" "$DEVICES_DIR/$DEVICE.jinja2"
    mkdir -p "$DISKS"
    [ -f "$DISKS/qemu-nvme.img" ] || truncate -s 1024M "$DISKS/qemu-nvme.img"
    [ -f "$DISKS/qemu-sata.img" ] || truncate -s 1536M "$DISKS/qemu-sata.img"
}

# The rig's account: $LAB/rig.token (0600) and $LAB/env for `rig lava`; lavacli gets the same
# identity (lavacli -i rig-lab jobs list).
write_rig_env() {
    (umask 077; printf '%s\n' "$RIG_TOKEN" >"$LAB/rig.token")
    printf 'RIG_LAVA_SERVER=%s\nRIG_LAVA_TOKEN_FILE=%s\n' "$URL" "$LAB/rig.token" >"$LAB/env"
    lavacli identities add --uri "$URL/RPC2" --username rig --token "$RIG_TOKEN" rig-lab >/dev/null 2>&1 || true
}

# Events: the scheduler hears of a new job at once instead of on its next 20 s poll, and the
# worker of a scheduled job through the publisher's websocket instead of its next ping. Returns
# 0 when the settings changed (the daemons that read them must restart).
write_settings() {
    local f=/etc/lava-server/settings.d/01-suspend-rig-lab.yaml
    printf '%s\n' "# Written by suspend-rig jobs/lava-lab.sh: event notification, on localhost only." \
        "EVENT_NOTIFICATION: true" "EVENT_SOCKET: \"tcp://127.0.0.1:$EVENT_PORT\"" >"$f.tmp"
    chown lavaserver:lavaserver "$f.tmp"
    chmod 640 "$f.tmp"
    if cmp -s "$f.tmp" "$f"; then rm -f "$f.tmp"; return 1; fi
    mv "$f.tmp" "$f"
    return 0
}

# The daemons' configuration, in the files the packages' systemd units read.
write_config() {
    cat >/etc/lava-server/lava-server-gunicorn <<EOF
# Written by suspend-rig jobs/lava-lab.sh: the lab's web UI and API, on localhost only.
LOGLEVEL="INFO"
WORKERS=2
BIND="--bind 127.0.0.1:$PORT"
TIMEOUT="--timeout 120"
EOF
    printf '%s\n' "# Written by suspend-rig jobs/lava-lab.sh: events on localhost only." \
        "HOST=\"127.0.0.1\"" "PORT=$PUBLISHER_PORT" >/etc/lava-server/lava-publisher
    (umask 077; cat >/etc/lava-dispatcher/lava-worker <<EOF
# Written by suspend-rig jobs/lava-lab.sh: the worker of the local lab.
WORKER_NAME="--name $WORKER"
LOGLEVEL="INFO"
URL="$URL/"
TOKEN="--token $WORKER_TOKEN"
WS_URL="--ws-url http://localhost:$PUBLISHER_PORT/ws/"
EOF
    )
}

pidfile() { echo "$LAB/$1.pid"; }

running() {
    local pf; pf=$(pidfile "$1")
    [ -f "$pf" ] && kill -0 "$(cat "$pf")" 2>/dev/null
}

# start_daemon NAME LOG COMMAND...: a daemon in its own session with a pid file (idempotent)
start_daemon() {
    local name=$1 log=$2; shift 2
    running "$name" && return 0
    start-stop-daemon --start --background --make-pidfile --pidfile "$(pidfile "$name")" \
        --output "$log" --startas "$1" -- "${@:2}"
}

stop_daemon() {
    local pf; pf=$(pidfile "$1")
    [ -f "$pf" ] || return 0
    start-stop-daemon --stop --pidfile "$pf" --remove-pidfile --retry TERM/20/KILL/5 --oknodo >/dev/null
}

start_server() {
    if with_systemd; then
        systemctl restart lava-publisher lava-server-gunicorn lava-scheduler
        return 0
    fi
    if [ "$SETTINGS_CHANGED" = 1 ]; then
        stop_daemon scheduler
        stop_daemon gunicorn
        stop_daemon publisher
    fi
    start_daemon publisher "$LOGS/lava-publisher.out" /usr/bin/lava-server manage lava-publisher \
        --level INFO --log-file "$LOGS/lava-publisher.log" --host 127.0.0.1 --port "$PUBLISHER_PORT"
    start_daemon gunicorn "$LOGS/gunicorn.out" /usr/bin/gunicorn3 lava_server.wsgi \
        --log-level INFO --log-file "$LOGS/gunicorn.log" -u lavaserver -g lavaserver \
        --worker-class eventlet --workers 2 --bind "127.0.0.1:$PORT" --timeout 120
    start_daemon scheduler "$LOGS/lava-scheduler.out" /usr/bin/lava-server manage lava-scheduler \
        --level INFO --log-file "$LOGS/lava-scheduler.log" --event-url "tcp://127.0.0.1:$EVENT_PORT"
}

wait_api() {
    for _ in $(seq 1 300); do
        curl -fsS -o /dev/null "$URL/api/v0.2/system/version/" 2>/dev/null && return 0
        sleep 0.2
    done
    tail -n 20 "$LOGS/gunicorn.log" >&2 || true
    die "the API at $URL did not answer in 60 s (log: $LOGS/gunicorn.log)"
}

# The worker pings every 5 s (LAVA's default 20 s): a submitted job starts sooner.
start_worker() {
    if with_systemd; then
        systemctl restart lava-worker
        return 0
    fi
    [ "$SETTINGS_CHANGED" = 0 ] || stop_daemon worker
    start_daemon worker "$LAB/lava-worker.out" /usr/bin/lava-worker --level INFO --name "$WORKER" \
        --url "$URL/" --token "$WORKER_TOKEN" --ws-url "http://localhost:$PUBLISHER_PORT/ws/" \
        --ping-interval 5 \
        --log-file /var/log/lava-dispatcher/lava-worker.log
}

api_state() {
    curl -fsS "$URL/api/v0.2/$1/" 2>/dev/null |
        python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["state"], d["health"])' 2>/dev/null
}

wait_worker_online() {
    for _ in $(seq 1 120); do
        [ "$(api_state "workers/$WORKER")" = "Online Active" ] && return 0
        sleep 0.5
    done
    tail -n 20 /var/log/lava-dispatcher/lava-worker.log >&2 || true
    die "worker $WORKER did not come online in 60 s (log: /var/log/lava-dispatcher/lava-worker.log)"
}

up() {
    local t0 t1
    t0=$(stamp)
    mkdir -p "$LAB" "$LOGS" /var/log/lava-dispatcher
    chmod 700 "$LAB"
    install_packages
    t1=$(stamp)
    start_postgres
    register
    install_device
    write_rig_env
    if write_settings; then SETTINGS_CHANGED=1; fi
    write_config
    start_server
    wait_api
    start_worker
    wait_worker_online
    say "up: $URL (worker $WORKER: $(api_state "workers/$WORKER"); device $DEVICE: $(api_state "devices/$DEVICE"))"
    say "install $(seconds "$t0" "$t1") s, start $(seconds "$t1" "$(stamp)") s"
    say "token: $LAB/rig.token; environment for rig: $LAB/env"
}

down() {
    if with_systemd; then
        systemctl stop lava-worker lava-scheduler lava-server-gunicorn lava-publisher 2>/dev/null || true
    fi
    stop_daemon worker
    stop_daemon scheduler
    stop_daemon gunicorn
    stop_daemon publisher
    # PostgreSQL is stopped only if this script started it.
    if [ -f "$LAB/postgres-started" ]; then
        pg_ctlcluster "$PG_VERSION" main stop 2>/dev/null || true
        rm -f "$LAB/postgres-started"
    fi
    say "down"
}

status() {
    local d
    for d in publisher gunicorn scheduler worker; do
        if running "$d"; then say "$d: running (pid $(cat "$(pidfile "$d")"))"; else say "$d: not running"; fi
    done
    say "api $URL: $(curl -fsS "$URL/api/v0.2/system/version/" 2>/dev/null || echo 'no answer')"
    say "worker $WORKER: $(api_state "workers/$WORKER" || true)"
    say "device $DEVICE: $(api_state "devices/$DEVICE" || true)"
}

purge() {
    down
    if pg_ctlcluster "$PG_VERSION" main start 2>/dev/null || pg_isready -q -h localhost; then
        # the role too: postinst.py keeps a role that exists, with its old password
        su postgres -c "psql -q -c 'DROP DATABASE IF EXISTS lavaserver' -c 'DROP ROLE IF EXISTS lavaserver'" || true
        pg_ctlcluster "$PG_VERSION" main stop 2>/dev/null || true
    fi
    rm -f /etc/lava-server/settings.d/00-database.yaml /etc/lava-server/settings.d/01-suspend-rig-lab.yaml \
        "$DEVICES_DIR/$DEVICE.jinja2"
    rm -rf "$LAB" "$DISKS"
    say "purged (the packages stay installed)"
}

usage() { sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; }

case "${1:-}" in
    -h|--help|help) usage; exit 0 ;;
esac
[ "$(id -u)" = 0 ] || die "needs root"
case "${1:-}" in
    up) up ;;
    down) down ;;
    status) status ;;
    purge) purge ;;
    *) usage >&2; exit 2 ;;
esac
