/* The QEMU command line a board file describes (pure: builds strings, touches nothing). */
#ifndef RIG_POWER_QEMU_ARGS_H
#define RIG_POWER_QEMU_ARGS_H

#include <stddef.h>

#include "config/board.h"
#include "util/err.h"

struct qemu_argv {
	char **argv;   /* NULL-terminated, ready for execvp() */
	size_t argc;
	size_t cap;
};

/* Where QEMU's QMP socket lives: power.qemu.qmp, else <run_dir>/qmp.sock. */
int qemu_qmp_path(const struct board *board, const char *run_dir, char *buf, size_t size,
		  struct rig_err *err);
/* Build argv: QEMU starts with CPUs stopped (-S). */
int qemu_build_argv(const struct board *board, const char *run_dir, struct qemu_argv *out,
		    struct rig_err *err);
void qemu_argv_free(struct qemu_argv *args);
/* Append one argument, printf-formatted. */
int qemu_argv_add(struct qemu_argv *args, struct rig_err *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Create every missing disk image, sparse, at its size_mb (and its directory). */
int qemu_create_disks(const struct board_qemu *qemu, struct rig_err *err);

#endif
