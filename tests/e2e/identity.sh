#!/usr/bin/env bash
# The kernel under test is the kernel judged (boards/README.md, deploy:), on boards/qemu.yaml:
#   positive: a run's every boot -- the first, and the noresume boot that discards a hibernation
#     image -- reports the release and GNU build-id of out/kernel/meta.json; the run and its
#     cycles record that build-id; the noresume boot's kernel really got noresume.
#   a hibernation image the run did not write (left in the swap) is discarded by its first boot.
#   negative control: the same kernel held to another build's meta.json (a copy whose build-id
#     differs, as a TFTP root or a disk left holding a stale kernel would look) is an
#     infrastructure failure, exit 3, naming both kernels, with no cycle judged.
# About 3 minutes under TCG. Needs make rig kernel image.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. tests/lib.sh
rig=out/bin/rig
work=$(mktemp -d)
db=$work/results.db
trap 'rm -rf "$work"' EXIT
export RIG_LOCK_DIR=$work/locks
meta=out/kernel/meta.json
version=$(jq -r .version "$meta")
build_id=$(jq -r .build_id "$meta")
id=$(jq -r .id "$meta")

check "meta.json: the release ends in -rig-<build id> ($version)" [ "${version%-rig-"$id"}" != "$version" ]
check "meta.json: a GNU build-id ($build_id)" has <(echo "$build_id") '^[0-9a-f]{40}$'
check "meta.json: the build-id is vmlinux's" has <(readelf -n out/kernel/vmlinux) "Build ID: $build_id\$"

# --- positive: every boot is the deployed kernel -----------------------------------------------
"$rig" run --board qemu --plan tests/e2e/plans/identity.yaml --db "$db" >"$work/ok.log" 2>&1
rc=$?
run_dir=$(run_dir "$work/ok.log")
run_id=$(sql "$db" "SELECT max(id) FROM runs")
[ "$rc" -eq 0 ] || show_run "$work/ok.log" ok
check "positive: rig run exits 0" [ "$rc" -eq 0 ]
check "positive: two boots, each the deployed kernel" \
    [ "$(grep -c "board: kernel $version build-id $build_id (the deployed one)" "$work/ok.log")" -ge 2 ]
check "positive: the run records the build-id" [ "$(sql "$db" "SELECT kernel_build_id FROM runs WHERE id=$run_id")" = "$build_id" ]
check "positive: the run records the deploy backend" [ "$(sql "$db" "SELECT deploy FROM runs WHERE id=$run_id")" = qemu ]
check "positive: every cycle records the build-id" \
    [ "$(sql "$db" "SELECT count(*) FROM cycles WHERE run_id=$run_id AND kernel_build_id='$build_id'")" -eq 2 ]
# The run's first boot gets noresume too (an image the run did not write is discarded, below):
# the discarding boot is the second kernel command line with it.
check "positive: the discarding boot's kernel got noresume (and the first boot's)" \
    [ "$(grep -c 'Kernel command line: .* noresume' "$run_dir/console.log")" -ge 2 ]

# --- an image the run did not write: its first boot discards it ----------------------------------
# A hibernation image left in the swap, as a run interrupted after writing one leaves it (the
# hibernating command never answers: rig boot's exit is not the point). The next run's first boot
# must discard it (noresume) rather than restore it and never reach the agent.
"$rig" boot --board qemu --timeout 60 \
    --exec 'echo shutdown >/sys/power/disk && echo disk >/sys/power/state' >"$work/leave.log" 2>&1
leave_console=$(sed -n 's/.*console log: //p' "$work/leave.log" | tail -n 1)
check "stale image: a hibernation image was written and left in the swap" \
    has "$leave_console" 'PM: Image saving done'
"$rig" run --board qemu --plan tests/e2e/plans/identity.yaml --db "$db" >"$work/stale-image.log" 2>&1
rc=$?
stale_dir=$(run_dir "$work/stale-image.log")
[ "$rc" -eq 0 ] || show_run "$work/stale-image.log" stale-image
check "stale image: the next run exits 0" [ "$rc" -eq 0 ]
check "stale image: its first boot discarded the image" \
    has "$stale_dir/console.log" 'noresume: discarding the hibernation image'
check "stale image: nothing was restored" lacks "$stale_dir/console.log" 'resuming from /dev/'
run_id=$(sql "$db" "SELECT max(id) FROM runs")

# --- negative control: a stale kernel (another build's meta.json) ------------------------------
stale=$(printf '%s' "$build_id" | tr '0-9a-f' '1-9a-f0')
jq --arg b "$stale" '.build_id = $b' "$meta" >"$work/stale-meta.json"
"$rig" run --board qemu --plan tests/e2e/plans/identity.yaml --db "$db" \
    --kernel-meta "$work/stale-meta.json" >"$work/stale.log" 2>&1
rc=$?
check "stale kernel: rig run exits 3" [ "$rc" -eq 3 ]
check "stale kernel: the error names both kernels" \
    has "$work/stale.log" "wrong kernel: the board runs kernel $version build-id $build_id, not the deployed $version build-id $stale"
check "stale kernel: no cycle judged on it" \
    [ "$(sql "$db" "SELECT count(*) FROM cycles WHERE run_id > $run_id")" -eq 0 ]
[ "$rc" -eq 3 ] || show_run "$work/stale.log" stale 20

finish "identity e2e"
