#include "results/outcomes.h"

#include <stdio.h>
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

static enum results_knob column_knob(sqlite3_stmt *stmt, int col)
{
	if (sqlite3_column_type(stmt, col) == SQLITE_NULL)
		return RESULTS_KNOB_UNKNOWN;
	return sqlite3_column_int(stmt, col) ? RESULTS_KNOB_ON : RESULTS_KNOB_OFF;
}

/* A plan knob left alone matches any value; a set one only the same value the kernel reported. */
static bool knob_matches(enum results_knob want, enum results_knob got)
{
	return want == RESULTS_KNOB_UNKNOWN || want == got;
}

static bool step_matches(const struct results_history_query *q, const char *desc,
			 enum results_knob ff, enum results_knob sos)
{
	for (size_t i = 0; desc && i < q->n_steps; i++) {
		const struct results_history_step *s = &q->steps[i];

		if (strcmp(s->desc, desc) == 0 && knob_matches(s->knob_freeze_filesystems, ff) &&
		    knob_matches(s->knob_sync_on_suspend, sos))
			return true;
	}
	return false;
}

/* Cycles come grouped by run, newest run first: a new run_id is a new contributing run. */
static void count_run(struct results_history *out, int64_t *last_run, int64_t run_id,
		      const char *version)
{
	if (run_id == *last_run)
		return;
	*last_run = run_id;
	if (out->n_runs == 0 && version)
		snprintf(out->kernel_version, sizeof(out->kernel_version), "%s", version);
	if (out->n_runs < RESULTS_HISTORY_RUNS)
		out->runs[out->n_runs] = run_id;
	out->n_runs++;
}

int results_bad_history(struct results_db *db, const struct results_history_query *q,
			struct results_history *out, struct rig_err *err)
{
	static const char sql[] =
		"SELECT c.run_id, c.status, (SELECT count(*) FROM verdicts v WHERE v.cycle_id = c.id"
		"                  AND v.result = 'fail' AND v.known_issue IS NOT NULL),"
		" c.step_desc, c.knob_freeze_filesystems, c.knob_sync_on_suspend, r.kernel_version"
		" FROM cycles c JOIN runs r ON r.id = c.run_id"
		" WHERE r.board = ?1 AND r.kernel_sha = ?2"
		"  AND (r.kernel_meta IS NULL OR json_extract(r.kernel_meta, '$.series') IS NULL)"
		" ORDER BY c.run_id DESC, c.idx DESC";
	sqlite3_stmt *stmt;
	int64_t last_run = -1;
	int rc = SQLITE_DONE;

	memset(out, 0, sizeof(*out));
	if (!q->board || !q->kernel_sha)
		return rig_err_set(err, RIG_EXIT_USAGE, "results: a history needs a board and a kernel");
	if (results_db_prepare(db, sql, &stmt, err))
		return -1;
	sqlite3_bind_text(stmt, 1, q->board, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 2, q->kernel_sha, -1, SQLITE_STATIC);
	while (out->cycles < RESULTS_HISTORY_MAX_CYCLES && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		char o = letter((const char *)sqlite3_column_text(stmt, 1), sqlite3_column_int(stmt, 2),
				q->known_fails);

		if (o == 'I' || !step_matches(q, (const char *)sqlite3_column_text(stmt, 3),
					      column_knob(stmt, 4), column_knob(stmt, 5)))
			continue;
		count_run(out, &last_run, sqlite3_column_int64(stmt, 0),
			  (const char *)sqlite3_column_text(stmt, 6));
		out->cycles++;
		out->fails += o != 'P';
	}
	if (out->cycles >= RESULTS_HISTORY_MAX_CYCLES)
		rc = SQLITE_DONE;
	rc = rc == SQLITE_DONE ? 0 : results_db_fail(db, "read the bad kernel's history", err);
	sqlite3_finalize(stmt);
	return rc;
}
