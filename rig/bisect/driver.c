#include "bisect/driver.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct commit_state {
	char *artefact;        /* built; NULL = not yet */
	int unusable_steps;
};

struct drive {
	const struct history *h;
	const struct bisect_driver_params *params;
	const struct bisect_driver_ops *ops;
	void *ctx;
	struct bisect *b;
	struct commit_state *state;
	struct bisect_driver_result *res;
};

const char *bisect_status_name(enum bisect_status status)
{
	switch (status) {
	case BISECT_RUNNING: return "running";
	case BISECT_FOUND: return "found";
	case BISECT_RANGE: return "range";
	case BISECT_INCONCLUSIVE: return "inconclusive";
	}
	return "unknown";
}

static int check_params(const struct history *h, const struct bisect_driver_params *p,
			struct rig_err *err)
{
	if (h->n < 2)
		return rig_err_set(err, RIG_EXIT_USAGE, "bisect: need a good and a bad commit");
	if (!(p->confidence > 0.5 && p->confidence < 1.0))
		return rig_err_set(err, RIG_EXIT_USAGE, "bisect: confidence must be in (0.5, 1)");
	if (!(p->q >= 0.0 && p->q < 0.5))
		return rig_err_set(err, RIG_EXIT_USAGE, "bisect: false-alarm rate must be in [0, 0.5)");
	if (!(p->fail_rate >= 0.0 && p->fail_rate <= 1.0) || p->max_cycles < 0 ||
	    p->endpoint_fails < 1 || p->unusable_tries < 1 || p->history_fails < 0 ||
	    p->history_fails > p->history_cycles)
		return rig_err_set(err, RIG_EXIT_USAGE, "bisect: bad search parameters");
	return 0;
}

/* A history with merges is searched as a graph, so a culprit inside a merged branch is named
 * itself, not the merge; a line keeps the line's faster posterior. */
static int set_graph(struct drive *d)
{
	int *edges, n_edges, rc;

	if (history_is_line(d->h))
		return 0;
	if (history_edges(d->h, &edges, &n_edges) < 0)
		return -1;
	rc = bisect_set_graph(d->b, edges, n_edges);
	free(edges);
	return rc;
}

static int new_search(struct drive *d, struct rig_err *err)
{
	const struct bisect_driver_params *p = d->params;

	d->b = bisect_new((int)d->h->n, p->confidence, p->q);
	if (!d->b || set_graph(d) < 0 ||
	    (p->max_cycles && bisect_set_max_cycles(d->b, p->max_cycles + p->history_cycles) < 0) ||
	    (p->fail_rate > 0 && bisect_set_fail_rate(d->b, p->fail_rate) < 0) ||
	    bisect_set_endpoint_fails(d->b, p->endpoint_fails) < 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "bisect: cannot set up the search");
	int bad = (int)d->h->n - 1;
	for (int i = 0; i < p->history_cycles; i++) {
		if (bisect_observe(d->b, bad, i < p->history_fails) < 0)
			return rig_err_set(err, RIG_EXIT_INFRA, "bisect: cannot feed the bad commit's history");
	}
	return 0;
}

/* Cycles this bisect ran: the search's count less the history fed in before it. */
static int cycles_run(const struct drive *d)
{
	return bisect_cycles(d->b) - d->params->history_cycles;
}

static bool is_bad_endpoint(const struct drive *d, int idx)
{
	return (size_t)idx == d->h->n - 1;
}

/* 0 built, 1 skipped (reported), -1 stop. */
static int ensure_built(struct drive *d, int idx, const char **note, struct rig_err *err)
{
	char artefact[4096];
	int rc;

	if (d->state[idx].artefact)
		return 0;
	rc = d->ops->build(d->ctx, &d->h->commits[idx], artefact, sizeof(artefact), err);
	if (rc < 0)
		return -1;
	d->res->builds++;
	if (rc > 0) {
		if (is_bad_endpoint(d, idx))
			return rig_err_set(err, RIG_EXIT_INFRA, "the bad commit %.12s does not build: "
					   "nothing can be concluded", d->h->commits[idx].sha);
		bisect_skip(d->b, idx);
		*note = "build failed: skipped";
		return 1;
	}
	if (!(d->state[idx].artefact = strdup(artefact)))
		return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
	return 0;
}

/* Feed the outcomes to the search; returns how many were evidence. */
static int observe(struct drive *d, int idx, const char *outcomes)
{
	int used = 0;

	for (const char *o = outcomes; *o; o++) {
		if (*o != OUTCOME_PASS && *o != OUTCOME_FAIL && *o != OUTCOME_HANG)
			continue;
		if (bisect_observe(d->b, idx, *o != OUTCOME_PASS) == 0)
			used++;
	}
	return used;
}

static int test_commit(struct drive *d, int idx, char *outcomes, size_t size, const char **note,
		       struct rig_err *err)
{
	struct commit_state *st = &d->state[idx];

	if (d->ops->test(d->ctx, &d->h->commits[idx], st->artefact, outcomes, size, err) < 0)
		return -1;
	if (observe(d, idx, outcomes) > 0)
		return 0;
	if (++st->unusable_steps < d->params->unusable_tries) {
		*note = "no usable cycle: will retry";
		return 0;
	}
	if (is_bad_endpoint(d, idx))
		return rig_err_set(err, RIG_EXIT_INFRA, "the bad commit %.12s gave no usable cycle in "
				   "%d tries: check the board", d->h->commits[idx].sha, st->unusable_steps);
	bisect_skip(d->b, idx);
	*note = "no usable cycle: skipped";
	return 0;
}

static int report(struct drive *d, int idx, const char *outcomes, const char *note,
		  struct rig_err *err)
{
	struct bisect_step_report r = {
		.step = d->res->steps, .commit = idx, .c = &d->h->commits[idx], .outcomes = outcomes,
		.note = note, .cycles_total = cycles_run(d), .fail_rate = bisect_fail_rate(d->b),
	};

	r.n_top = bisect_top(d->b, DRIVER_TOP, r.top, r.top_p);
	d->res->steps++;
	return d->ops->step_done(d->ctx, &r, err);
}

static int one_step(struct drive *d, int idx, struct rig_err *err)
{
	char outcomes[DRIVER_MAX_OUTCOMES] = "";
	const char *note = NULL;
	int rc = ensure_built(d, idx, &note, err);

	if (rc < 0)
		return -1;
	if (rc == 0 && test_commit(d, idx, outcomes, sizeof(outcomes), &note, err) < 0)
		return -1;
	return report(d, idx, outcomes, note, err);
}

static void free_drive(struct drive *d)
{
	for (size_t i = 0; d->state && i < d->h->n; i++)
		free(d->state[i].artefact);
	free(d->state);
	bisect_free(d->b);
}

int bisect_drive(const struct history *h, const struct bisect_driver_params *params,
		 const struct bisect_driver_ops *ops, void *ctx, struct bisect_driver_result *res,
		 struct rig_err *err)
{
	struct drive d = { .h = h, .params = params, .ops = ops, .ctx = ctx, .res = res };
	int idx, rc = 0;

	memset(res, 0, sizeof(*res));
	if (check_params(h, params, err) < 0)
		return -1;
	if (!(d.state = calloc(h->n, sizeof(*d.state))))
		return rig_err_set(err, RIG_EXIT_INFRA, "bisect: out of memory");
	if (new_search(&d, err) < 0) {
		free_drive(&d);
		return -1;
	}
	while (rc == 0 && (idx = bisect_next(d.b)) >= 0)
		rc = one_step(&d, idx, err);
	bisect_verdict(d.b, &res->verdict);
	res->cycles = cycles_run(&d);
	free_drive(&d);
	return rc;
}
