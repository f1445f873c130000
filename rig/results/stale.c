/* Runs left `running` by a rig that died without ending them (SIGKILL, a crash, a power loss of
 * the lab host): listed for the caller to judge (cli/stale.c asks the board lock) and ended. */
#include "results/db_internal.h"

#include <stdlib.h>
#include <string.h>

void results_running_free(struct results_running *list, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(list[i].board);
		free(list[i].host);
	}
	free(list);
}

static char *dup_column(sqlite3_stmt *st, int col)
{
	const char *s = (const char *)sqlite3_column_text(st, col);

	return strdup(s ? s : "");
}

int results_running_list(struct results_db *db, const char *board, struct results_running **out,
			 size_t *n_out, struct rig_err *err)
{
	struct results_binder b = { 0 };
	struct results_running *list = NULL, *grown;
	size_t n = 0;
	int rc, ret;

	*out = NULL;
	*n_out = 0;
	if (results_db_prepare(db, "SELECT id, board, host FROM runs WHERE status = 'running'"
			       " AND source = 'rig' AND (:board IS NULL OR board = :board) ORDER BY id",
			       &b.stmt, err))
		return -1;
	results_bind_text(&b, ":board", board);
	ret = results_bind_check(db, &b, "list running runs", err);
	while (ret == 0 && (rc = sqlite3_step(b.stmt)) == SQLITE_ROW) {
		if (!(grown = realloc(list, (n + 1) * sizeof(*list)))) {
			ret = rig_err_set(err, RIG_EXIT_INFRA, "results: out of memory");
			break;
		}
		list = grown;
		list[n] = (struct results_running){ .id = sqlite3_column_int64(b.stmt, 0),
						    .board = dup_column(b.stmt, 1),
						    .host = dup_column(b.stmt, 2) };
		if (!list[n].board || !list[n].host)
			ret = rig_err_set(err, RIG_EXIT_INFRA, "results: out of memory");
		n++;
	}
	if (ret == 0 && rc != SQLITE_DONE)
		ret = results_db_fail(db, "list running runs", err);
	sqlite3_finalize(b.stmt);
	if (ret) {
		results_running_free(list, n);
		return -1;
	}
	*out = list;
	*n_out = n;
	return 0;
}

int results_run_reconcile(struct results_db *db, int64_t run_id, int *changed, struct rig_err *err)
{
	struct results_binder b = { 0 };
	int ret;

	*changed = 0;
	/* exit_code stays NULL: the rig never said how it ended. Only a run still running: one
	 * that ended meanwhile keeps its own end. */
	if (results_db_prepare(db, "UPDATE runs SET status = 'aborted', ended_at = :now"
			       " WHERE id = :id AND status = 'running'", &b.stmt, err))
		return -1;
	results_bind_real(&b, ":now", results_now());
	results_bind_int64(&b, ":id", run_id);
	ret = results_bind_check(db, &b, "reconcile run", err);
	if (ret == 0)
		ret = results_db_step_done(db, b.stmt, "reconcile run", err);
	if (ret == 0)
		*changed = sqlite3_changes(db->sql) == 1;
	sqlite3_finalize(b.stmt);
	return ret;
}
