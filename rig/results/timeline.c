/* Per-device timelines: kept with the cycle, written with it, read back for reports. */
#include "results/timeline.h"

#include <stdlib.h>
#include <string.h>

#include "results/cycle.h"
#include "results/db_internal.h"
#include "util/array.h"

#define SCHEMA_TIMELINES 6   /* a reader never migrates: an older database has no timelines */

struct stored_row {
	char *kind, *phase, *name, *driver;
	int64_t start_us, dur_us;
	int err;
	unsigned count;
};

struct results_timeline_store {
	struct results_timeline_info info;
	char *reason;
	struct stored_row *rows;
	size_t n, cap;
};

static char *copy(const char *s, bool *ok)
{
	char *c;

	if (!s)
		return NULL;
	if (!(c = strdup(s)))
		*ok = false;
	return c;
}

static int no_memory(struct rig_err *err)
{
	return rig_err_set(err, RIG_EXIT_INFRA, "results: out of memory for a timeline");
}

int results_cycle_set_timeline(struct results_cycle *cycle, const struct results_timeline_info *info,
			       struct rig_err *err)
{
	struct results_timeline_store *t = cycle->timeline;
	bool ok = true;
	char *reason = copy(info->reason, &ok);

	if (!ok)
		return no_memory(err);
	if (!t && !(t = cycle->timeline = calloc(1, sizeof(*t)))) {
		free(reason);
		return no_memory(err);
	}
	free(t->reason);
	t->reason = reason;
	t->info = *info;
	t->info.reason = reason;
	return 0;
}

static const char *const kinds[] = { "mark", "device", "others", "frozen", "stall" };

static bool known_kind(const char *kind)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (kind && strcmp(kind, kinds[i]) == 0)
			return true;
	return false;
}

int results_cycle_add_timeline_row(struct results_cycle *cycle,
				   const struct results_timeline_row *row, struct rig_err *err)
{
	struct results_timeline_store *t = cycle->timeline;
	struct stored_row r = { .start_us = row->start_us, .dur_us = row->dur_us, .err = row->err,
				.count = row->count };
	bool ok = true;

	if (!t)
		return rig_err_set(err, RIG_EXIT_USAGE, "results: a timeline row before its header");
	if (!known_kind(row->kind) || !row->name || row->dur_us < -1)
		return rig_err_set(err, RIG_EXIT_USAGE, "results: timeline row %s %s: bad kind or span",
				   row->kind ? row->kind : "(null)", row->name ? row->name : "(null)");
	if (array_grow((void **)&t->rows, &t->cap, t->n, sizeof(r)))
		return no_memory(err);
	r.kind = copy(row->kind, &ok);
	r.phase = copy(row->phase, &ok);
	r.name = copy(row->name, &ok);
	r.driver = copy(row->driver, &ok);
	if (!ok) {
		free(r.kind), free(r.phase), free(r.name), free(r.driver);
		return no_memory(err);
	}
	t->rows[t->n++] = r;
	return 0;
}

void results_timeline_free(struct results_cycle *cycle)
{
	struct results_timeline_store *t = cycle->timeline;

	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++)
		free(t->rows[i].kind), free(t->rows[i].phase), free(t->rows[i].name),
			free(t->rows[i].driver);
	free(t->rows);
	free(t->reason);
	free(t);
	cycle->timeline = NULL;
}

static const char insert_timeline_sql[] =
	"INSERT INTO cycle_timelines (cycle_id, status, reason, base_ns, events, lost, bad_lines,"
	" min_us) VALUES (:cycle_id, :status, :reason, :base_ns, :events, :lost, :bad_lines, :min_us)";
static const char insert_row_sql[] =
	"INSERT INTO timeline_rows (cycle_id, kind, phase, name, driver, start_us, dur_us, err, count)"
	" VALUES (:cycle_id, :kind, :phase, :name, :driver, :start_us, :dur_us, :err, :count)";

static int write_rows(struct results_db *db, const struct results_timeline_store *t,
		      int64_t cycle_id, struct rig_err *err)
{
	struct results_binder b = { 0 };
	bool cached;
	int ret = 0;

	if (t->n == 0)
		return 0;
	if (results_db_cached(db, insert_row_sql, &b.stmt, &cached, err))
		return -1;
	for (size_t i = 0; i < t->n && ret == 0; i++) {
		const struct stored_row *r = &t->rows[i];

		results_bind_int64(&b, ":cycle_id", cycle_id);
		results_bind_text(&b, ":kind", r->kind);
		results_bind_text(&b, ":phase", r->phase);
		results_bind_text(&b, ":name", r->name);
		results_bind_text(&b, ":driver", r->driver);
		results_bind_int64(&b, ":start_us", r->start_us);
		results_bind_offset(&b, ":dur_us", r->dur_us);     /* -1: NULL, open */
		results_bind_int64(&b, ":err", r->err);
		results_bind_int64(&b, ":count", r->count);
		if (results_bind_check(db, &b, "insert timeline row", err))
			ret = -1;
		else
			ret = results_db_step_done(db, b.stmt, "insert timeline row", err);
	}
	if (!cached)
		sqlite3_finalize(b.stmt);
	return ret;
}

int results_timeline_write(struct results_db *db, const struct results_cycle *cycle,
			   int64_t cycle_id, struct rig_err *err)
{
	const struct results_timeline_store *t = cycle->timeline;
	struct results_binder b = { 0 };
	bool cached;
	int ret;

	if (!t)
		return 0;
	if (results_db_cached(db, insert_timeline_sql, &b.stmt, &cached, err))
		return -1;
	results_bind_int64(&b, ":cycle_id", cycle_id);
	results_bind_text(&b, ":status", t->info.available ? "on" : "unavailable");
	results_bind_text(&b, ":reason", t->info.reason);
	/* the boot clock's ns fit an int64 for 292 years of uptime */
	results_bind_offset(&b, ":base_ns", t->info.available ? (int64_t)t->info.base_ns : -1);
	results_bind_int64(&b, ":events", t->info.events);
	results_bind_int64(&b, ":lost", t->info.lost);
	results_bind_int64(&b, ":bad_lines", t->info.bad_lines);
	results_bind_int64(&b, ":min_us", t->info.min_us);
	ret = results_bind_check(db, &b, "insert timeline", err) ||
	      results_db_step_done(db, b.stmt, "insert timeline", err) ? -1 : 0;
	if (!cached)
		sqlite3_finalize(b.stmt);
	return ret ? -1 : write_rows(db, t, cycle_id, err);
}

/* ---- reading ---------------------------------------------------------------------------- */

static const char *text(sqlite3_stmt *st, int col)
{
	return (const char *)sqlite3_column_text(st, col);
}

/* sql prepared into b->stmt: 1; 0 for a database before schema 6 (a reader never migrates: it
 * has no timelines); -1 on error. */
static int prepare_query(struct results_db *db, const char *sql, struct results_binder *b,
			 struct rig_err *err)
{
	int version;

	if (results_schema_version(db, &version, err))
		return -1;
	if (version < SCHEMA_TIMELINES)
		return 0;
	return results_db_prepare(db, sql, &b->stmt, err) ? -1 : 1;
}

/* The bound statement's rows, each handed to row (the statement is finalized). */
static int walk(struct results_db *db, struct results_binder *b, const char *what,
		int (*row)(sqlite3_stmt *st, const void *ctx), const void *ctx, struct rig_err *err)
{
	if (results_bind_check(db, b, what, err)) {
		sqlite3_finalize(b->stmt);
		return -1;
	}
	return results_db_each_row(db, b->stmt, what, row, ctx, err);
}

struct row_visit {
	results_timeline_fn fn;
	void *ctx;
};

static int row_of(sqlite3_stmt *st, const void *ctx)
{
	const struct row_visit *v = ctx;
	struct results_timeline_info info = {
		.available = strcmp(text(st, 1), "on") == 0, .reason = text(st, 2),
		.base_ns = (uint64_t)sqlite3_column_int64(st, 3),
		.events = (unsigned)sqlite3_column_int(st, 4), .lost = (unsigned)sqlite3_column_int(st, 5),
		.bad_lines = (unsigned)sqlite3_column_int(st, 6),
		.min_us = (unsigned)sqlite3_column_int(st, 7),
	};
	struct results_timeline_row r = {
		.kind = text(st, 8), .phase = text(st, 9), .name = text(st, 10), .driver = text(st, 11),
		.start_us = sqlite3_column_int64(st, 12),
		.dur_us = sqlite3_column_type(st, 13) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 13),
		.err = sqlite3_column_int(st, 14), .count = (unsigned)sqlite3_column_int(st, 15),
	};

	return v->fn(v->ctx, sqlite3_column_int(st, 0), &info, r.kind ? &r : NULL);
}

int results_timeline_read(struct results_db *db, int64_t run_id, results_timeline_fn fn,
			  void *ctx, struct rig_err *err)
{
	static const char sql[] =
		"SELECT c.idx, t.status, t.reason, t.base_ns, t.events, t.lost, t.bad_lines, t.min_us,"
		" w.kind, w.phase, w.name, w.driver, w.start_us, w.dur_us, w.err, w.count"
		" FROM cycles c JOIN cycle_timelines t ON t.cycle_id = c.id"
		" LEFT JOIN timeline_rows w ON w.cycle_id = c.id"
		" WHERE c.run_id = :run ORDER BY c.idx, w.id";
	struct row_visit v = { .fn = fn, .ctx = ctx };
	struct results_binder b = { 0 };
	int rc = prepare_query(db, sql, &b, err);

	if (rc <= 0)
		return rc;
	results_bind_int64(&b, ":run", run_id);
	return walk(db, &b, "read timelines", row_of, &v, err);
}

/* ---- slowest devices -------------------------------------------------------------------- */

/* Per board, kernel, phase and device: its kept callbacks over the traced cycles; the phase in
 * a suspend's order; ranked by mean within (board, kernel, phase). */
static const char slowest_sql[] =
	"WITH traced AS ("
	"  SELECT c.id AS cycle_id, c.idx, r.id AS run_id, r.board, r.night,"
	"   COALESCE(c.kernel_version, r.kernel_version, '?') AS kernel"
	"  FROM cycle_timelines t JOIN cycles c ON c.id = t.cycle_id JOIN runs r ON r.id = c.run_id"
	"  WHERE t.status = 'on'"
	"   AND (:board IS NULL OR r.board = :board)"
	"   AND (:kernel IS NULL OR COALESCE(c.kernel_version, r.kernel_version, '?') = :kernel)),"
	" counts AS (SELECT board, kernel, count(*) AS traced FROM traced GROUP BY board, kernel),"
	" kept AS ("
	"  SELECT x.board, x.kernel, x.night, x.run_id, x.idx, w.phase, w.name,"
	"   COALESCE(w.driver, '') AS driver, w.dur_us, w.err"
	"  FROM traced x JOIN timeline_rows w ON w.cycle_id = x.cycle_id"
	"  WHERE w.kind = 'device' AND w.dur_us IS NOT NULL),"
	" per AS ("
	"  SELECT board, kernel, phase, name, driver, count(*) AS cycles,"
	"   count(DISTINCT night) AS nights, sum(err <> 0) AS errors, avg(dur_us) AS mean_us,"
	"   max(dur_us) AS max_us, max(night) AS last_night"
	"  FROM kept GROUP BY board, kernel, phase, name, driver),"
	" ranked AS ("
	"  SELECT p.*, row_number() OVER (PARTITION BY board, kernel, phase"
	"   ORDER BY mean_us DESC, name) AS rank FROM per p)"
	" SELECT k.board, k.kernel, k.phase, k.name, k.driver, k.cycles, n.traced, k.nights,"
	"  k.errors, k.mean_us, k.max_us, k.last_night,"
	"  (SELECT avg(dur_us) FROM kept z WHERE z.board = k.board AND z.kernel = k.kernel"
	"    AND z.phase = k.phase AND z.name = k.name AND z.driver = k.driver"
	"    AND z.night = k.last_night),"
	"  (SELECT z.run_id FROM kept z WHERE z.board = k.board AND z.kernel = k.kernel"
	"    AND z.phase = k.phase AND z.name = k.name AND z.driver = k.driver"
	"    ORDER BY z.dur_us DESC, z.run_id, z.idx LIMIT 1),"
	"  (SELECT z.idx FROM kept z WHERE z.board = k.board AND z.kernel = k.kernel"
	"    AND z.phase = k.phase AND z.name = k.name AND z.driver = k.driver"
	"    ORDER BY z.dur_us DESC, z.run_id, z.idx LIMIT 1)"
	" FROM ranked k JOIN counts n ON n.board = k.board AND n.kernel = k.kernel"
	" WHERE :per_phase = 0 OR k.rank <= :per_phase"
	" ORDER BY k.board, k.kernel,"
	"  CASE k.phase WHEN 'prepare' THEN 0 WHEN 'suspend' THEN 1 WHEN 'suspend_late' THEN 2"
	"   WHEN 'suspend_noirq' THEN 3 WHEN 'resume_noirq' THEN 4 WHEN 'resume_early' THEN 5"
	"   WHEN 'resume' THEN 6 WHEN 'complete' THEN 7 ELSE 8 END, k.phase, k.rank";

struct slow_visit {
	results_slow_fn fn;
	void *ctx;
};

static int slow_row(sqlite3_stmt *st, const void *ctx)
{
	const struct slow_visit *v = ctx;
	struct results_slow_device d = {
		.board = text(st, 0), .kernel_version = text(st, 1), .phase = text(st, 2),
		.name = text(st, 3), .driver = text(st, 4), .cycles = sqlite3_column_int(st, 5),
		.traced = sqlite3_column_int(st, 6), .nights = sqlite3_column_int(st, 7),
		.errors = sqlite3_column_int(st, 8), .mean_us = sqlite3_column_double(st, 9),
		.max_us = sqlite3_column_double(st, 10), .last_night = text(st, 11),
		.last_night_mean_us = sqlite3_column_double(st, 12),
		.worst_run = sqlite3_column_int64(st, 13), .worst_cycle = sqlite3_column_int(st, 14),
	};

	return v->fn(v->ctx, &d);
}

int results_slowest_devices(struct results_db *db, const struct results_slow_filter *filter,
			    results_slow_fn fn, void *ctx, struct rig_err *err)
{
	struct slow_visit v = { .fn = fn, .ctx = ctx };
	struct results_binder b = { 0 };
	int rc = prepare_query(db, slowest_sql, &b, err);

	if (rc <= 0)
		return rc;
	results_bind_text(&b, ":board", filter->board);
	results_bind_text(&b, ":kernel", filter->kernel);
	results_bind_int64(&b, ":per_phase", filter->per_phase > 0 ? filter->per_phase : 0);
	return walk(db, &b, "read slowest devices", slow_row, &v, err);
}
