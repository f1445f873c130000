/* The cycle engine: boots the board, starts the workloads, runs a plan's steps for N cycles,
 * collects the evidence of each (through the board client, dut.h, and the console), hands it to
 * the judge (judge/judge.h) and stores the verdicts, one transaction per cycle. */
#ifndef RIG_ENGINE_ENGINE_H
#define RIG_ENGINE_ENGINE_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

#include "config/board.h"
#include "config/plan.h"
#include "config/known.h"
#include "results/db.h"
#include "util/err.h"

struct engine_options {
	const char *run_dir;          /* console log, QEMU sockets */
	const char *kernel_meta_path; /* meta.json of the kernel under test, may be NULL */
	unsigned cycles;              /* 0 = the plan's */
	bool strict;                  /* known issues fail the run too */
	FILE *progress;               /* NULL = quiet */
	const struct known_issues *known; /* may be NULL */
	volatile sig_atomic_t *stop;  /* set by SIGINT/SIGTERM: end the run cleanly */
};

struct engine_verdict_count {
	char name[24];
	unsigned pass, fail, known, skip;
};

#define ENGINE_MAX_VERDICT_NAMES 24

struct engine_totals {
	struct engine_verdict_count by_verdict[ENGINE_MAX_VERDICT_NAMES];
	unsigned n_verdict_names;
	unsigned cycles, cycles_done;
	unsigned pass, fail, known, skip, hangs, infra;
	unsigned starved;             /* of the infra cycles: a hang, failure or unanswered board
				       * command host CPU starvation explained
				       * (engine/starvation.h) */
	int64_t run_id;
};

/* Run plan on board, storing into db. Returns the rig exit code (0 pass, 1 a verdict failed or a
 * hang, 3 infrastructure) and fills totals; err says why for 2 and 3. */
int engine_run(struct board *board, const struct plan *plan, struct results_db *db,
	       const struct engine_options *opts, struct engine_totals *totals, struct rig_err *err);

#endif
