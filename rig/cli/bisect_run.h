/* rig bisect: shared by its argument parsing (bisect_args.c), its build/test operations
 * (bisect_ops.c) and the command (bisect_run.c). Not a public interface. */
#ifndef RIG_CLI_BISECT_RUN_H
#define RIG_CLI_BISECT_RUN_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bisect/driver.h"
#include "cli/context.h"
#include "config/plan.h"
#include "config/known.h"
#include "results/db.h"

struct bisect_args {
	const char *board, *plan, *kernel_src, *good, *bad, *db, *known, *append, *build_cmd;
	struct bisect_driver_params params;
	unsigned cycles_per_step;     /* 0 = the plan's cycles */
	bool count_known, keep_trees, quiet, help;
	bool history_given;           /* --bad-history F/C */
	bool no_history;              /* --no-history */
};

struct bisect_session {
	const struct bisect_args *args;
	struct cli_paths paths;       /* paths.run: this bisect's directory */
	char dir[PATH_MAX];
	const struct plan *plan;
	const struct known_issues *known;
	struct results_db *db;
	int64_t bisect_id;
	FILE *log;                    /* <dir>/bisect.log */
	const struct history *history;
	int steps_started;            /* names the step run directories */
	volatile sig_atomic_t *stop;
};

extern const char bisect_usage[];

int bisect_parse_args(int argc, char **argv, struct bisect_args *a, struct rig_err *err);

/* Set a->params' history of the bad commit: --bad-history as given, none with --no-history,
 * else the bad commit's earlier cycles on this board at the plan's steps, read from s->db
 * (results_bad_history()). Says which on stdout and in the log. */
int bisect_load_prior(struct bisect_session *s, struct bisect_args *a, const char *board,
		      struct rig_err *err);

/* The ops rig bisect drives with: kernel/build.sh (or --build-cmd) and the cycle engine. */
extern const struct bisect_driver_ops bisect_rig_ops;

/* printf to stdout (unless quiet) and to the bisect log. */
void bisect_say(struct bisect_session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
