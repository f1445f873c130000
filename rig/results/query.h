/* Reading runs back out of the results database, as jansson values (rig results, dashboard). */
#ifndef RIG_RESULTS_QUERY_H
#define RIG_RESULTS_QUERY_H

#include <jansson.h>
#include <stdint.h>

#include "results/db.h"

struct results_run_filter {
	const char *board;   /* NULL = every board */
	int last;            /* the N most recent runs; 0 = all */
};

/*
 * JSON array of run objects, oldest first. Each holds every `runs` column (kernel_meta parsed as
 * JSON), plus n_cycles, n_cycles_failed (status not pass) and n_verdicts_failed.
 */
int results_query_runs(struct results_db *db, const struct results_run_filter *filter,
		       json_t **runs, struct rig_err *err);

/*
 * One run object as above, plus "cycles" (by idx, each with "verdicts" and "measurements") and
 * "artefacts". A missing run is a RIG_EXIT_USAGE error.
 */
int results_query_run(struct results_db *db, int64_t run_id, json_t **run, struct rig_err *err);

#endif
