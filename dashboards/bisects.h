/*
 * The bisects `rig bisect` stored, loaded with two ordered walks (results/bisects.h) before any
 * page is written: pages look them up in memory and never query per run. A step's malformed
 * posterior reads as none rather than failing the render.
 */
#ifndef RIG_DASHBOARD_BISECTS_H
#define RIG_DASHBOARD_BISECTS_H

#include <stddef.h>
#include <stdint.h>

#include "results/bisects.h"
#include "util/err.h"

#define DASH_BISECT_TOP RESULTS_BISECT_TOP

struct dash_bisect_top {
	char *commit;
	double p;                     /* NAN when missing */
};

struct dash_bisect_step {
	int idx, cycles, fails;
	char *commit;
	char *verdict;                /* "PPHP", "PPHP no usable cycle: will retry", ... or NULL */
	double at;
	struct dash_bisect_top top[DASH_BISECT_TOP];
	size_t n_top;
};

/* Reals are NAN for SQL NULL: confidence not given, no answer yet, still running. */
struct dash_bisect {
	int64_t id;
	char *board, *plan, *good, *bad, *status, *result_commit;
	double confidence, result_confidence, started_at, ended_at;
	struct dash_bisect_step *steps;   /* by idx */
	size_t n_steps, cap_steps;
	long n_cycles;
};

/* By board, newest first within a board (started_at, then id, descending). */
struct dash_bisects {
	struct dash_bisect *v;
	size_t n;
};

int dash_bisects_load(struct results_db *db, struct dash_bisects *b, struct rig_err *err);
void dash_bisects_free(struct dash_bisects *b);

/* Board's bisects are b->v[*first .. *first + return value). */
size_t dash_bisects_of_board(const struct dash_bisects *b, const char *board, size_t *first);

/*
 * A step verdict is the cycle outcomes as letters (P pass, F fail, H hang, I unusable), then a
 * space and a note, or the note alone ("build failed: skipped"). Sets the number of leading
 * outcome letters and the note (NULL when there is none).
 */
void dash_verdict_split(const char *verdict, size_t *n_letters, const char **note);

#endif
