#include "dashboards/runstream.h"

#include <stdlib.h>
#include <string.h>

#include "dashboards/sql.h"

/* The UNIQUE (run_id, idx) index of cycles gives these orders without a sort. */
static const char cycles_sql[] =
	"SELECT run_id, idx, step_kind, step_desc, status, hang_phase, kernel_version, console_tail,"
	" started_at, ended_at FROM cycles ORDER BY run_id, idx";
static const char verdicts_sql[] =
	"SELECT c.run_id, c.idx, v.name, v.filesystem, v.result, v.known_issue, v.detail"
	" FROM cycles c JOIN verdicts v ON v.cycle_id = c.id ORDER BY c.run_id, c.idx, v.id";
static const char measurements_sql[] =
	"SELECT c.run_id, c.idx, m.name, m.filesystem, m.unit, m.value"
	" FROM cycles c JOIN measurements m ON m.cycle_id = c.id ORDER BY c.run_id, c.idx, m.id";
static const char artefacts_sql[] =
	"SELECT a.run_id, c.idx, a.kind, a.path FROM artefacts a"
	" LEFT JOIN cycles c ON c.id = a.cycle_id ORDER BY a.run_id, a.id";

static int cursor_open(struct run_stream *rs, struct rs_cursor *c, const char *text,
		       struct rig_err *err)
{
	if (dash_sql_prepare(rs->sql, text, &c->st, err))
		return -1;
	c->rc = sqlite3_step(c->st);
	return 0;
}

static int cursor_next(struct run_stream *rs, struct rs_cursor *c, struct rig_err *err)
{
	c->rc = sqlite3_step(c->st);
	if (c->rc != SQLITE_ROW && c->rc != SQLITE_DONE)
		return rig_err_set(err, RIG_EXIT_INFRA, "dashboard: reading run details: %s",
				   sqlite3_errmsg(rs->sql));
	return 0;
}

/* Run id of the current row; INT64_MAX once the cursor is done. */
static int64_t cursor_run(const struct rs_cursor *c)
{
	return c->rc == SQLITE_ROW ? sqlite3_column_int64(c->st, 0) : INT64_MAX;
}

/* Skip rows of runs that are not in the model (none, normally: foreign keys forbid orphans). */
static int cursor_seek(struct run_stream *rs, struct rs_cursor *c, int64_t run_id,
		       struct rig_err *err)
{
	if (c->rc != SQLITE_ROW && c->rc != SQLITE_DONE)
		return rig_err_set(err, RIG_EXIT_INFRA, "dashboard: reading run details: %s",
				   sqlite3_errmsg(rs->sql));
	while (cursor_run(c) < run_id)
		if (cursor_next(rs, c, err))
			return -1;
	return 0;
}

static const char *text(struct run_stream *rs, sqlite3_stmt *st, int col, int *oom)
{
	const char *t = (const char *)sqlite3_column_text(st, col);

	return arena_strndup(&rs->strings, t, t ? (size_t)sqlite3_column_bytes(st, col) : 0, oom);
}

static int read_cycle(struct run_stream *rs, sqlite3_stmt *st, int *oom)
{
	struct rs_cycle *c;

	if (dash_grow((void **)&rs->cycle, &rs->cap_cycles, rs->n_cycles, sizeof(*rs->cycle)))
		return -1;
	c = &rs->cycle[rs->n_cycles++];
	*c = (struct rs_cycle){
		.idx = sqlite3_column_int(st, 1),
		.step_kind = text(rs, st, 2, oom), .step_desc = text(rs, st, 3, oom),
		.status = text(rs, st, 4, oom), .hang_phase = text(rs, st, 5, oom),
		.kernel = text(rs, st, 6, oom), .console_tail = text(rs, st, 7, oom),
		.started_at = dash_sql_real(st, 8), .ended_at = dash_sql_real(st, 9),
	};
	return 0;
}

/* Position of the cycle with this idx at or after *k (rows arrive in idx order). */
static struct rs_cycle *cycle_at(struct run_stream *rs, int idx, size_t *k)
{
	while (*k < rs->n_cycles && rs->cycle[*k].idx < idx)
		(*k)++;
	return *k < rs->n_cycles && rs->cycle[*k].idx == idx ? &rs->cycle[*k] : NULL;
}

static int read_verdict(struct run_stream *rs, sqlite3_stmt *st, size_t *k, int *oom)
{
	struct rs_cycle *c = cycle_at(rs, sqlite3_column_int(st, 1), k);

	if (!c)
		return 0;
	if (dash_grow((void **)&rs->verdict, &rs->cap_verdicts, rs->n_verdicts, sizeof(*rs->verdict)))
		return -1;
	if (c->n_verdicts++ == 0)
		c->first_verdict = rs->n_verdicts;
	rs->verdict[rs->n_verdicts++] = (struct rs_verdict){
		.name = text(rs, st, 2, oom), .filesystem = text(rs, st, 3, oom),
		.result = text(rs, st, 4, oom), .known_issue = text(rs, st, 5, oom),
		.detail = text(rs, st, 6, oom),
	};
	return 0;
}

static int read_measurement(struct run_stream *rs, sqlite3_stmt *st, size_t *k, int *oom)
{
	struct rs_cycle *c = cycle_at(rs, sqlite3_column_int(st, 1), k);

	if (!c)
		return 0;
	if (dash_grow((void **)&rs->measurement, &rs->cap_measurements, rs->n_measurements,
		      sizeof(*rs->measurement)))
		return -1;
	if (c->n_measurements++ == 0)
		c->first_measurement = rs->n_measurements;
	rs->measurement[rs->n_measurements++] = (struct rs_measurement){
		.name = text(rs, st, 2, oom), .filesystem = text(rs, st, 3, oom),
		.unit = text(rs, st, 4, oom), .value = sqlite3_column_double(st, 5),
	};
	return 0;
}

static int read_artefact(struct run_stream *rs, sqlite3_stmt *st, int *oom)
{
	if (dash_grow((void **)&rs->artefact, &rs->cap_artefacts, rs->n_artefacts,
		      sizeof(*rs->artefact)))
		return -1;
	rs->artefact[rs->n_artefacts++] = (struct rs_artefact){
		.cycle_idx = sqlite3_column_type(st, 1) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 1),
		.kind = text(rs, st, 2, oom), .path = text(rs, st, 3, oom),
	};
	return 0;
}

enum table { CYCLES, VERDICTS, MEASUREMENTS, ARTEFACTS };

static int read_row(struct run_stream *rs, enum table t, sqlite3_stmt *st, size_t *k, int *oom)
{
	switch (t) {
	case CYCLES: return read_cycle(rs, st, oom);
	case VERDICTS: return read_verdict(rs, st, k, oom);
	case MEASUREMENTS: return read_measurement(rs, st, k, oom);
	case ARTEFACTS: return read_artefact(rs, st, oom);
	}
	return -1;
}

static int load_table(struct run_stream *rs, enum table t, struct rs_cursor *c, int64_t run_id,
		      struct rig_err *err)
{
	size_t k = 0;
	int oom = 0;

	if (cursor_seek(rs, c, run_id, err))
		return -1;
	while (cursor_run(c) == run_id) {
		if (read_row(rs, t, c->st, &k, &oom) || oom)
			return rig_err_set(err, RIG_EXIT_INFRA, "dashboard: out of memory");
		if (cursor_next(rs, c, err))
			return -1;
	}
	return 0;
}

int run_stream_load(struct run_stream *rs, int64_t run_id, struct rig_err *err)
{
	arena_reset(&rs->strings);
	rs->n_cycles = rs->n_verdicts = rs->n_measurements = rs->n_artefacts = 0;
	if (load_table(rs, CYCLES, &rs->cycles, run_id, err) ||
	    load_table(rs, VERDICTS, &rs->verdicts, run_id, err) ||
	    load_table(rs, MEASUREMENTS, &rs->measurements, run_id, err) ||
	    load_table(rs, ARTEFACTS, &rs->artefacts, run_id, err))
		return -1;
	return 0;
}

int run_stream_open(sqlite3 *sql, struct run_stream *rs, struct rig_err *err)
{
	*rs = (struct run_stream){ .sql = sql };
	if (cursor_open(rs, &rs->cycles, cycles_sql, err) ||
	    cursor_open(rs, &rs->verdicts, verdicts_sql, err) ||
	    cursor_open(rs, &rs->measurements, measurements_sql, err) ||
	    cursor_open(rs, &rs->artefacts, artefacts_sql, err)) {
		run_stream_close(rs);
		return -1;
	}
	return 0;
}

void run_stream_close(struct run_stream *rs)
{
	sqlite3_finalize(rs->cycles.st);
	sqlite3_finalize(rs->verdicts.st);
	sqlite3_finalize(rs->measurements.st);
	sqlite3_finalize(rs->artefacts.st);
	arena_free(&rs->strings);
	free(rs->cycle), free(rs->verdict), free(rs->measurement), free(rs->artefact);
	*rs = (struct run_stream){ 0 };
}
