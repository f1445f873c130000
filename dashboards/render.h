/*
 * `rig dashboard`: the per-board pass/fail dashboard as a static site, from the results database.
 *
 *   OUT/index.html            board x night matrix and each board's regression line
 *   OUT/boards/<board>.html   history, pass rate per verdict, kernels and knobs, first bad/last good
 *   OUT/runs/<id>.html        cycles, verdicts, phase timings, trends, hang console tails
 *   OUT/bisects/<id>.html     a bisect (rig bisect): its answer and every step with its runs
 *
 * No script and no external resource: the site works from file:// and any web server. Every
 * string from the database is HTML-escaped. Rendering reads each table once (GROUP BY summaries
 * plus one ordered stream per table; bisects are few and read whole), so it is linear in the size
 * of the history.
 */
#ifndef RIG_DASHBOARD_RENDER_H
#define RIG_DASHBOARD_RENDER_H

#include <stddef.h>

#include "util/err.h"

#define DASH_DEFAULT_OUT "out/dashboard"
#define DASH_DEFAULT_NIGHTS 14

struct dash_options {
	const char *db_path;
	const char *out_dir;        /* created if missing (and its parents) */
	int nights;                 /* night columns on the index; 0 = every night */
};

struct dash_stats {
	size_t boards, runs, cycles;
	double seconds;             /* wall time of the whole render */
};

int dash_render(const struct dash_options *opt, struct dash_stats *stats, struct rig_err *err);

#endif
