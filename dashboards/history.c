#include "dashboards/history.h"

#include <string.h>

enum { SKIP = 0, GOOD = 1, BAD = -1 };

typedef int (*classify_fn)(const struct dash_run *r, const char *verdict);

static int classify_run(const struct dash_run *r, const char *verdict)
{
	(void)verdict;
	if (strcmp(r->status, "fail") == 0)
		return BAD;
	if (strcmp(r->status, "pass") == 0 || strcmp(r->status, "known") == 0)
		return GOOD;
	return SKIP;
}

static int classify_verdict(const struct dash_run *r, const char *verdict)
{
	const struct dash_verdict_sum *s = dash_run_verdict(r, verdict);

	if (!s)
		return SKIP;
	if (s->n_fail > 0)
		return BAD;
	return s->n_pass > 0 || s->n_known > 0 ? GOOD : SKIP;
}

static void walk(const struct dash_model *m, const struct dash_board *b, classify_fn classify,
		 const char *verdict, struct dash_history *h)
{
	const struct dash_run *good_before = NULL;
	int prev = SKIP;

	*h = (struct dash_history){ .trend = DASH_TREND_NONE };
	for (size_t i = b->first; i < b->first + b->n_runs; i++) {
		const struct dash_run *r = &m->runs[i];
		int c = classify(r, verdict);

		if (c == SKIP)
			continue;
		if (c == BAD && prev != BAD) {
			h->first_bad = r;
			h->last_good = good_before;
			h->fixed_by = NULL;
			h->n_bad = 0;
		}
		if (c == BAD)
			h->n_bad++;
		if (c == GOOD && prev == BAD)
			h->fixed_by = r;
		if (c == GOOD)
			good_before = r;
		h->latest = r;
		prev = c;
	}
	if (!h->latest)
		return;
	if (prev == GOOD)
		h->trend = DASH_TREND_OK;
	else
		h->trend = strcmp(h->first_bad->night, h->latest->night) == 0 ? DASH_TREND_NEW
									 : DASH_TREND_SINCE;
}

void dash_board_history(const struct dash_model *m, const struct dash_board *b,
			struct dash_history *h)
{
	walk(m, b, classify_run, NULL, h);
}

void dash_verdict_history(const struct dash_model *m, const struct dash_board *b,
			  const char *verdict, struct dash_history *h)
{
	walk(m, b, classify_verdict, verdict, h);
}

const struct dash_verdict_sum *dash_run_verdict(const struct dash_run *r, const char *name)
{
	for (size_t i = 0; i < r->n_verdicts; i++)
		if (strcmp(r->verdicts[i].name, name) == 0)
			return &r->verdicts[i];
	return NULL;
}
