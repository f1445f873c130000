/*
 * What the overview pages (index, boards) need, loaded with three queries regardless of history
 * size: the runs with their cycle counts, and per run and verdict name the pass/fail/known
 * counts (GROUP BY in SQLite). The per-cycle detail of run pages is streamed separately
 * (runstream.h) so it never has to fit in memory at once.
 */
#ifndef RIG_DASHBOARD_MODEL_H
#define RIG_DASHBOARD_MODEL_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

#define DASH_STEM_MAX 128

/* One verdict name within one run, summed over the run's cycles. */
struct dash_verdict_sum {
	char *name;
	int n_pass;
	int n_fail;        /* fail or error without a known issue */
	int n_known;       /* fail or error matched to a known issue */
	int n_skip;
	char *known_ids;   /* comma-separated distinct known-issue ids, or NULL */
};

/* Knob values as stored: -1 unknown (NULL), 0 off, 1 on. */
struct dash_run {
	int64_t id;
	char *board, *night, *kernel, *sha, *plan, *status, *console_log, *host;
	int knob_ff, knob_sos;
	double started_at, ended_at;
	int n_cycles, n_cycles_failed;
	struct dash_verdict_sum *verdicts;   /* by name; points into the model's array */
	size_t n_verdicts;
};

/* A board's runs are the contiguous slice runs[first .. first + n_runs), oldest first. */
struct dash_board {
	const char *name;
	char stem[DASH_STEM_MAX];            /* boards/<stem>.html */
	size_t first, n_runs;
};

struct dash_model {
	struct dash_run *runs;               /* by board, then started_at, then id */
	size_t n_runs;
	struct dash_verdict_sum *sums;       /* by run id, then name */
	size_t n_sums;
	struct dash_board *boards;           /* by name */
	size_t n_boards;
	char **nights;                       /* distinct nights, ascending */
	size_t n_nights;
};

int dash_model_load(sqlite3 *sql, struct dash_model *model, struct rig_err *err);
void dash_model_free(struct dash_model *model);

/* The run with this id, or NULL; runs_by_id is the model's runs sorted by id (dash_runs_by_id). */
struct dash_run **dash_runs_by_id(const struct dash_model *model, struct rig_err *err);
struct dash_run *dash_find_run(struct dash_run **runs_by_id, size_t n, int64_t id);

/* "fail" counts only failures without a known issue: the run status says it the same way. */
int dash_status_rank(const char *status);

#endif
