/*
 * The bisect loop against real kernels: ask the flake-aware search (bisect.h) which commit to
 * test, build it, run the plan's cycles on it, feed every cycle's outcome back, until one commit
 * holds the confidence or the evidence runs out. Building and testing are behind an ops struct
 * (rig bisect's are kernel/build.sh and the cycle engine; the unit tests use fakes).
 */
#ifndef RIG_BISECT_DRIVER_H
#define RIG_BISECT_DRIVER_H

#include <stddef.h>

#include "bisect/bisect.h"
#include "bisect/history.h"
#include "util/err.h"

/* One character per cycle, in the order the cycles ran. */
enum bisect_cycle_outcome {
	OUTCOME_PASS = 'P',
	OUTCOME_FAIL = 'F',      /* a verdict failed that no known issue explains */
	OUTCOME_HANG = 'H',
	OUTCOME_UNUSABLE = 'I',  /* infrastructure error or aborted: no evidence either way */
};

#define DRIVER_MAX_OUTCOMES 256
#define DRIVER_TOP 3

struct bisect_step_report {
	int step;                       /* 0-based */
	int commit;                     /* index into the history */
	const struct history_commit *c;
	const char *outcomes;           /* "PPHP"; "" when nothing ran */
	const char *note;               /* "build failed", "no usable cycle", ... or NULL */
	int cycles_total;               /* observations so far, whole bisect */
	double fail_rate;               /* posterior mean of p after this step */
	int n_top;
	int top[DRIVER_TOP];            /* most probable culprits, best first */
	double top_p[DRIVER_TOP];
};

struct bisect_driver_ops {
	/* Build commit c: 0 and its artefact path, 1 when it does not build (the commit is then
	 * skipped, never called bad), -1 to stop the bisect (err says why). */
	int (*build)(void *ctx, const struct history_commit *c, char *artefact, size_t size,
		     struct rig_err *err);
	/* Run the cycles of one step on a built commit: outcomes gets one enum bisect_cycle_outcome
	 * per cycle, NUL-terminated. -1 stops the bisect (interrupted, board unusable). */
	int (*test)(void *ctx, const struct history_commit *c, const char *artefact, char *outcomes,
		    size_t size, struct rig_err *err);
	/* After every step: record it (text log, results database). -1 stops the bisect. */
	int (*step_done)(void *ctx, const struct bisect_step_report *step, struct rig_err *err);
};

struct bisect_driver_params {
	double confidence;              /* e.g. 0.95 */
	double q;                       /* per-cycle failure rate of good commits (false alarms) */
	double fail_rate;               /* 0: estimate p; else the known per-cycle rate of bad ones */
	int max_cycles;                 /* 0 = the search's default (1000) */
	int endpoint_fails;             /* failures of the bad endpoint wanted first (>= 1) */
	int unusable_tries;             /* steps without one usable cycle before a commit is skipped */
	/* Cycles of the bad commit already run (the runs that found the regression), fed to the
	 * search before it starts: free evidence about p. Not counted in max_cycles or cycles. */
	int history_fails, history_cycles;
};

struct bisect_driver_result {
	struct bisect_verdict verdict;
	int cycles, steps, builds;
};

/* A usage error for bad params; RIG_EXIT_INFRA from the ops, or when the bad endpoint cannot be
 * built or tested (nothing can be concluded without it). */
int bisect_drive(const struct history *h, const struct bisect_driver_params *params,
		 const struct bisect_driver_ops *ops, void *ctx, struct bisect_driver_result *res,
		 struct rig_err *err);

const char *bisect_status_name(enum bisect_status status);

#endif
