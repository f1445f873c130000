/*
 * What the overview pages (index, boards) need: the runs with their cycle counts and the
 * distinct nights (results/read.h, one query each). Each run's verdict summary (pass/fail/known
 * counts per verdict name) is filled by dash_run_summarize() while the run pages stream every
 * verdict once anyway (runstream.h): a GROUP BY over all verdicts was a third of render time.
 * The bisects come along (bisects.h): few rows, read once; so do the slowest device callbacks
 * per board, kernel and phase (slowest.h).
 */
#ifndef RIG_DASHBOARD_MODEL_H
#define RIG_DASHBOARD_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "dashboards/bisects.h"
#include "dashboards/runstream.h"
#include "dashboards/slowest.h"
#include "results/db.h"
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
	char *source, *lava_job_id, *lava_server;   /* source "rig" or "lava" */
	int knob_ff, knob_sos;
	double started_at, ended_at;
	int n_cycles, n_cycles_failed;
	int n_cycles_fail, n_cycles_hang, n_cycles_infra;   /* by status: even in an aborted run */
	struct dash_verdict_sum *verdicts;   /* by name; owned; filled by dash_run_summarize() */
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
	struct dash_board *boards;           /* by name */
	size_t n_boards;
	char **nights;                       /* distinct nights, ascending */
	size_t n_nights;
	struct dash_bisects bisects;         /* a board may have bisects before it has runs */
	struct dash_slowest slowest;         /* the slowest device callbacks, every board */
};

int dash_model_load(struct results_db *db, struct dash_model *model, struct rig_err *err);
void dash_model_free(struct dash_model *model);

/* The board called name, or NULL when it has no runs (so no page). */
const struct dash_board *dash_model_board(const struct dash_model *model, const char *name);

/* The model's runs sorted by id (the order run pages stream in); free() the array. */
struct dash_run **dash_runs_by_id(const struct dash_model *model, struct rig_err *err);

/* Add the run's verdict rows to its per-name summary. */
int dash_run_summarize(struct dash_run *r, const struct rs_verdict *verdicts, size_t n,
		       struct rig_err *err);

/* "fail" counts only failures without a known issue: the run status says it the same way. */
int dash_status_rank(const char *status);

#endif
