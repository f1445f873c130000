/* What every rig command that works on a board needs: where the project and its outputs are,
 * the board file (by path or by name under boards/), and a run directory. */
#ifndef RIG_CLI_CONTEXT_H
#define RIG_CLI_CONTEXT_H

#include <limits.h>

#include "config/board.h"
#include "config/known.h"
#include "util/err.h"

struct cli_paths {
	char top[PATH_MAX];   /* $RIG_TOP, else the current directory */
	char out[PATH_MAX];   /* $OUT, else <top>/out */
	char run[PATH_MAX];   /* <out>/runs/<board>/<YYYYmmdd-HHMMSS>, created by cli_make_run_dir */
};

void cli_paths_init(struct cli_paths *p);
/* buf = dir/rel; a path too long for buf becomes "" (no such file) and -1 is returned. */
int cli_path(char *buf, size_t size, const char *dir, const char *rel);
/* "qemu" -> <top>/boards/qemu.yaml; anything with a '/' or ending in .yaml is a path. */
void cli_board_path(const struct cli_paths *p, const char *arg, char *buf, size_t size);
/* "plans/x.yaml" stays; "smoke" -> <top>/plans/smoke.yaml. */
void cli_plan_path(const struct cli_paths *p, const char *arg, char *buf, size_t size);
/* The board's short name from its argument: "boards/qemu.yaml" and "qemu" -> "qemu". */
void cli_board_name(const char *arg, char *buf, size_t size);
/* Create <out>/runs/<board>/<stamp> (and its parents) into p->run. */
int cli_make_run_dir(struct cli_paths *p, const char *board_name, struct rig_err *err);
/* The same under <out>/<kind>/ ("bisects"). */
int cli_make_stamped_dir(struct cli_paths *p, const char *kind, const char *board_name,
			 struct rig_err *err);
/* Known issues from arg (a file, or "none"), default known-issues/known-issues.yaml when it
 * exists; *out stays NULL for none. */
int cli_load_known(const struct cli_paths *p, const char *arg, struct known_issues **out,
		   struct rig_err *err);
/* Load the board named by arg with the placeholders of p. */
int cli_load_board(struct cli_paths *p, const char *arg, struct board **out, struct rig_err *err);
/* Refuse (RIG_EXIT_USAGE, naming what asked, the board file and its deploy backend) a kernel
 * or command line of rig's choosing on a board whose deploy cannot boot it. */
int cli_check_deploy(const struct board *board, const char *what, bool kernel, bool append,
		     struct rig_err *err);
/* --kernel DIR and --append ARGS (either may be NULL): boot DIR/bzImage, add ARGS to the
 * board's command line. */
int cli_override_boot(struct board *board, const char *kernel_dir, const char *append,
		      struct rig_err *err);
/* Print err to stderr as "rig: message" and return its exit class. */
int cli_fail(const struct rig_err *err);

#endif
