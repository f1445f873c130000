/* A run's cycles as bisect evidence: one letter per cycle (rig bisect, bisect/driver.h). */
#ifndef RIG_RESULTS_OUTCOMES_H
#define RIG_RESULTS_OUTCOMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results/db.h"

/*
 * buf gets one letter per cycle of run_id, by cycle index: P passed, F a verdict failed that no
 * known issue explains, H hang, I infrastructure error or aborted (no evidence). With
 * known_fails, a verdict that failed on a known issue makes the cycle F too (to bisect a known
 * issue itself). Fails with RIG_EXIT_INFRA when buf cannot hold every cycle.
 */
int results_run_outcomes(struct results_db *db, int64_t run_id, bool known_fails, char *buf,
			 size_t size, struct rig_err *err);

/* One cycle-making step of the plan a bisect runs: its step_format() text, as stored in
 * cycles.step_desc, and the knobs it runs at (RESULTS_KNOB_UNKNOWN: the plan leaves the knob
 * alone, any value matches). */
struct results_history_step {
	const char *desc;
	enum results_knob knob_freeze_filesystems;
	enum results_knob knob_sync_on_suspend;
};

/* The bad kernel's earlier cycles that rig bisect may take as prior evidence about p. */
struct results_history_query {
	const char *board;                 /* runs.board */
	const char *kernel_sha;            /* the git commit the kernel was built from: runs.kernel_sha
					    * (meta.json git_sha); builds with a quilt series
					    * applied on top are another kernel and never match */
	const struct results_history_step *steps;
	size_t n_steps;
	bool known_fails;                  /* as results_run_outcomes() */
};

#define RESULTS_HISTORY_RUNS 8
#define RESULTS_HISTORY_MAX_CYCLES 100000   /* rig bisect --bad-history's bound too */

struct results_history {
	int fails, cycles;                 /* usable cycles (P, F, H) and the F or H among them */
	int n_runs;                        /* runs that gave at least one usable cycle */
	int64_t runs[RESULTS_HISTORY_RUNS];   /* the newest of them, newest first */
	char kernel_version[128];          /* the newest such run's; "" unknown */
};

/* Sum the usable cycles of q's kernel on q's board whose step and knobs are one of q's steps,
 * over every run in the database: the newest RESULTS_HISTORY_MAX_CYCLES of them. */
int results_bad_history(struct results_db *db, const struct results_history_query *q,
			struct results_history *out, struct rig_err *err);

#endif
