#include "results/bisects.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>

#include "results/db_internal.h"

/* Prepare sql, let bind() fill it, run it once; the one shape every bisect write has. */
static int write_row(struct results_db *db, const char *sql, const char *what,
		     void (*bind)(struct results_binder *, const void *), const void *arg,
		     struct rig_err *err)
{
	struct results_binder b = { 0 };
	int ret;

	if (results_db_prepare(db, sql, &b.stmt, err))
		return -1;
	bind(&b, arg);
	ret = results_bind_check(db, &b, what, err);
	if (ret == 0)
		ret = results_db_step_done(db, b.stmt, what, err);
	sqlite3_finalize(b.stmt);
	return ret;
}

static void bind_begin(struct results_binder *b, const void *arg)
{
	const struct results_bisect_info *info = arg;

	results_bind_text(b, ":board", info->board);
	results_bind_text(b, ":plan", info->plan);
	results_bind_text(b, ":good", info->good);
	results_bind_text(b, ":bad", info->bad);
	results_bind_real(b, ":confidence", info->confidence > 0 ? info->confidence : NAN);
	results_bind_real(b, ":at", results_now());
}

int results_bisect_begin(struct results_db *db, const struct results_bisect_info *info,
			 int64_t *bisect_id, struct rig_err *err)
{
	if (!info->board || !info->good || !info->bad)
		return rig_err_set(err, RIG_EXIT_USAGE, "results: a bisect needs a board, good and bad");
	if (write_row(db, "INSERT INTO bisects (board, plan, good, bad, confidence, status, started_at)"
		      " VALUES (:board, :plan, :good, :bad, :confidence, 'running', :at)",
		      "insert bisect", bind_begin, info, err))
		return -1;
	*bisect_id = sqlite3_last_insert_rowid(db->sql);
	return 0;
}

static char *top_json(const struct results_bisect_step *step)
{
	json_t *arr = json_array();
	char *text;

	for (size_t i = 0; arr && i < step->n_top; i++)
		if (json_array_append_new(arr, json_pack("{sssf}", "commit", step->top_commits[i], "p",
							 step->top_probs[i]))) {
			json_decref(arr);
			return NULL;
		}
	text = arr ? json_dumps(arr, JSON_COMPACT) : NULL;
	json_decref(arr);
	return text;
}

struct step_row {
	int64_t bisect_id;
	const struct results_bisect_step *step;
	const char *top;
};

static void bind_step(struct results_binder *b, const void *arg)
{
	const struct step_row *r = arg;

	results_bind_int64(b, ":bisect_id", r->bisect_id);
	results_bind_int64(b, ":idx", r->step->idx);
	results_bind_text(b, ":commit", r->step->commit);
	results_bind_int64(b, ":cycles", r->step->cycles);
	results_bind_int64(b, ":fails", r->step->fails);
	results_bind_text(b, ":verdict", r->step->verdict);
	results_bind_text(b, ":top", r->top);
	results_bind_real(b, ":at", results_now());
}

int results_bisect_add_step(struct results_db *db, int64_t bisect_id,
			    const struct results_bisect_step *step, struct rig_err *err)
{
	struct step_row row = { .bisect_id = bisect_id, .step = step };
	char *top;
	int ret;

	if (!step->commit)
		return rig_err_set(err, RIG_EXIT_USAGE, "results: a bisect step needs a commit");
	top = top_json(step);
	if (!top)
		return rig_err_set(err, RIG_EXIT_INFRA, "results: cannot encode the bisect posterior");
	row.top = top;
	ret = write_row(db, "INSERT INTO bisect_steps (bisect_id, idx, \"commit\", cycles, fails,"
			" verdict, posterior_top3, at) VALUES (:bisect_id, :idx, :commit, :cycles,"
			" :fails, :verdict, :top, :at)", "insert bisect step", bind_step, &row, err);
	free(top);
	return ret;
}

struct end_row {
	int64_t bisect_id;
	const char *status, *commit;
	double confidence;
};

static void bind_end(struct results_binder *b, const void *arg)
{
	const struct end_row *r = arg;

	results_bind_int64(b, ":id", r->bisect_id);
	results_bind_text(b, ":status", r->status);
	results_bind_text(b, ":commit", r->commit);
	results_bind_real(b, ":confidence", r->confidence);
	results_bind_real(b, ":at", results_now());
}

int results_bisect_end(struct results_db *db, int64_t bisect_id, const char *status,
		       const char *result_commit, double result_confidence, struct rig_err *err)
{
	struct end_row row = { bisect_id, status, result_commit, result_confidence };

	if (!status)
		return rig_err_set(err, RIG_EXIT_USAGE, "results: a bisect needs an end status");
	if (write_row(db, "UPDATE bisects SET status = :status, result_commit = :commit,"
		      " result_confidence = :confidence, ended_at = :at WHERE id = :id",
		      "end bisect", bind_end, &row, err))
		return -1;
	if (sqlite3_changes(db->sql) != 1)
		return rig_err_set(err, RIG_EXIT_INFRA, "results db %s: no bisect %lld to end",
				   db->path, (long long)bisect_id);
	return 0;
}
