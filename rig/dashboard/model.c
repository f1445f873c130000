#include "dashboard/model.h"

#include <stdlib.h>
#include <string.h>

#include "dashboard/html.h"
#include "dashboard/sql.h"

static const char runs_sql[] =
	"SELECT r.id, r.board, r.night, r.kernel_version, r.kernel_sha, r.plan, r.status,"
	" r.console_log, r.host, r.knob_freeze_filesystems, r.knob_sync_on_suspend, r.started_at,"
	" r.ended_at, COALESCE(c.n, 0), COALESCE(c.n_failed, 0)"
	" FROM runs r LEFT JOIN (SELECT run_id, count(*) AS n, sum(status <> 'pass') AS n_failed"
	"  FROM cycles GROUP BY run_id) c ON c.run_id = r.id"
	" ORDER BY r.board, r.started_at, r.id";

static const char sums_sql[] =
	"SELECT c.run_id, v.name, sum(v.result = 'pass'),"
	" sum(v.result IN ('fail', 'error') AND v.known_issue IS NULL),"
	" sum(v.result IN ('fail', 'error') AND v.known_issue IS NOT NULL),"
	" sum(v.result = 'skip'),"
	" group_concat(DISTINCT CASE WHEN v.result IN ('fail', 'error') THEN v.known_issue END)"
	" FROM verdicts v JOIN cycles c ON c.id = v.cycle_id"
	" GROUP BY c.run_id, v.name ORDER BY c.run_id, v.name";

static const char nights_sql[] = "SELECT DISTINCT night FROM runs ORDER BY night";

static int knob_column(sqlite3_stmt *st, int col)
{
	return sqlite3_column_type(st, col) == SQLITE_NULL ? -1 : sqlite3_column_int(st, col);
}

static int read_run(sqlite3_stmt *st, struct dash_run *r)
{
	*r = (struct dash_run){
		.id = sqlite3_column_int64(st, 0),
		.board = dash_sql_text(st, 1), .night = dash_sql_text(st, 2),
		.kernel = dash_sql_text(st, 3), .sha = dash_sql_text(st, 4),
		.plan = dash_sql_text(st, 5), .status = dash_sql_text(st, 6),
		.console_log = dash_sql_text(st, 7), .host = dash_sql_text(st, 8),
		.knob_ff = knob_column(st, 9), .knob_sos = knob_column(st, 10),
		.started_at = sqlite3_column_double(st, 11),
		.ended_at = dash_sql_real(st, 12),
		.n_cycles = sqlite3_column_int(st, 13), .n_cycles_failed = sqlite3_column_int(st, 14),
	};
	return dash_sql_text_ok(st, 1, r->board) && dash_sql_text_ok(st, 2, r->night) &&
	       dash_sql_text_ok(st, 3, r->kernel) && dash_sql_text_ok(st, 4, r->sha) &&
	       dash_sql_text_ok(st, 5, r->plan) && dash_sql_text_ok(st, 6, r->status) &&
	       dash_sql_text_ok(st, 7, r->console_log) && dash_sql_text_ok(st, 8, r->host) ? 0 : -1;
}

static void free_run(struct dash_run *r)
{
	free(r->board), free(r->night), free(r->kernel), free(r->sha), free(r->plan);
	free(r->status), free(r->console_log), free(r->host);
}

static int load_runs(sqlite3 *sql, struct dash_model *m, struct rig_err *err)
{
	size_t cap = 0;
	sqlite3_stmt *st;
	int rc;

	if (dash_sql_prepare(sql, runs_sql, &st, err))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (dash_grow((void **)&m->runs, &cap, m->n_runs, sizeof(*m->runs)) ||
		    read_run(st, &m->runs[m->n_runs]) != 0) {
			if (m->n_runs < cap)
				free_run(&m->runs[m->n_runs]);
			sqlite3_finalize(st);
			return rig_err_set(err, RIG_EXIT_INFRA, "dashboard: out of memory loading runs");
		}
		m->n_runs++;
	}
	return dash_sql_finish(sql, st, rc, "runs", err);
}

static int read_sum(sqlite3_stmt *st, struct dash_verdict_sum *s)
{
	*s = (struct dash_verdict_sum){
		.name = dash_sql_text(st, 1),
		.n_pass = sqlite3_column_int(st, 2), .n_fail = sqlite3_column_int(st, 3),
		.n_known = sqlite3_column_int(st, 4), .n_skip = sqlite3_column_int(st, 5),
		.known_ids = dash_sql_text(st, 6),
	};
	return dash_sql_text_ok(st, 1, s->name) && dash_sql_text_ok(st, 6, s->known_ids) ? 0 : -1;
}

static int load_sums(sqlite3 *sql, struct dash_model *m, int64_t **run_ids, struct rig_err *err)
{
	size_t cap = 0, id_cap = 0;
	sqlite3_stmt *st;
	int rc;

	if (dash_sql_prepare(sql, sums_sql, &st, err))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (dash_grow((void **)&m->sums, &cap, m->n_sums, sizeof(*m->sums)) ||
		    dash_grow((void **)run_ids, &id_cap, m->n_sums, sizeof(**run_ids)) ||
		    read_sum(st, &m->sums[m->n_sums]) != 0) {
			if (m->n_sums < cap) {
				free(m->sums[m->n_sums].name);
				free(m->sums[m->n_sums].known_ids);
			}
			sqlite3_finalize(st);
			return rig_err_set(err, RIG_EXIT_INFRA, "dashboard: out of memory loading verdicts");
		}
		(*run_ids)[m->n_sums++] = sqlite3_column_int64(st, 0);
	}
	return dash_sql_finish(sql, st, rc, "verdict summary", err);
}

static int load_nights(sqlite3 *sql, struct dash_model *m, struct rig_err *err)
{
	size_t cap = 0;
	sqlite3_stmt *st;
	int rc;

	if (dash_sql_prepare(sql, nights_sql, &st, err))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (dash_grow((void **)&m->nights, &cap, m->n_nights, sizeof(*m->nights)) ||
		    !(m->nights[m->n_nights] = dash_sql_text(st, 0))) {
			sqlite3_finalize(st);
			return rig_err_set(err, RIG_EXIT_INFRA, "dashboard: out of memory loading nights");
		}
		m->n_nights++;
	}
	return dash_sql_finish(sql, st, rc, "nights", err);
}

/* Both lists are ordered by run id, so one merge pass hands each run its slice. */
static int attach_sums(struct dash_model *m, const int64_t *run_ids, struct rig_err *err)
{
	struct dash_run **by_id = dash_runs_by_id(m, err);
	size_t i = 0;

	if (!by_id)
		return -1;
	for (size_t r = 0; r < m->n_runs; r++) {
		while (i < m->n_sums && run_ids[i] < by_id[r]->id)
			i++;
		by_id[r]->verdicts = &m->sums[i];
		while (i < m->n_sums && run_ids[i] == by_id[r]->id)
			i++;
		by_id[r]->n_verdicts = (size_t)(&m->sums[i] - by_id[r]->verdicts);
	}
	free(by_id);
	return 0;
}

static int group_boards(struct dash_model *m, struct rig_err *err)
{
	size_t cap = 0;

	for (size_t i = 0; i < m->n_runs; i++) {
		struct dash_board *b;

		if (m->n_boards && strcmp(m->boards[m->n_boards - 1].name, m->runs[i].board) == 0) {
			m->boards[m->n_boards - 1].n_runs++;
			continue;
		}
		if (dash_grow((void **)&m->boards, &cap, m->n_boards, sizeof(*m->boards)))
			return rig_err_set(err, RIG_EXIT_INFRA, "dashboard: out of memory");
		b = &m->boards[m->n_boards++];
		*b = (struct dash_board){ .name = m->runs[i].board, .first = i, .n_runs = 1 };
		html_file_stem(b->name, b->stem, sizeof(b->stem));
	}
	return 0;
}

int dash_model_load(sqlite3 *sql, struct dash_model *model, struct rig_err *err)
{
	int64_t *run_ids = NULL;
	int ret;

	*model = (struct dash_model){ 0 };
	ret = load_runs(sql, model, err);
	if (!ret)
		ret = load_sums(sql, model, &run_ids, err);
	if (!ret)
		ret = load_nights(sql, model, err);
	if (!ret)
		ret = attach_sums(model, run_ids, err);
	if (!ret)
		ret = group_boards(model, err);
	free(run_ids);
	if (ret)
		dash_model_free(model);
	return ret;
}

void dash_model_free(struct dash_model *m)
{
	for (size_t i = 0; i < m->n_runs; i++)
		free_run(&m->runs[i]);
	for (size_t i = 0; i < m->n_sums; i++)
		free(m->sums[i].name), free(m->sums[i].known_ids);
	for (size_t i = 0; i < m->n_nights; i++)
		free(m->nights[i]);
	free(m->runs), free(m->sums), free(m->boards), free(m->nights);
	*m = (struct dash_model){ 0 };
}

static int by_id(const void *a, const void *b)
{
	int64_t x = (*(struct dash_run *const *)a)->id, y = (*(struct dash_run *const *)b)->id;

	return (x > y) - (x < y);
}

struct dash_run **dash_runs_by_id(const struct dash_model *m, struct rig_err *err)
{
	struct dash_run **v = malloc((m->n_runs ? m->n_runs : 1) * sizeof(*v));

	if (!v) {
		rig_err_set(err, RIG_EXIT_INFRA, "dashboard: out of memory");
		return NULL;
	}
	for (size_t i = 0; i < m->n_runs; i++)
		v[i] = &m->runs[i];
	qsort(v, m->n_runs, sizeof(*v), by_id);
	return v;
}

struct dash_run *dash_find_run(struct dash_run **runs_by_id, size_t n, int64_t id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (runs_by_id[mid]->id == id)
			return runs_by_id[mid];
		if (runs_by_id[mid]->id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int dash_status_rank(const char *status)
{
	static const char *const order[] = { "none", "aborted", "infra", "running", "pass", "known",
					     "fail" };

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (status && strcmp(status, order[i]) == 0)
			return (int)i;
	return 0;
}
