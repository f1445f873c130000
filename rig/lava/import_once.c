/* One run per LAVA job, stored in one transaction. */
#include "lava/import.h"

#include <string.h>

int lava_import_once(struct results_db *db, const struct lava_cases *cases,
		     const struct lava_import_info *info, struct lava_import_outcome *out,
		     struct rig_err *err)
{
	memset(out, 0, sizeof(*out));
	/* The batch holds the write lock from the lookup to the commit: two importers of one job
	 * cannot both find it missing. */
	if (results_batch_begin(db, err))
		return -1;
	if (info->lava_job_id &&
	    results_lava_run_find(db, info->lava_server, info->lava_job_id, &out->run_id,
				  &out->exit_code, err))
		goto fail;
	if (out->run_id) {
		out->already = 1;
		results_batch_rollback(db);
		return 0;
	}
	if (lava_import(db, cases, info, &out->run_id, &out->exit_code, err))
		goto fail;
	return results_batch_commit(db, err);
fail:
	results_batch_rollback(db);
	return -1;
}
