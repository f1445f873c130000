#!/usr/bin/env bash
# Boot a series kernel (make kernel KERNEL=NAME, out/kernel-NAME) on boards/qemu.yaml once and
# suspend it at knob 0 right after the boot: the series path tested for real, not on a synthetic
# tree. For kthread-freezer-removal (kernel/series/kthread-freezer-removal/README.md): the
# filesystems' kernel threads must come up not freezable (PF_NOFREEZE in /proc/PID/stat's flags;
# tests/kernel/boot.sh checks the default kernel's xfsaild is freezable: the negative control), and
# that suspend must succeed (on the default kernel ext4lazyinit aborts it on some boots).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. tests/lib.sh
rig=${RIG:-out/bin/rig}
name=${1:-kthread-freezer-removal}
kdir=out/kernel-$name
log=$(mktemp)
trap 'rm -f "$log"' EXIT
[ -f "$kdir/meta.json" ] || { echo "series.sh: $kdir missing (make kernel KERNEL=$name)"; exit 2; }
version=$(jq -r .version "$kdir/meta.json")

check "meta.json names the series ($name)" [ "$(jq -r .series_name "$kdir/meta.json")" = "$name" ]
check "meta.json: the base has the freeze series merged" [ "$(jq -r .freeze_series "$kdir/meta.json")" = merged ]
check "the series kernel is not the default one" [ "$(jq -r .id "$kdir/meta.json")" != "$(jq -r .id out/kernel/meta.json)" ]

. tests/kernel/kthread-flags.sh
start=$(date +%s.%N)
"$rig" boot --board qemu --kernel "$kdir" \
    --exec 'rig-dut info' \
    --exec "$kthread_flags" \
    --exec 'rig-dut knob freeze_filesystems 0' \
    --exec 'rig-dut suspend deep rtc 2' \
    --exec 'dmesg | grep -E "Freezing remaining freezable tasks|refusing to freeze|PM: suspend (entry|exit)"' \
    >"$log" 2>&1
rc=$?
elapsed=$(echo "$(date +%s.%N) - $start" | bc)
cat "$log"
check "rig boot --kernel $kdir exits 0" [ "$rc" -eq 0 ]
check "the board runs the series kernel ($version)" has "$log" "^kernel=$version "
check "xfsaild is not freezable (PF_NOFREEZE set)" has "$log" "^kthread=xfsaild/sda1 .*nofreeze=1$"
check "neither xfsaild nor ext4lazyinit (when still running) is freezable" \
    bash -c "! grep -Eq '^kthread=(xfsaild|ext4lazyinit)[^ ]* .*nofreeze=0$' '$log'"
check "knob set to 0" has "$log" "knob=freeze_filesystems value=0"
check "knob-0 suspend right after the boot succeeded" has "$log" "^result=0 successes=1 "
check "no task refused to freeze" bash -c "! grep -v '^\\$ ' '$log' | grep -q 'refusing to freeze'"
echo "# series boot + knob-0 suspend took ${elapsed}s (TCG)"
finish "series kernel $name on boards/qemu.yaml"
