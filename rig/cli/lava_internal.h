/* Shared by the `rig lava` sources (cli/lava*.c) only. */
#ifndef RIG_CLI_LAVA_INTERNAL_H
#define RIG_CLI_LAVA_INTERNAL_H

#include <stdio.h>

#include "lava/cases.h"
#include "util/err.h"

struct lava_args {
	const char *board, *plan, *out_dir, *kernel, *initrd, *night, *jobs;
	const char *db, *log, *rest, *job_id;
	const char *server, *token_file, *job, *since, *device, *page_size, *timeout, *poll;
	const char *known;
	int help, no_wait, follow;
};

/* The job text `rig lava render` would write for a->board and a->plan; name = "<board>-<plan>". */
int lava_cli_render(const struct lava_args *a, char **yaml, char *name, size_t name_size,
		    struct rig_err *err);

struct lava_import_info;

/* Store one job's cases in a->db (once per server and job id) and say so on out. info names the
 * job (job id, server, origin, what it was rendered for); its board defaults to a->board.
 * *code: the run's exit code (0 pass, 1 fail, 3 no cycle ran). */
int lava_cli_store(const struct lava_args *a, const struct lava_cases *cases,
		   const struct lava_import_info *info, FILE *out, int *code, struct rig_err *err);

/* rig lava submit; rig lava import --server (--job N | --since DATE). Return the exit code. */
int lava_cmd_submit(const struct lava_args *a, FILE *out, struct rig_err *err);
int lava_cmd_import_server(const struct lava_args *a, FILE *out, struct rig_err *err);

#endif
