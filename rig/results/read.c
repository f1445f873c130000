/* The reports' queries: runs, nights, run details by ordered cursors, known-issue history. */
#include "results/read.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "results/db_internal.h"

int results_read_begin(struct results_db *db, struct rig_err *err)
{
	return results_db_exec(db, "BEGIN", err);
}

void results_read_end(struct results_db *db)
{
	if (!sqlite3_get_autocommit(db->sql))
		(void)sqlite3_exec(db->sql, "COMMIT", NULL, NULL, NULL);
}

static const char *column_text(sqlite3_stmt *st, int col)
{
	return (const char *)sqlite3_column_text(st, col);
}

/* NAN for SQL NULL. */
static double real(sqlite3_stmt *st, int col)
{
	return sqlite3_column_type(st, col) == SQLITE_NULL ? NAN : sqlite3_column_double(st, col);
}

static int knob(sqlite3_stmt *st, int col)
{
	return sqlite3_column_type(st, col) == SQLITE_NULL ? -1 : sqlite3_column_int(st, col);
}

/* The caller's callback and context, handed to the row readers. */
struct visit {
	results_run_fn run;
	results_text_fn each;
	void *ctx;
};

/* ---- runs and nights ------------------------------------------------------------------- */

/* %s: runs.lava_server, which a schema 1 database (a reader does not migrate) lacks. */
static const char runs_sql[] =
	"SELECT r.id, r.board, r.night, r.kernel_version, r.kernel_sha, r.plan, r.status,"
	" r.console_log, r.host, r.knob_freeze_filesystems, r.knob_sync_on_suspend, r.started_at,"
	" r.ended_at, COALESCE(c.n, 0), COALESCE(c.n_failed, 0), r.source, r.lava_job_id, %s,"
	" COALESCE(c.n_fail, 0), COALESCE(c.n_hang, 0), COALESCE(c.n_infra, 0)"
	" FROM runs r LEFT JOIN (SELECT run_id, count(*) AS n, sum(status <> 'pass') AS n_failed,"
	"  sum(status = 'fail') AS n_fail, sum(status = 'hang') AS n_hang,"
	"  sum(status = 'infra') AS n_infra FROM cycles GROUP BY run_id) c ON c.run_id = r.id"
	" ORDER BY r.board, r.started_at, r.id";

static int run_row(sqlite3_stmt *st, const void *ctx)
{
	const struct visit *v = ctx;
	struct results_run_row r = {
		.id = sqlite3_column_int64(st, 0),
		.board = column_text(st, 1), .night = column_text(st, 2), .kernel_version = column_text(st, 3),
		.kernel_sha = column_text(st, 4), .plan = column_text(st, 5), .status = column_text(st, 6),
		.console_log = column_text(st, 7), .host = column_text(st, 8),
		.knob_freeze_filesystems = knob(st, 9), .knob_sync_on_suspend = knob(st, 10),
		.started_at = sqlite3_column_double(st, 11), .ended_at = real(st, 12),
		.n_cycles = sqlite3_column_int(st, 13), .n_cycles_failed = sqlite3_column_int(st, 14),
		.source = column_text(st, 15), .lava_job_id = column_text(st, 16), .lava_server = column_text(st, 17),
		.n_cycles_fail = sqlite3_column_int(st, 18), .n_cycles_hang = sqlite3_column_int(st, 19),
		.n_cycles_infra = sqlite3_column_int(st, 20),
	};

	return v->run(v->ctx, &r);
}

int results_each_run(struct results_db *db, results_run_fn fn, void *ctx, struct rig_err *err)
{
	struct visit v = { .run = fn, .ctx = ctx };
	char sql[sizeof(runs_sql) + 16];
	sqlite3_stmt *st;
	int version;

	if (results_schema_version(db, &version, err))
		return -1;
	snprintf(sql, sizeof(sql), runs_sql, version >= 2 ? "r.lava_server" : "NULL");
	if (results_db_prepare(db, sql, &st, err))
		return -1;
	return results_db_each_row(db, st, "read runs", run_row, &v, err);
}

static int text_row(sqlite3_stmt *st, const void *ctx)
{
	const struct visit *v = ctx;

	return v->each(v->ctx, column_text(st, 0));
}

int results_each_night(struct results_db *db, results_text_fn fn, void *ctx, struct rig_err *err)
{
	struct visit v = { .each = fn, .ctx = ctx };
	sqlite3_stmt *st;

	if (results_db_prepare(db, "SELECT DISTINCT night FROM runs ORDER BY night", &st, err))
		return -1;
	return results_db_each_row(db, st, "read nights", text_row, &v, err);
}

/* ---- run details ----------------------------------------------------------------------- */

/* Column 0 is the run, column 1 the cycle's idx (NULL for a run's own artefact). The UNIQUE
 * (run_id, idx) index of cycles gives these orders without a sort. */
static const char *const detail_sql[] = {
	[RESULTS_DETAIL_CYCLES] =
		"SELECT run_id, idx, step_kind, step_desc, status, hang_phase, kernel_version,"
		" console_tail, started_at, ended_at FROM cycles ORDER BY run_id, idx",
	[RESULTS_DETAIL_VERDICTS] =
		"SELECT c.run_id, c.idx, v.name, v.filesystem, v.result, v.known_issue, v.detail"
		" FROM cycles c JOIN verdicts v ON v.cycle_id = c.id ORDER BY c.run_id, c.idx, v.id",
	[RESULTS_DETAIL_MEASUREMENTS] =
		"SELECT c.run_id, c.idx, m.name, m.filesystem, m.unit, m.value"
		" FROM cycles c JOIN measurements m ON m.cycle_id = c.id"
		" ORDER BY c.run_id, c.idx, m.id",
	[RESULTS_DETAIL_ARTEFACTS] =
		"SELECT a.run_id, c.idx, a.kind, a.path FROM artefacts a"
		" LEFT JOIN cycles c ON c.id = a.cycle_id ORDER BY a.run_id, a.id",
	[RESULTS_DETAIL_PHASES] =
		"SELECT c.run_id, c.idx, p.phase, NULL, 's', p.seconds"
		" FROM cycles c JOIN cycle_phases p ON p.cycle_id = c.id"
		" ORDER BY c.run_id, c.idx, p.id",
	[RESULTS_DETAIL_WAKES] =
		"SELECT c.run_id, c.idx, w.wake, w.requested_ms, w.entry_ms, w.asleep_ms, w.awake_ms,"
		" w.irq, w.irq_name, w.sources, w.rescued"
		" FROM cycles c JOIN cycle_wakes w ON w.cycle_id = c.id ORDER BY c.run_id, c.idx",
};

/* A reader never migrates: a database older than schema 4 has no cycle_phases, older than 7 no
 * cycle_wakes, so no rows. */
#define SCHEMA_PHASES 4
#define SCHEMA_WAKES 7
static const char no_phases_sql[] = "SELECT NULL, NULL, NULL, NULL, NULL, NULL WHERE 0";
static const char no_wakes_sql[] =
	"SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL WHERE 0";

struct results_cursor {
	struct results_db *db;
	sqlite3_stmt *st;
	int rc;                  /* the last sqlite3_step() */
};

static int cursor_step(struct results_cursor *c, struct rig_err *err)
{
	c->rc = sqlite3_step(c->st);
	if (c->rc != SQLITE_ROW && c->rc != SQLITE_DONE)
		return results_db_fail(c->db, "read run details", err);
	return 0;
}

int results_cursor_open(struct results_db *db, enum results_detail table,
			struct results_cursor **out, struct rig_err *err)
{
	struct results_cursor *c = calloc(1, sizeof(*c));

	*out = NULL;
	if (!c)
		return rig_err_set(err, RIG_EXIT_INFRA, "results: out of memory");
	c->db = db;
	const char *sql = detail_sql[table];
	int version = SCHEMA_WAKES;

	if ((table == RESULTS_DETAIL_PHASES || table == RESULTS_DETAIL_WAKES) &&
	    results_schema_version(db, &version, err)) {
		results_cursor_close(c);
		return -1;
	}
	if (table == RESULTS_DETAIL_PHASES && version < SCHEMA_PHASES)
		sql = no_phases_sql;
	if (table == RESULTS_DETAIL_WAKES && version < SCHEMA_WAKES)
		sql = no_wakes_sql;
	if (results_db_prepare(db, sql, &c->st, err) || cursor_step(c, err)) {
		results_cursor_close(c);
		return -1;
	}
	*out = c;
	return 0;
}

void results_cursor_close(struct results_cursor *c)
{
	if (!c)
		return;
	sqlite3_finalize(c->st);
	free(c);
}

int64_t results_cursor_run(const struct results_cursor *c)
{
	return c->rc == SQLITE_ROW ? sqlite3_column_int64(c->st, 0) : INT64_MAX;
}

int results_cursor_next(struct results_cursor *c, struct rig_err *err)
{
	return c->rc == SQLITE_ROW ? cursor_step(c, err) : 0;
}

static int cycle_idx(const struct results_cursor *c)
{
	return sqlite3_column_type(c->st, 1) == SQLITE_NULL ? -1 : sqlite3_column_int(c->st, 1);
}

void results_cursor_cycle(const struct results_cursor *c, struct results_cycle_row *row)
{
	*row = (struct results_cycle_row){
		.idx = cycle_idx(c),
		.step_kind = column_text(c->st, 2), .step_desc = column_text(c->st, 3), .status = column_text(c->st, 4),
		.hang_phase = column_text(c->st, 5), .kernel_version = column_text(c->st, 6),
		.console_tail = column_text(c->st, 7),
		.started_at = real(c->st, 8), .ended_at = real(c->st, 9),
	};
}

void results_cursor_verdict(const struct results_cursor *c, struct results_verdict_row *row)
{
	*row = (struct results_verdict_row){
		.cycle_idx = cycle_idx(c),
		.name = column_text(c->st, 2), .filesystem = column_text(c->st, 3), .result = column_text(c->st, 4),
		.known_issue = column_text(c->st, 5), .detail = column_text(c->st, 6),
	};
}

void results_cursor_measurement(const struct results_cursor *c,
				struct results_measurement_row *row)
{
	*row = (struct results_measurement_row){
		.cycle_idx = cycle_idx(c),
		.name = column_text(c->st, 2), .filesystem = column_text(c->st, 3), .unit = column_text(c->st, 4),
		.value = real(c->st, 5),
	};
}

void results_cursor_artefact(const struct results_cursor *c, struct results_artefact_row *row)
{
	*row = (struct results_artefact_row){
		.cycle_idx = cycle_idx(c), .kind = column_text(c->st, 2), .path = column_text(c->st, 3),
	};
}

/* An integer column; -1 for NULL (unknown). */
static int64_t column_ms(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, i);
}

void results_cursor_wake(const struct results_cursor *c, struct results_wake_row *row)
{
	*row = (struct results_wake_row){
		.cycle_idx = cycle_idx(c),
		.wake = {
			.wake = column_text(c->st, 2), .requested_ms = column_ms(c->st, 3),
			.entry_ms = column_ms(c->st, 4), .asleep_ms = column_ms(c->st, 5),
			.awake_ms = column_ms(c->st, 6), .irq = column_ms(c->st, 7),
			.irq_name = column_text(c->st, 8), .sources = column_text(c->st, 9),
			.rescued = sqlite3_column_int(c->st, 10) == 1,
		},
	};
}

/* ---- known issues ---------------------------------------------------------------------- */

static const char known_history_sql[] =
	"WITH seen AS (SELECT max(r.night) AS last FROM verdicts v JOIN cycles c ON v.cycle_id = c.id"
	"  JOIN runs r ON c.run_id = r.id WHERE v.known_issue = :id)"
	" SELECT seen.last, (SELECT count(DISTINCT night) FROM runs"
	"  WHERE night > coalesce(seen.last, '')) FROM seen";

int results_known_history(struct results_db *db, const char *id, char *last, size_t size,
			  int *nights_since, struct rig_err *err)
{
	struct results_binder b = { 0 };
	int ret, rc;

	last[0] = '\0';
	*nights_since = 0;
	if (results_db_prepare(db, known_history_sql, &b.stmt, err))
		return -1;
	results_bind_text(&b, ":id", id);
	ret = results_bind_check(db, &b, "known issue history", err);
	if (ret == 0) {
		rc = sqlite3_step(b.stmt);
		if (rc == SQLITE_ROW) {
			snprintf(last, size, "%s", column_text(b.stmt, 0) ? column_text(b.stmt, 0) : "");
			*nights_since = sqlite3_column_int(b.stmt, 1);
		} else {
			ret = results_db_fail(db, "known issue history", err);
		}
	}
	sqlite3_finalize(b.stmt);
	return ret;
}
