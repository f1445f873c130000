#include "dashboards/bisects.h"

#include <stdlib.h>
#include <string.h>

#include "dashboards/sql.h"

static const char bisects_sql[] =
	"SELECT id, board, plan, good, bad, status, result_commit, confidence, result_confidence,"
	" started_at, ended_at FROM bisects ORDER BY id";

/* json_valid first: json_extract raises an error on malformed text, which would stop the site. */
static const char steps_sql[] =
	"SELECT bisect_id, idx, \"commit\", cycles, fails, verdict, at,"
	" json_extract(j, '$[0].commit'), json_extract(j, '$[0].p'),"
	" json_extract(j, '$[1].commit'), json_extract(j, '$[1].p'),"
	" json_extract(j, '$[2].commit'), json_extract(j, '$[2].p')"
	" FROM (SELECT *, CASE WHEN json_valid(posterior_top3) THEN posterior_top3 END AS j"
	"  FROM bisect_steps) ORDER BY bisect_id, idx";

#define STEP_TOP_COL 7

static int oom(struct rig_err *err)
{
	return rig_err_set(err, RIG_EXIT_INFRA, "dashboard: out of memory loading bisects");
}

static int read_bisect(sqlite3_stmt *st, struct dash_bisect *b)
{
	*b = (struct dash_bisect){
		.id = sqlite3_column_int64(st, 0),
		.board = dash_sql_text(st, 1), .plan = dash_sql_text(st, 2),
		.good = dash_sql_text(st, 3), .bad = dash_sql_text(st, 4),
		.status = dash_sql_text(st, 5), .result_commit = dash_sql_text(st, 6),
		.confidence = dash_sql_real(st, 7), .result_confidence = dash_sql_real(st, 8),
		.started_at = dash_sql_real(st, 9), .ended_at = dash_sql_real(st, 10),
	};
	return dash_sql_text_ok(st, 1, b->board) && dash_sql_text_ok(st, 2, b->plan) &&
	       dash_sql_text_ok(st, 3, b->good) && dash_sql_text_ok(st, 4, b->bad) &&
	       dash_sql_text_ok(st, 5, b->status) && dash_sql_text_ok(st, 6, b->result_commit)
	       ? 0 : -1;
}

static void free_step(struct dash_bisect_step *s)
{
	free(s->commit), free(s->verdict);
	for (size_t i = 0; i < s->n_top; i++)
		free(s->top[i].commit);
}

static void free_bisect(struct dash_bisect *b)
{
	for (size_t i = 0; i < b->n_steps; i++)
		free_step(&b->steps[i]);
	free(b->steps);
	free(b->board), free(b->plan), free(b->good), free(b->bad), free(b->status);
	free(b->result_commit);
}

static int load_bisects(sqlite3 *sql, struct dash_bisects *b, struct rig_err *err)
{
	size_t cap = 0;
	sqlite3_stmt *st;
	int rc;

	if (dash_sql_prepare(sql, bisects_sql, &st, err))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (dash_grow((void **)&b->v, &cap, b->n, sizeof(*b->v))) {
			sqlite3_finalize(st);
			return oom(err);
		}
		if (read_bisect(st, &b->v[b->n])) {
			free_bisect(&b->v[b->n]);
			sqlite3_finalize(st);
			return oom(err);
		}
		b->n++;
	}
	return dash_sql_finish(sql, st, rc, "bisects", err);
}

/* The posterior pairs present in the row; a pair without a commit ends the list. */
static int read_top(sqlite3_stmt *st, struct dash_bisect_step *s)
{
	for (int i = 0; i < DASH_BISECT_TOP; i++) {
		int col = STEP_TOP_COL + 2 * i;

		if (sqlite3_column_type(st, col) == SQLITE_NULL)
			break;
		s->top[i] = (struct dash_bisect_top){ .commit = dash_sql_text(st, col),
						      .p = dash_sql_real(st, col + 1) };
		if (!s->top[i].commit)
			return -1;
		s->n_top++;
	}
	return 0;
}

static int read_step(sqlite3_stmt *st, struct dash_bisect *b)
{
	struct dash_bisect_step *s;

	if (dash_grow((void **)&b->steps, &b->cap_steps, b->n_steps, sizeof(*b->steps)))
		return -1;
	s = &b->steps[b->n_steps++];
	*s = (struct dash_bisect_step){
		.idx = sqlite3_column_int(st, 1), .commit = dash_sql_text(st, 2),
		.cycles = sqlite3_column_int(st, 3), .fails = sqlite3_column_int(st, 4),
		.verdict = dash_sql_text(st, 5), .at = dash_sql_real(st, 6),
	};
	b->n_cycles += s->cycles;
	return dash_sql_text_ok(st, 2, s->commit) && dash_sql_text_ok(st, 5, s->verdict) ?
		read_top(st, s) : -1;
}

/* Both lists are in id order: walk them together. Steps of unknown bisects are skipped. */
static int load_steps(sqlite3 *sql, struct dash_bisects *b, struct rig_err *err)
{
	size_t at = 0;
	sqlite3_stmt *st;
	int rc;

	if (dash_sql_prepare(sql, steps_sql, &st, err))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);

		while (at < b->n && b->v[at].id < id)
			at++;
		if (at == b->n || b->v[at].id != id)
			continue;
		if (read_step(st, &b->v[at])) {
			sqlite3_finalize(st);
			return oom(err);
		}
	}
	return dash_sql_finish(sql, st, rc, "bisect steps", err);
}

static int newer_first(double a, double b)
{
	return (a < b) - (a > b);
}

static int by_board_newest(const void *pa, const void *pb)
{
	const struct dash_bisect *a = pa, *b = pb;
	int d = strcmp(a->board, b->board);

	if (d)
		return d;
	d = newer_first(a->started_at, b->started_at);
	return d ? d : (a->id < b->id) - (a->id > b->id);
}

int dash_bisects_load(sqlite3 *sql, struct dash_bisects *b, struct rig_err *err)
{
	int ret;

	*b = (struct dash_bisects){ 0 };
	ret = load_bisects(sql, b, err);
	if (!ret)
		ret = load_steps(sql, b, err);
	if (ret) {
		dash_bisects_free(b);
		return -1;
	}
	if (b->n > 1)
		qsort(b->v, b->n, sizeof(*b->v), by_board_newest);
	return 0;
}

void dash_bisects_free(struct dash_bisects *b)
{
	for (size_t i = 0; i < b->n; i++)
		free_bisect(&b->v[i]);
	free(b->v);
	*b = (struct dash_bisects){ 0 };
}

size_t dash_bisects_of_board(const struct dash_bisects *b, const char *board, size_t *first)
{
	size_t i = 0, n = 0;

	while (i < b->n && strcmp(b->v[i].board, board) < 0)
		i++;
	*first = i;
	while (i + n < b->n && strcmp(b->v[i + n].board, board) == 0)
		n++;
	return n;
}

void dash_verdict_split(const char *verdict, size_t *n_letters, const char **note)
{
	size_t n = verdict ? strspn(verdict, "PFHI") : 0;

	/* Letters only count when they are a word of their own: "Pass" is a note. */
	if (verdict && verdict[n] != '\0' && verdict[n] != ' ')
		n = 0;
	*n_letters = n;
	*note = verdict && verdict[n] ? verdict + n + (verdict[n] == ' ' && n > 0) : NULL;
	if (*note && **note == '\0')
		*note = NULL;
}
