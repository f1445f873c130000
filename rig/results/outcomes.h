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

#endif
