/* Recording a bisect (rig bisect) in the results database: the search and each tested commit. */
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

#endif
