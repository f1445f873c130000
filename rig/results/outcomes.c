#include "results/outcomes.h"

#include <string.h>

#include "results/db_internal.h"

static char letter(const char *status, int known_failures, bool known_fails)
{
	if (strcmp(status, "hang") == 0)
		return 'H';
	if (strcmp(status, "fail") == 0 || (known_fails && known_failures > 0))
		return 'F';
	if (strcmp(status, "pass") == 0)
		return 'P';
	return 'I';
}

int results_run_outcomes(struct results_db *db, int64_t run_id, bool known_fails, char *buf,
			 size_t size, struct rig_err *err)
{
	static const char sql[] =
		"SELECT c.status, (SELECT count(*) FROM verdicts v WHERE v.cycle_id = c.id"
		"                  AND v.result = 'fail' AND v.known_issue IS NOT NULL)"
		" FROM cycles c WHERE c.run_id = ?1 ORDER BY c.idx";
	sqlite3_stmt *stmt;
	size_t n = 0;
	int rc;

	if (size == 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "results: no room for outcomes");
	if (results_db_prepare(db, sql, &stmt, err))
		return -1;
	sqlite3_bind_int64(stmt, 1, run_id);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW && n + 1 < size)
		buf[n++] = letter((const char *)sqlite3_column_text(stmt, 0),
				  sqlite3_column_int(stmt, 1), known_fails);
	buf[n] = '\0';
	if (rc == SQLITE_ROW)
		rc = rig_err_set(err, RIG_EXIT_INFRA, "results: run %lld has more than %zu cycles",
				 (long long)run_id, size - 1);
	else
		rc = rc == SQLITE_DONE ? 0 : results_db_fail(db, "read cycle outcomes", err);
	sqlite3_finalize(stmt);
	return rc;
}
