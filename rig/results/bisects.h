/* Bisects (rig bisect) in the results database: recording the search and each tested commit,
 * and reading them back for reports (bisects_read.c). */
#ifndef RIG_RESULTS_BISECTS_H
#define RIG_RESULTS_BISECTS_H

#include <stddef.h>
#include <stdint.h>

#include "results/db.h"

struct results_bisect_info {
	const char *board;        /* required */
	const char *plan;
	const char *good;         /* required: known good commit */
	const char *bad;          /* required: known bad commit */
	double confidence;        /* the posterior mass asked for, e.g. 0.95 */
};

struct results_bisect_step {
	int idx;                  /* 0-based step number */
	const char *commit;       /* required */
	int cycles;               /* cycles run on this commit in this step */
	int fails;
	const char *verdict;      /* free text: "good", "bad", "skip", ... */
	size_t n_top;             /* the most probable culprits after this step, best first */
	const char *const *top_commits;
	const double *top_probs;
};

int results_bisect_begin(struct results_db *db, const struct results_bisect_info *info,
			 int64_t *bisect_id, struct rig_err *err);
/* Stores the top culprits as posterior_top3 JSON: [{"commit": "...", "p": 0.81}, ...]. */
int results_bisect_add_step(struct results_db *db, int64_t bisect_id,
			    const struct results_bisect_step *step, struct rig_err *err);
/* status: "found", "range", "inconclusive", "aborted", ...; result_commit may be NULL. */
int results_bisect_end(struct results_db *db, int64_t bisect_id, const char *status,
		       const char *result_commit, double result_confidence, struct rig_err *err);

/* ---- reading (the dashboard) ------------------------------------------------------------ */

/* Reals are NAN for SQL NULL: confidence not given, no answer yet, still running. Strings are
 * valid during the callback only. */
struct results_bisect_row {
	int64_t id;
	const char *board, *plan, *good, *bad, *status, *result_commit;
	double confidence, result_confidence, started_at, ended_at;
};

#define RESULTS_BISECT_TOP 3

struct results_bisect_step_row {
	int64_t bisect_id;
	int idx, cycles, fails;
	const char *commit, *verdict;
	double at;
	/* the posterior's top culprits as stored; a malformed posterior reads as none */
	struct { const char *commit; double p; } top[RESULTS_BISECT_TOP];
	size_t n_top;
};

/* Every bisect by id; every step by bisect id, then idx. A non-zero callback answer stops the
 * walk and is returned. */
int results_each_bisect(struct results_db *db,
			int (*fn)(void *ctx, const struct results_bisect_row *row), void *ctx,
			struct rig_err *err);
int results_each_bisect_step(struct results_db *db,
			     int (*fn)(void *ctx, const struct results_bisect_step_row *row),
			     void *ctx, struct rig_err *err);

#endif
