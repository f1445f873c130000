/* Inserting a cycle's rows, inside a transaction the caller owns (results/ sources only). */
#ifndef RIG_RESULTS_CYCLE_WRITE_H
#define RIG_RESULTS_CYCLE_WRITE_H

#include "results/db_internal.h"

/*
 * Insert the cycle and all its items, storing status rather than cycle->status so an aborted run
 * can record its cycle in flight as aborted without touching the engine's struct.
 */
int results_cycle_write(struct results_db *db, const struct results_cycle *cycle,
			enum results_cycle_status status, int64_t *cycle_id, struct rig_err *err);
/* cycle_id 0 = an artefact of the whole run. */
int results_artefact_write(struct results_db *db, int64_t run_id, int64_t cycle_id,
			   const struct results_artefact *artefact, struct rig_err *err);

#endif
