/* LAVA jobs in the results: one run per (server, job id). */
#include "results/db_internal.h"

int results_lava_run_find(struct results_db *db, const char *server, const char *job_id,
			  int64_t *run_id, int *exit_code, struct rig_err *err)
{
	struct results_binder b = { 0 };
	int ret, rc;

	*run_id = 0;
	*exit_code = 0;
	if (results_db_prepare(db, "SELECT id, ifnull(exit_code, 0) FROM runs WHERE lava_job_id = :job"
			       " AND ifnull(lava_server, '') = ifnull(:server, '')", &b.stmt, err))
		return -1;
	results_bind_text(&b, ":job", job_id);
	results_bind_text(&b, ":server", server);
	ret = results_bind_check(db, &b, "find LAVA job", err);
	if (ret == 0) {
		rc = sqlite3_step(b.stmt);
		if (rc == SQLITE_ROW) {
			*run_id = sqlite3_column_int64(b.stmt, 0);
			*exit_code = sqlite3_column_int(b.stmt, 1);
		}
		else if (rc != SQLITE_DONE)
			ret = results_db_fail(db, "find LAVA job", err);
	}
	sqlite3_finalize(b.stmt);
	return ret;
}
