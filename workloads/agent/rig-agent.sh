#!/bin/sh
# rig-agent — the board side of the rig's console protocol (host side: rig/console/agent.h).
# Runs on the board's console in place of a login shell; POSIX sh, busybox ash compatible.
#
#   on start        @@RIG@@ agent ready
#   host request    @@RIG? <seq> <base64 of a shell command>
#   reply           @@RIG@@ <seq> begin
#                   @@RIG@@ <seq> | <output line>          (stdout and stderr, in order)
#                   @@RIG@@ <seq> end rc=<rc> lines=<n> crc=<POSIX cksum of the output lines>
#   bad request     @@RIG@@ <seq> error <why>
#   resend          @@RIG! <seq>   (the host's console was unplugged meanwhile): the last reply
#                   again if it was <seq>'s, else "@@RIG@@ <seq> error no reply to resend"
# Any other line is run as a plain shell command, so a person on `rig console` can type.
#
# rig-agent --record COMMAND... runs one command and prints the request and the reply exactly as
# the agent would have exchanged them with the rig (seq from $RIG_AGENT_TMP/record.seq): a LAVA
# test definition records its evidence this way, and `rig lava import` reads the records from
# the job's log with the rig's own reply parser.
#
# Output is normalised before it is sent: control bytes other than TAB become '?' (a CR would
# end a console line early, an ESC would start a terminal sequence) and a missing final newline
# is added; lines and crc describe exactly the text sent, one "line\n" per output line, so the
# host can tell when a kernel message landed inside a reply and corrupted it.
#
# Environment: RIG_AGENT_TMP (default /tmp), RIG_AGENT_CKSUM=awk forces the awk CRC.

marker='@@RIG@@'
request='@@RIG? '
resend='@@RIG! '
prompt='rig# '
tmp=${RIG_AGENT_TMP:-/tmp}
raw=$tmp/rig-agent.$$.raw
out=$tmp/rig-agent.$$.out
last=$tmp/rig-agent.$$.last

# POSIX cksum CRC over `od -tu1` bytes. Debian's busybox has no cksum applet; busybox awk does
# have the bit functions (so does gawk; mawk does not, but such boards have cksum). Values stay
# below 2^32 so awk's doubles hold them exactly.
# shellcheck disable=SC2016 # an awk program, not shell
crc_awk='
BEGIN {
    for (i = 0; i < 256; i++) {
        c = lshift(i, 24)
        for (j = 0; j < 8; j++)
            c = and(c, 2147483648) ? xor(and(lshift(c, 1), 4294967295), 79764919) \
                                   : and(lshift(c, 1), 4294967295)
        t[i] = c
    }
    crc = 0; n = 0
}
{
    for (i = 1; i <= NF; i++) {
        crc = xor(and(lshift(crc, 8), 4294967295), t[xor(rshift(crc, 24), $i)]); n++
    }
}
END {
    for (len = n; len > 0; len = int(len / 256))
        crc = xor(and(lshift(crc, 8), 4294967295), t[xor(rshift(crc, 24), len % 256)])
    printf "%.0f\n", xor(crc, 4294967295)
}'

# The CRC of file $1 into $crc. Every process counts: under TCG a fork and exec of busybox costs
# tens of milliseconds, and every command the rig sends pays for them.
checksum() {
    if [ "${RIG_AGENT_CKSUM:-auto}" != awk ] && command -v cksum >/dev/null 2>&1; then
        crc=$(cksum <"$1")
        crc=${crc%% *}
    else
        crc=$(od -An -v -tu1 "$1" | awk "$crc_awk")
    fi
}

# The reply to request seq: cmd run, its output framed, counted and checksummed. One awk frames
# and counts the lines and writes the reply both to the console and to $last (for a resend).
# shellcheck disable=SC2016 # an awk program, not shell
frame_awk='
BEGIN { print head; print head > last }
{ line = prefix $0; print line; print line > last }
END { tail = end " lines=" NR " crc=" crc; print tail; print tail > last; close(last) }'
reply() {
    seq=$1 cmd=$2
    sh -c "$cmd" </dev/null >"$raw" 2>&1
    rc=$?
    tr '\000-\010\013-\037\177' '?' <"$raw" | awk '{ print }' >"$out"
    checksum "$out"
    awk -v head="$marker $seq begin" -v prefix="$marker $seq | " -v end="$marker $seq end rc=$rc" \
        -v crc="$crc" -v last="$last" "$frame_awk" "$out"
    last_seq=$seq
}

resend_reply() {
    [ -n "$show_prompt" ] && echo
    if [ -n "$last_seq" ] && [ "$1" = "$last_seq" ] && [ -f "$last" ]; then
        cat "$last"
    else
        printf '%s %s error no reply to resend\n' "$marker" "$1"
    fi
}

run_request() {
    seq=$1
    case $seq in ''|*[!0-9]*) return ;; esac
    # The prompt may already sit on the line (a request typed ahead is echoed before it):
    # every reply starts on a line of its own.
    [ -n "$show_prompt" ] && echo
    if ! cmd=$(printf '%s\n' "$2" | base64 -d 2>/dev/null) || [ -z "$cmd" ]; then
        printf '%s %s error bad base64\n' "$marker" "$seq"
        return
    fi
    reply "$seq" "$cmd"
}

# --record: one request as if the rig had sent it, and its reply. The reply's rc is the exit
# status, so a test definition can still act on it.
record() {
    cmd="$*"
    n=$(cat "$tmp/record.seq" 2>/dev/null || echo 0)
    case $n in ''|*[!0-9]*) n=0 ;; esac
    n=$((n + 1))
    echo "$n" >"$tmp/record.seq"
    printf '%s%s %s\n' "$request" "$n" "$(printf '%s' "$cmd" | base64 | tr -d '\n')"
    show_prompt=
    reply "$n" "$cmd"
    return "$rc"
}

# Ctrl-C ends the running command, not the agent (a trap, not an ignore, so children still
# get the default action).
interrupted=
trap 'interrupted=1' INT
trap 'rm -f "$raw" "$out" "$last"' EXIT
last_seq=

if [ "${1:-}" = --record ]; then
    shift
    [ $# -gt 0 ] || { echo "usage: rig-agent --record COMMAND..." >&2; exit 2; }
    record "$@"
    exit $?
fi
if [ -t 0 ]; then
    # Known line discipline: echo on (it also ends the request line before the reply),
    # canonical input, CR->NL in, NL->CRNL out.
    stty sane 2>/dev/null
    show_prompt=1
else
    show_prompt=
fi
set -f
printf '%s agent ready\n' "$marker"
while :; do
    [ -n "$show_prompt" ] && printf '%s' "$prompt"
    interrupted=
    if ! IFS= read -r line; then
        if [ -n "$interrupted" ]; then
            interrupted=
            echo
            continue
        fi
        exit 0
    fi
    line=${line%"$(printf '\r')"}
    case $line in
        "$request"*)
            # shellcheck disable=SC2086 # split "<seq> <base64>" (globbing is off: set -f)
            set -- ${line#"$request"}
            run_request "$1" "$2"
            ;;
        "$resend"*)
            resend_reply "${line#"$resend"}"
            ;;
        '') ;;
        *) sh -c "$line" ;;
    esac
done
