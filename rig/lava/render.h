/* `rig lava render`: one LAVA job (YAML text) for a board and a plan, from the templates in
 * jobs/templates/ and the test definitions in jobs/test-definitions/ (embedded inline). */
#ifndef RIG_LAVA_RENDER_H
#define RIG_LAVA_RENDER_H

#include <stddef.h>

#include "config/board.h"
#include "config/plan.h"
#include "util/err.h"

struct lava_render_opts {
	const char *jobs_dir;        /* holds templates/ and tests/ */
	const char *kernel_url;      /* file:// or http(s):// */
	const char *initrd_url;
	const char *env_url;         /* jobs/image/rig-lava-env.sh, added to the QEMU initramfs */
	const char *night;           /* YYYY-MM-DD */
	const char *kernel_version;  /* from the build's meta.json; "unknown" when absent */
	const char *kernel_sha;
	const char *s_id_offset;     /* offsetof(struct super_block, s_id) for the kprobes; "" = unknown */
	const char *job_name;        /* NULL: "rig <board> <plan> <night>" */
};

/* The kernel command line LAVA boots: the board's, without "quiet", with the console options the
 * rig needs (added when missing), rig.lava=1 (an image that knows it starts a shell instead of
 * its agent), for the QEMU board rdinit=/bin/sh ENV=/etc/rig-lava.sh (its image does not know),
 * and noresume when asked. Caller frees. */
int lava_kernel_cmdline(const char *board_cmdline, int noresume, int qemu_shell, char **out,
			struct rig_err *err);

/* Render the job into *yaml (caller frees). */
int lava_render_job(const struct board *board, const struct plan *plan,
		    const struct lava_render_opts *opts, char **yaml, struct rig_err *err);

struct lava_kernel_facts {
	char version[128];     /* "unknown" when the build has no meta.json */
	char sha[128];         /* git_sha, else the build id */
	char s_id_offset[24];  /* offsets."super_block.s_id", "" when absent */
};

/* What a kernel build's meta.json says. A missing file gives "unknown"; a malformed one is an error. */
int lava_kernel_meta(const char *meta_path, struct lava_kernel_facts *facts, struct rig_err *err);

#endif
