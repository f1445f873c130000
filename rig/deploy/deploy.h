/* Deploying the kernel under test to a board, whatever carries it there (boards/README.md,
 * deploy:).  Before every power-on the session hands the backend the kernel, initrd, device tree
 * and the whole command line of that boot (the board's, with --append, plus what a step asks
 * for: noresume); the backend puts them where the board boots them from:
 *   qemu     QEMU loads them itself (-kernel/-initrd/-append: power/qemu_args.c reads board->boot)
 *   tftp     files and a boot configuration (iPXE, PXELINUX, extlinux) in the lab's TFTP root
 *   command  the lab's own script (a flasher, a labgrid strategy), with a deadline
 *   none     the board boots what it has: nothing the rig chooses can reach it, so plans,
 *            options and bisects that need it are refused (deploy_can_*), never ignored.
 * Every function returns 0, or -1 with err: RIG_EXIT_INFRA when the machinery failed, RIG_EXIT_USAGE
 * when the board cannot do what is asked. */
#ifndef RIG_DEPLOY_DEPLOY_H
#define RIG_DEPLOY_DEPLOY_H

#include <stdbool.h>

#include "config/board.h"
#include "util/err.h"

struct deploy_request {
	const char *kernel;    /* image file; NULL only for a qemu board without boot.kernel */
	const char *initrd;    /* may be NULL */
	const char *dtb;       /* may be NULL */
	const char *cmdline;   /* the whole command line of this boot */
};

struct deploy;

struct deploy_ops {
	const char *name;
	bool sets_kernel;      /* boots a kernel the rig chooses (--kernel, rig bisect) */
	bool sets_cmdline;     /* sets the command line (--append, hibernate resume: no) */
	int (*prepare)(struct deploy *d, const struct deploy_request *req, struct rig_err *err);
};

struct deploy {
	const struct deploy_ops *ops;
	const struct board *board;
	char log_path[600];    /* <run>/deploy.log: what the backends did and said */
	unsigned generation;   /* boots prepared so far (tftp names its files by it) */
};

/* The backend for a name (board->deploy.backend); NULL when there is none. */
const struct deploy_ops *deploy_ops_find(const char *name);
/* Can this board's deploy boot a kernel the rig chooses / set its command line? */
bool deploy_can_set_kernel(const struct board *board);
bool deploy_can_set_cmdline(const struct board *board);

int deploy_open(const struct board *board, const char *run_dir, struct deploy **out,
		struct rig_err *err);
void deploy_close(struct deploy *d);

/* The board's command line plus extra (may be NULL), blanks collapsed to single spaces; a
 * control character other than a blank is refused (RIG_EXIT_USAGE: it would break a boot
 * configuration). Caller frees *out. */
int deploy_cmdline(const char *board_cmdline, const char *extra, char **out, struct rig_err *err);

/* The whole command line of a boot: the board's, each filesystem's mount options as
 * rig.mountopts.NAME=OPTIONS (the image mounts with them: image/storage.sh), then extra (may be
 * NULL). Caller frees *out. */
int deploy_boot_cmdline(const struct board *board, const char *extra, char **out,
			struct rig_err *err);

/* Deploy the board's kernel, initrd and dtb with its command line plus extra_cmdline (may be
 * NULL) for the next boot.  A backend that cannot set the command line refuses a non-empty
 * extra_cmdline. */
int deploy_prepare(struct deploy *d, const char *extra_cmdline, struct rig_err *err);

/* Backends (one file each). */
extern const struct deploy_ops deploy_qemu_ops, deploy_tftp_ops, deploy_command_ops,
	deploy_none_ops;

#endif
