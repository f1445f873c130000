#include "dashboards/bisects.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/text_copy.h"

static int oom(struct rig_err *err)
{
	return rig_err_set(err, RIG_EXIT_INFRA, "dashboard: out of memory loading bisects");
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

struct loading {
	struct dash_bisects *b;
	size_t cap, at;
	struct rig_err *err;
};

static int add_bisect(void *ctx, const struct results_bisect_row *row)
{
	struct loading *l = ctx;
	struct dash_bisect *b;
	bool failed = false;

	if (array_grow((void **)&l->b->v, &l->cap, l->b->n, sizeof(*l->b->v)))
		return oom(l->err);
	b = &l->b->v[l->b->n];
	*b = (struct dash_bisect){
		.id = row->id,
		.board = text_copy(row->board, &failed), .plan = text_copy(row->plan, &failed),
		.good = text_copy(row->good, &failed), .bad = text_copy(row->bad, &failed),
		.status = text_copy(row->status, &failed), .result_commit = text_copy(row->result_commit, &failed),
		.confidence = row->confidence, .result_confidence = row->result_confidence,
		.started_at = row->started_at, .ended_at = row->ended_at,
	};
	if (failed) {
		free_bisect(b);
		return oom(l->err);
	}
	l->b->n++;
	return 0;
}

/* Both lists are in id order: walk them together. Steps of unknown bisects are skipped. */
static int add_step(void *ctx, const struct results_bisect_step_row *row)
{
	struct loading *l = ctx;
	struct dash_bisect *b;
	struct dash_bisect_step *s;
	bool failed = false;

	while (l->at < l->b->n && l->b->v[l->at].id < row->bisect_id)
		l->at++;
	if (l->at == l->b->n || l->b->v[l->at].id != row->bisect_id)
		return 0;
	b = &l->b->v[l->at];
	if (array_grow((void **)&b->steps, &b->cap_steps, b->n_steps, sizeof(*b->steps)))
		return oom(l->err);
	s = &b->steps[b->n_steps++];
	*s = (struct dash_bisect_step){
		.idx = row->idx, .commit = text_copy(row->commit, &failed), .cycles = row->cycles,
		.fails = row->fails, .verdict = text_copy(row->verdict, &failed), .at = row->at,
	};
	for (size_t i = 0; i < row->n_top && i < DASH_BISECT_TOP; i++) {
		s->top[i] = (struct dash_bisect_top){ .commit = text_copy(row->top[i].commit, &failed),
						      .p = row->top[i].p };
		s->n_top++;
	}
	b->n_cycles += s->cycles;
	return failed ? oom(l->err) : 0;
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

int dash_bisects_load(struct results_db *db, struct dash_bisects *b, struct rig_err *err)
{
	struct loading l = { .b = b, .err = err };
	int ret;

	*b = (struct dash_bisects){ 0 };
	ret = results_each_bisect(db, add_bisect, &l, err);
	if (!ret)
		ret = results_each_bisect_step(db, add_step, &l, err);
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
