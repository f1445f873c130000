#include "dashboards/model.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "dashboards/html.h"
#include "dashboards/sql.h"

/* %s: runs.lava_server, which schema version 1 databases (not migrated yet: the dashboard only
 * reads) lack. */
static const char runs_sql[] =
	"SELECT r.id, r.board, r.night, r.kernel_version, r.kernel_sha, r.plan, r.status,"
	" r.console_log, r.host, r.knob_freeze_filesystems, r.knob_sync_on_suspend, r.started_at,"
	" r.ended_at, COALESCE(c.n, 0), COALESCE(c.n_failed, 0), r.source, r.lava_job_id, %s"
	" FROM runs r LEFT JOIN (SELECT run_id, count(*) AS n, sum(status <> 'pass') AS n_failed"
	"  FROM cycles GROUP BY run_id) c ON c.run_id = r.id"
	" ORDER BY r.board, r.started_at, r.id";

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
		.source = dash_sql_text(st, 15), .lava_job_id = dash_sql_text(st, 16),
		.lava_server = dash_sql_text(st, 17),
	};
	return dash_sql_text_ok(st, 15, r->source) && dash_sql_text_ok(st, 16, r->lava_job_id) &&
	       dash_sql_text_ok(st, 17, r->lava_server) &&
	       dash_sql_text_ok(st, 1, r->board) && dash_sql_text_ok(st, 2, r->night) &&
	       dash_sql_text_ok(st, 3, r->kernel) && dash_sql_text_ok(st, 4, r->sha) &&
	       dash_sql_text_ok(st, 5, r->plan) && dash_sql_text_ok(st, 6, r->status) &&
	       dash_sql_text_ok(st, 7, r->console_log) && dash_sql_text_ok(st, 8, r->host) ? 0 : -1;
}

static void free_run(struct dash_run *r)
{
	for (size_t i = 0; i < r->n_verdicts; i++)
		free(r->verdicts[i].name), free(r->verdicts[i].known_ids);
	free(r->verdicts);
	free(r->board), free(r->night), free(r->kernel), free(r->sha), free(r->plan);
	free(r->status), free(r->console_log), free(r->host);
	free(r->source), free(r->lava_job_id), free(r->lava_server);
}

static int has_lava_server(sqlite3 *sql)
{
	sqlite3_stmt *st;
	int version = 0;

	if (sqlite3_prepare_v2(sql, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
		return 0;
	if (sqlite3_step(st) == SQLITE_ROW)
		version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return version >= 2;
}

static int load_runs(sqlite3 *sql, struct dash_model *m, struct rig_err *err)
{
	char text[sizeof(runs_sql) + 32];
	size_t cap = 0;
	sqlite3_stmt *st;
	int rc;

	snprintf(text, sizeof(text), runs_sql, has_lava_server(sql) ? "r.lava_server" : "NULL");
	if (dash_sql_prepare(sql, text, &st, err))
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
	int ret;

	*model = (struct dash_model){ 0 };
	ret = load_runs(sql, model, err);
	if (!ret)
		ret = load_nights(sql, model, err);
	if (!ret)
		ret = group_boards(model, err);
	if (!ret)
		ret = dash_bisects_load(sql, &model->bisects, err);
	if (ret)
		dash_model_free(model);
	return ret;
}

void dash_model_free(struct dash_model *m)
{
	for (size_t i = 0; i < m->n_runs; i++)
		free_run(&m->runs[i]);
	for (size_t i = 0; i < m->n_nights; i++)
		free(m->nights[i]);
	free(m->runs), free(m->boards), free(m->nights);
	dash_bisects_free(&m->bisects);
	*m = (struct dash_model){ 0 };
}

static int board_cmp(const void *key, const void *elem)
{
	return strcmp(key, ((const struct dash_board *)elem)->name);
}

/* Boards are in name order: the runs query sorts by board, and SQLite's BINARY is strcmp's. */
const struct dash_board *dash_model_board(const struct dash_model *m, const char *name)
{
	return name ? bsearch(name, m->boards, m->n_boards, sizeof(*m->boards), board_cmp) : NULL;
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

int dash_status_rank(const char *status)
{
	static const char *const order[] = { "none", "aborted", "infra", "running", "pass", "known",
					     "fail" };

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (status && strcmp(status, order[i]) == 0)
			return (int)i;
	return 0;
}

/* The summary of verdict name in r, inserted in name order if new; NULL when out of memory. */
static struct dash_verdict_sum *sum_for(struct dash_run *r, size_t *cap, const char *name)
{
	size_t at = 0;
	int cmp = 1;

	while (at < r->n_verdicts && (cmp = strcmp(r->verdicts[at].name, name)) < 0)
		at++;
	if (at < r->n_verdicts && cmp == 0)
		return &r->verdicts[at];
	if (dash_grow((void **)&r->verdicts, cap, r->n_verdicts, sizeof(*r->verdicts)))
		return NULL;
	memmove(&r->verdicts[at + 1], &r->verdicts[at], (r->n_verdicts - at) * sizeof(*r->verdicts));
	r->verdicts[at] = (struct dash_verdict_sum){ .name = strdup(name) };
	r->n_verdicts++;
	return r->verdicts[at].name ? &r->verdicts[at] : NULL;
}

/* Append id to the comma-separated list unless it is there already. */
static int add_known(char **list, const char *id)
{
	size_t old = *list ? strlen(*list) : 0, len = strlen(id);
	char *grown;

	for (const char *p = *list; p && *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ','))
		if (strcspn(p, ",") == len && strncmp(p, id, len) == 0)
			return 0;
	grown = realloc(*list, old + len + 2);
	if (!grown)
		return -1;
	if (old)
		grown[old++] = ',';
	memcpy(grown + old, id, len + 1);
	*list = grown;
	return 0;
}

static int count_verdict(struct dash_verdict_sum *s, const struct rs_verdict *v)
{
	bool failed = strcmp(v->result, "fail") == 0 || strcmp(v->result, "error") == 0;

	s->n_pass += strcmp(v->result, "pass") == 0;
	s->n_skip += strcmp(v->result, "skip") == 0;
	s->n_fail += failed && !v->known_issue;
	s->n_known += failed && v->known_issue;
	return failed && v->known_issue ? add_known(&s->known_ids, v->known_issue) : 0;
}

int dash_run_summarize(struct dash_run *r, const struct rs_verdict *verdicts, size_t n,
		       struct rig_err *err)
{
	size_t cap = r->n_verdicts;

	for (size_t i = 0; i < n; i++) {
		struct dash_verdict_sum *s = sum_for(r, &cap, verdicts[i].name);

		if (!s || count_verdict(s, &verdicts[i]))
			return rig_err_set(err, RIG_EXIT_INFRA, "dashboard: out of memory");
	}
	return 0;
}
