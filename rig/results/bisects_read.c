/* Reading bisects and their steps back (the dashboard's bisect pages and lists). */
#include "results/bisects.h"

#include <math.h>

#include "results/db_internal.h"

static const char bisects_sql[] =
	"SELECT id, board, plan, good, bad, status, result_commit, confidence, result_confidence,"
	" started_at, ended_at FROM bisects ORDER BY id";

/* json_valid first: json_extract raises an error on malformed text, which would stop a report. */
static const char steps_sql[] =
	"SELECT bisect_id, idx, \"commit\", cycles, fails, verdict, at,"
	" json_extract(j, '$[0].commit'), json_extract(j, '$[0].p'),"
	" json_extract(j, '$[1].commit'), json_extract(j, '$[1].p'),"
	" json_extract(j, '$[2].commit'), json_extract(j, '$[2].p')"
	" FROM (SELECT *, CASE WHEN json_valid(posterior_top3) THEN posterior_top3 END AS j"
	"  FROM bisect_steps) ORDER BY bisect_id, idx";

#define STEP_TOP_COL 7

static const char *column_text(sqlite3_stmt *st, int col)
{
	return (const char *)sqlite3_column_text(st, col);
}

static double real(sqlite3_stmt *st, int col)
{
	return sqlite3_column_type(st, col) == SQLITE_NULL ? NAN : sqlite3_column_double(st, col);
}

/* The caller's callback and context, handed to the row readers. */
struct visit {
	int (*bisect)(void *ctx, const struct results_bisect_row *row);
	int (*step)(void *ctx, const struct results_bisect_step_row *row);
	void *ctx;
};

static int walk(struct results_db *db, const char *sql, const char *what,
		int (*row)(sqlite3_stmt *st, const void *ctx), const struct visit *v,
		struct rig_err *err)
{
	sqlite3_stmt *st;

	if (results_db_prepare(db, sql, &st, err))
		return -1;
	return results_db_each_row(db, st, what, row, v, err);
}

static int bisect_row(sqlite3_stmt *st, const void *ctx)
{
	const struct visit *v = ctx;
	struct results_bisect_row r = {
		.id = sqlite3_column_int64(st, 0),
		.board = column_text(st, 1), .plan = column_text(st, 2), .good = column_text(st, 3), .bad = column_text(st, 4),
		.status = column_text(st, 5), .result_commit = column_text(st, 6),
		.confidence = real(st, 7), .result_confidence = real(st, 8),
		.started_at = real(st, 9), .ended_at = real(st, 10),
	};

	return v->bisect(v->ctx, &r);
}

int results_each_bisect(struct results_db *db,
			int (*fn)(void *ctx, const struct results_bisect_row *row), void *ctx,
			struct rig_err *err)
{
	struct visit v = { .bisect = fn, .ctx = ctx };

	return walk(db, bisects_sql, "read bisects", bisect_row, &v, err);
}

static int step_row(sqlite3_stmt *st, const void *ctx)
{
	const struct visit *v = ctx;
	struct results_bisect_step_row r = {
		.bisect_id = sqlite3_column_int64(st, 0), .idx = sqlite3_column_int(st, 1),
		.commit = column_text(st, 2), .cycles = sqlite3_column_int(st, 3),
		.fails = sqlite3_column_int(st, 4), .verdict = column_text(st, 5), .at = real(st, 6),
	};

	/* the pairs present; a pair without a commit ends the list */
	for (int i = 0; i < RESULTS_BISECT_TOP; i++) {
		int col = STEP_TOP_COL + 2 * i;

		if (sqlite3_column_type(st, col) == SQLITE_NULL)
			break;
		r.top[i].commit = column_text(st, col);
		r.top[i].p = real(st, col + 1);
		r.n_top++;
	}
	return v->step(v->ctx, &r);
}

int results_each_bisect_step(struct results_db *db,
			     int (*fn)(void *ctx, const struct results_bisect_step_row *row),
			     void *ctx, struct rig_err *err)
{
	struct visit v = { .step = fn, .ctx = ctx };

	return walk(db, steps_sql, "read bisect steps", step_row, &v, err);
}
