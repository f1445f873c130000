#include "dashboards/model.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "dashboards/html.h"
#include "results/read.h"
#include "util/array.h"
#include "util/text_copy.h"

static int read_run(const struct results_run_row *row, struct dash_run *r)
{
	bool oom = false;

	*r = (struct dash_run){
		.id = row->id,
		.board = text_copy(row->board, &oom), .night = text_copy(row->night, &oom),
		.kernel = text_copy(row->kernel_version, &oom), .sha = text_copy(row->kernel_sha, &oom),
		.plan = text_copy(row->plan, &oom), .status = text_copy(row->status, &oom),
		.console_log = text_copy(row->console_log, &oom), .host = text_copy(row->host, &oom),
		.knob_ff = row->knob_freeze_filesystems, .knob_sos = row->knob_sync_on_suspend,
		.started_at = row->started_at, .ended_at = row->ended_at,
		.n_cycles = row->n_cycles, .n_cycles_failed = row->n_cycles_failed,
		.n_cycles_fail = row->n_cycles_fail, .n_cycles_hang = row->n_cycles_hang,
		.n_cycles_infra = row->n_cycles_infra,
		.source = text_copy(row->source, &oom), .lava_job_id = text_copy(row->lava_job_id, &oom),
		.lava_server = text_copy(row->lava_server, &oom),
	};
	return oom ? -1 : 0;
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

struct loading {
	struct dash_model *m;
	size_t cap;
	struct rig_err *err;
};

static int add_run(void *ctx, const struct results_run_row *row)
{
	struct loading *l = ctx;
	struct dash_model *m = l->m;

	if (array_grow((void **)&m->runs, &l->cap, m->n_runs, sizeof(*m->runs)) ||
	    read_run(row, &m->runs[m->n_runs]) != 0) {
		if (m->n_runs < l->cap)
			free_run(&m->runs[m->n_runs]);
		return rig_err_set(l->err, RIG_EXIT_INFRA, "dashboard: out of memory loading runs");
	}
	m->n_runs++;
	return 0;
}

static int add_night(void *ctx, const char *night)
{
	struct loading *l = ctx;
	struct dash_model *m = l->m;

	if (array_grow((void **)&m->nights, &l->cap, m->n_nights, sizeof(*m->nights)) ||
	    !(m->nights[m->n_nights] = strdup(night ? night : "")))
		return rig_err_set(l->err, RIG_EXIT_INFRA, "dashboard: out of memory loading nights");
	m->n_nights++;
	return 0;
}

static int load_runs(struct results_db *db, struct dash_model *m, struct rig_err *err)
{
	struct loading l = { .m = m, .err = err };

	return results_each_run(db, add_run, &l, err);
}

static int load_nights(struct results_db *db, struct dash_model *m, struct rig_err *err)
{
	struct loading l = { .m = m, .err = err };

	return results_each_night(db, add_night, &l, err);
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
		if (array_grow((void **)&m->boards, &cap, m->n_boards, sizeof(*m->boards)))
			return rig_err_set(err, RIG_EXIT_INFRA, "dashboard: out of memory");
		b = &m->boards[m->n_boards++];
		*b = (struct dash_board){ .name = m->runs[i].board, .first = i, .n_runs = 1 };
		html_file_stem(b->name, b->stem, sizeof(b->stem));
	}
	return 0;
}

int dash_model_load(struct results_db *db, struct dash_model *model, struct rig_err *err)
{
	int ret;

	*model = (struct dash_model){ 0 };
	ret = load_runs(db, model, err);
	if (!ret)
		ret = load_nights(db, model, err);
	if (!ret)
		ret = group_boards(model, err);
	if (!ret)
		ret = dash_bisects_load(db, &model->bisects, err);
	if (!ret)
		ret = dash_slowest_load(db, &model->slowest, err);
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
	dash_slowest_free(&m->slowest);
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
	if (array_grow((void **)&r->verdicts, cap, r->n_verdicts, sizeof(*r->verdicts)))
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
