#!/usr/bin/env bash
# offsets.sh OBJDIR — print struct offsets the rig's kprobes need, as JSON, e.g.
#   {"super_block.s_id": 1096}
# The kernels are built without debug info or BTF (faster builds), so a kprobe cannot name
# sb->s_id; this compiles a probe file with the exact flags Kbuild used for fs/super.c and reads
# the offsets back from the generated assembly, as the kernel's own asm-offsets does.
set -euo pipefail
obj=${1:?usage: offsets.sh OBJDIR}
cmdfile=$obj/fs/.super.o.cmd
[ -f "$cmdfile" ] || { echo "offsets: $cmdfile missing (build the kernel first)" >&2; exit 1; }
probe=$obj/rig-offsets.c
cat >"$probe" <<'C'
#include <linux/fs.h>
#include <linux/stddef.h>
#define RIG_OFFSET(name, type, member) \
	asm volatile("\n.ascii \"->RIG " name " %0\"" : : "i" (offsetof(type, member)))
void rig_offsets(void);
void rig_offsets(void)
{
	RIG_OFFSET("super_block.s_id", struct super_block, s_id);
}
C
cmd=$(sed -n 's/^savedcmd_fs\/super.o := //p' "$cmdfile")
cmd=${cmd/-Wp,-MMD,fs\/.super.o.d/}
cmd=${cmd/ -c -o fs\/super.o ..\/fs\/super.c/}
cmd=${cmd/ccache /}
(cd "$obj" && eval "$cmd -S -o rig-offsets.s rig-offsets.c") || { echo "offsets: probe compile failed" >&2; exit 1; }
grep -o -- '->RIG [a-z_.]* \$\?[0-9]*' "$obj/rig-offsets.s" |
    awk 'BEGIN { printf "{" } { gsub(/\$/, "", $3); printf "%s\"%s\": %s", (NR > 1 ? ", " : ""), $2, $3 } END { print "}" }'
