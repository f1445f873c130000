#include "results/query.h"

#include <stdbool.h>
#include <string.h>

#include "results/db_internal.h"

/* Summary counts come from subqueries so a run without cycles still shows up. */
static const char runs_sql[] =
	"SELECT * FROM ("
	" SELECT r.*,"
	"  (SELECT count(*) FROM cycles c WHERE c.run_id = r.id) AS n_cycles,"
	"  (SELECT count(*) FROM cycles c WHERE c.run_id = r.id AND c.status != 'pass')"
	"   AS n_cycles_failed,"
	"  (SELECT count(*) FROM verdicts v JOIN cycles c ON v.cycle_id = c.id"
	"   WHERE c.run_id = r.id AND v.result = 'fail') AS n_verdicts_failed"
	" FROM runs r"
	" WHERE (:board IS NULL OR r.board = :board) AND (:id IS NULL OR r.id = :id)"
	" ORDER BY r.started_at DESC, r.id DESC LIMIT :limit"
	") ORDER BY started_at, id";

static const char cycles_sql[] = "SELECT * FROM cycles WHERE run_id = :id ORDER BY idx";
static const char verdicts_sql[] = "SELECT * FROM verdicts WHERE cycle_id = :id ORDER BY id";
static const char measurements_sql[] =
	"SELECT * FROM measurements WHERE cycle_id = :id ORDER BY id";
static const char artefacts_sql[] = "SELECT * FROM artefacts WHERE run_id = :id ORDER BY id";
/* Schema 4: a cycle's time budget, seconds null where unknown, in the budget's phase order. */
static const char phases_sql[] =
	"SELECT phase, seconds FROM cycle_phases WHERE cycle_id = :id ORDER BY id";
/* The run's time budget per phase: over the cycles that showed it (an unknown phase is counted,
 * never averaged as 0), and the cycle where it took longest (the first such, by index). */
static const char budget_sql[] =
	"SELECT p.phase AS phase, count(p.seconds) AS cycles_known,"
	" count(*) - count(p.seconds) AS cycles_unknown, sum(p.seconds) AS total_s,"
	" avg(p.seconds) AS mean_s, max(p.seconds) AS max_s,"
	" (SELECT c2.idx FROM cycle_phases p2 JOIN cycles c2 ON c2.id = p2.cycle_id"
	"  WHERE c2.run_id = :id AND p2.phase = p.phase AND p2.seconds IS NOT NULL"
	"  ORDER BY p2.seconds DESC, c2.idx LIMIT 1) AS slowest_cycle"
	" FROM cycle_phases p JOIN cycles c ON c.id = p.cycle_id WHERE c.run_id = :id"
	" GROUP BY p.phase ORDER BY min(p.id)";

/* Schema 5: the host's CPU accounting of the cycle (one row, or none: a real board's cycle has
 * applicable 0, a LAVA cycle none). */
static const char host_cpu_sql[] =
	"SELECT applicable, window_end, window_s, qemu_run_s, qemu_wait_s, psi_some_s, starved,"
	" reclassified, detail FROM cycle_host_cpu WHERE cycle_id = :id";

/* Schema 7: a suspend's wake accounting, at most one row per cycle. */
static const char wake_sql[] =
	"SELECT wake, requested_ms, entry_ms, asleep_ms, awake_ms, irq, irq_name, sources, rescued"
	" FROM cycle_wakes WHERE cycle_id = :id";

/* Schema 8: a hibernation's mode and path, at most one row per cycle. */
static const char hibernation_sql[] =
	"SELECT asked, power_cut_asked, kernel_mode, went, power_cut, came_back, matched"
	" FROM cycle_hibernations WHERE cycle_id = :id";

#define SCHEMA_PHASES 4   /* the first schema with cycle_phases (a reader never migrates) */
#define SCHEMA_HOST_CPU 5 /* the first with cycle_host_cpu */
#define SCHEMA_WAKES 7    /* the first with cycle_wakes */
#define SCHEMA_HIBERNATIONS 8 /* the first with cycle_hibernations */

/* Columns that hold JSON text are returned as JSON, not as a string containing JSON. */
static json_t *text_value(const char *column, const char *text)
{
	if (strcmp(column, "kernel_meta") == 0 || strcmp(column, "posterior_top3") == 0) {
		json_t *parsed = json_loads(text, JSON_DECODE_ANY, NULL);

		if (parsed)
			return parsed;
	}
	return json_string(text);
}

static json_t *column_value(sqlite3_stmt *stmt, int i)
{
	switch (sqlite3_column_type(stmt, i)) {
	case SQLITE_INTEGER:
		return json_integer(sqlite3_column_int64(stmt, i));
	case SQLITE_FLOAT:
		return json_real(sqlite3_column_double(stmt, i));
	case SQLITE_TEXT:
		return text_value(sqlite3_column_name(stmt, i),
				  (const char *)sqlite3_column_text(stmt, i));
	default:
		return json_null();
	}
}

static json_t *row_object(sqlite3_stmt *stmt)
{
	json_t *row = json_object();
	int n = sqlite3_column_count(stmt);

	for (int i = 0; row && i < n; i++) {
		json_t *v = column_value(stmt, i);

		if (!v || json_object_set_new(row, sqlite3_column_name(stmt, i), v)) {
			json_decref(row);
			return NULL;
		}
	}
	return row;
}

/* Step stmt to the end, appending each row as an object to a new array. */
static int collect_rows(struct results_db *db, sqlite3_stmt *stmt, json_t **rows,
			struct rig_err *err)
{
	json_t *arr = json_array();
	int rc;

	if (!arr)
		return rig_err_set(err, RIG_EXIT_INFRA, "results: out of memory");
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		json_t *row = row_object(stmt);

		if (!row || json_array_append_new(arr, row)) {
			json_decref(arr);
			return rig_err_set(err, RIG_EXIT_INFRA, "results: out of memory");
		}
	}
	if (rc != SQLITE_DONE) {
		json_decref(arr);
		return results_db_fail(db, "query", err);
	}
	*rows = arr;
	return 0;
}

/* Run sql with its one ":id" parameter and collect the rows. */
static int rows_by_id(struct results_db *db, const char *sql, int64_t id, json_t **rows,
		      struct rig_err *err)
{
	struct results_binder b = { 0 };
	int ret;

	if (results_db_prepare(db, sql, &b.stmt, err))
		return -1;
	results_bind_int64(&b, ":id", id);
	ret = results_bind_check(db, &b, "query", err);
	if (ret == 0)
		ret = collect_rows(db, b.stmt, rows, err);
	sqlite3_finalize(b.stmt);
	return ret;
}

static int select_runs(struct results_db *db, const char *board, int64_t run_id, int last,
		       json_t **runs, struct rig_err *err)
{
	struct results_binder b = { 0 };
	int ret;

	if (results_db_prepare(db, runs_sql, &b.stmt, err))
		return -1;
	results_bind_text(&b, ":board", board);
	results_bind_offset(&b, ":id", run_id);
	results_bind_int64(&b, ":limit", last > 0 ? last : -1);  /* LIMIT -1: no limit */
	ret = results_bind_check(db, &b, "query runs", err);
	if (ret == 0)
		ret = collect_rows(db, b.stmt, runs, err);
	sqlite3_finalize(b.stmt);
	return ret;
}

int results_query_runs(struct results_db *db, const struct results_run_filter *filter,
		       json_t **runs, struct rig_err *err)
{
	if (filter->last < 0)
		return rig_err_set(err, RIG_EXIT_USAGE, "results: --last must not be negative");
	return select_runs(db, filter->board, -1, filter->last, runs, err);
}

static int attach(json_t *obj, const char *key, json_t *value, struct rig_err *err)
{
	if (json_object_set_new(obj, key, value))
		return rig_err_set(err, RIG_EXIT_INFRA, "results: out of memory");
	return 0;
}

/* rows_by_id, attached to obj as key. */
static int attach_rows(struct results_db *db, json_t *obj, const char *key, const char *sql,
		       int64_t id, struct rig_err *err)
{
	json_t *rows;

	if (rows_by_id(db, sql, id, &rows, err))
		return -1;
	return attach(obj, key, rows, err);
}

/* The cycle's one row of a one-row-per-cycle table under key, null when it has none (or the
 * schema predates the table: available false). */
static int attach_first_row(struct results_db *db, json_t *cycle, const char *key,
			    const char *sql, int64_t id, bool available, struct rig_err *err)
{
	json_t *rows;
	json_t *row;

	if (!available)
		return attach(cycle, key, json_null(), err);
	if (rows_by_id(db, sql, id, &rows, err))
		return -1;
	row = json_array_size(rows) ? json_incref(json_array_get(rows, 0)) : json_null();
	json_decref(rows);
	return attach(cycle, key, row, err);
}

static int attach_cycle_items(struct results_db *db, json_t *cycle, int version,
			      struct rig_err *err)
{
	int64_t id = json_integer_value(json_object_get(cycle, "id"));

	if (attach_rows(db, cycle, "verdicts", verdicts_sql, id, err) ||
	    attach_rows(db, cycle, "measurements", measurements_sql, id, err) ||
	    attach_first_row(db, cycle, "host_cpu", host_cpu_sql, id, version >= SCHEMA_HOST_CPU,
			     err) ||
	    attach_first_row(db, cycle, "wake", wake_sql, id, version >= SCHEMA_WAKES, err) ||
	    attach_first_row(db, cycle, "hibernation", hibernation_sql, id,
			     version >= SCHEMA_HIBERNATIONS, err))
		return -1;
	return version >= SCHEMA_PHASES ? attach_rows(db, cycle, "phases", phases_sql, id, err) : 0;
}

static int attach_cycles(struct results_db *db, json_t *run, int64_t run_id, struct rig_err *err)
{
	json_t *cycles, *cycle;
	int version;
	size_t i;

	if (results_schema_version(db, &version, err) ||
	    rows_by_id(db, cycles_sql, run_id, &cycles, err))
		return -1;
	if (attach(run, "cycles", cycles, err))
		return -1;
	json_array_foreach(cycles, i, cycle)
		if (attach_cycle_items(db, cycle, version, err))
			return -1;
	if (version < SCHEMA_PHASES)
		return attach(run, "time_budget", json_array(), err);
	return attach_rows(db, run, "time_budget", budget_sql, run_id, err);
}

int results_query_run(struct results_db *db, int64_t run_id, json_t **out, struct rig_err *err)
{
	json_t *runs, *run, *artefacts;

	if (run_id <= 0)
		return rig_err_set(err, RIG_EXIT_USAGE, "results: run id must be positive");
	if (select_runs(db, NULL, run_id, 0, &runs, err))
		return -1;
	run = json_incref(json_array_get(runs, 0));
	json_decref(runs);
	if (!run)
		return rig_err_set(err, RIG_EXIT_USAGE, "results db %s: no run %lld", db->path,
				   (long long)run_id);
	if (attach_cycles(db, run, run_id, err) ||
	    rows_by_id(db, artefacts_sql, run_id, &artefacts, err) ||
	    attach(run, "artefacts", artefacts, err)) {
		json_decref(run);
		return -1;
	}
	*out = run;
	return 0;
}
