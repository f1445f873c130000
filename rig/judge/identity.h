/* Is the board running the kernel the rig deployed?  The kernel's identity as the build recorded
 * it (kernel/build.sh: meta.json "version" = the release, "build_id" = the GNU build-id of
 * vmlinux) against what the board reported after booting (rig-dut info: `uname -r` and the
 * build-id in /sys/kernel/notes). Pure: no board, no I/O. */
#ifndef RIG_JUDGE_IDENTITY_H
#define RIG_JUDGE_IDENTITY_H

#include <stddef.h>

#include "judge/evidence.h"

struct kernel_identity {
	char version[64];   /* the release, `uname -r` */
	char build_id[72];  /* hex */
};

/* 0 when both the release and the build-id match; -1 with why naming the expected and the
 * running kernel otherwise (a board that reports no build-id does not match). */
int identity_judge(const struct kernel_identity *want, const struct ev_identity *got, char *why,
		   size_t size);

/* meta.json's text to the identity it records; -1 with why when either field is missing or not
 * a string (a kernel built before kernel/build.sh recorded them). */
int identity_from_meta(const char *meta_json, struct kernel_identity *out, char *why, size_t size);

#endif
