#!/bin/bash
# rig-dut's scan of journald's entries (journald_scan in workloads/agent/rig-dut.sh, part of
# `rig-dut verify` on a systemd board) over a stand-in journalctl: the line it prints is a journal
# file's scan the rig's judge reads with jv_parse (rig/tests/unit/test_judge.c judges this line).
# No board, no systemd; under a second.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

journalctl() {
    case "$*" in
        *"-F RIG_ID"*) printf 'nvme-ext4-j1a\nnvme-ext4-j2b\n' ;;
        *RIG_ID=nvme-ext4-j1a*)       # 4 lost (journald set 5 and 6 aside in a *.journal~), 3 twice
            for s in 1 2 3 5 6 3; do echo "rig-jd id=nvme-ext4-j1a seq=$s"; done
            echo "rig-jd id=nvme-ext4-j1a seq=x"; echo "something else" ;;
        *RIG_ID=nvme-ext4-j2b*) for s in 1 2; do echo "rig-jd id=nvme-ext4-j2b seq=$s"; done ;;
    esac
}
eval "$(sed -n '/^journald_scan() {/,/^}/p' workloads/agent/rig-dut.sh)"
RIG_JOURNAL_DIR=$(mktemp -d)
trap 'rmdir "$RIG_JOURNAL_DIR"' EXIT

out=$(journald_scan)
check_eq "a hole: the entries up to it, the first missing one, the highest" "$(echo "$out" | sed -n 1p)" \
    "journal=nvme-ext4/journald valid_prefix=3 records=5 torn=0 corrupt=0 holes=1 first_problem=4 id=nvme-ext4-j1a"
check_eq "all there: no problem" "$(echo "$out" | sed -n 2p)" \
    "journal=nvme-ext4/journald valid_prefix=2 records=2 torn=0 corrupt=0 holes=0 first_problem=0 id=nvme-ext4-j2b"
check_eq "no journal directory: nothing" "$(RIG_JOURNAL_DIR=/nonexistent journald_scan)" ""

# journal_verify: each file verified on its own; damage set aside before this boot is apart.
# The stand-in journalctl fails every file whose name holds "bad".
journalctl() {
    local args="$*"
    case $args in
        *--verify*--file=*bad*) echo "FAIL: ${args##*--file=} (Bad message)"; return 1 ;;
        *--verify*--file=*) echo "PASS: ${args##*--file=}" ;;
    esac
}
eval "$(sed -n '/^journal_verify() {/,/^}/p' workloads/agent/rig-dut.sh)"
jdir=$(mktemp -d)
trap 'rm -rf "$jdir"; rmdir "$RIG_JOURNAL_DIR"' EXIT
: >"$jdir/system.journal"; : >"$jdir/system@1-bad.journal~"; : >"$jdir/system@2.journal~"
now=$(date +%s)
out=$(journal_verify "$jdir" $((now - 100)))
check_eq "set aside this boot and bad: this cycle's damage" "$(echo "$out" | sed -n 1p)" \
    "files=3 bad_files=1 bad_earlier=0 renamed=2"
check_eq "the bad file named with journalctl's reason" "$(echo "$out" | sed -n 2p)" \
    "FAIL: $jdir/system@1-bad.journal~ (Bad message)"
out=$(journal_verify "$jdir" $((now + 100)))
check_eq "set aside before this boot and bad: an earlier power-off's, apart" "$out" \
    "files=3 bad_files=0 bad_earlier=1 renamed=0"
: >"$jdir/user-bad.journal"
out=$(journal_verify "$jdir" $((now + 100)))
check_eq "an open journal file that is bad is always this boot's" "$(echo "$out" | sed -n 1p)" \
    "files=4 bad_files=1 bad_earlier=1 renamed=0"

finish workloads/tests/rig-dut-journald.sh
