/* The kinds of page the dashboard writes (dashboards/ sources only). */
#ifndef RIG_DASHBOARD_PAGES_H
#define RIG_DASHBOARD_PAGES_H

#include <stdbool.h>
#include <stdio.h>

#include "dashboards/model.h"
#include "dashboards/history.h"
#include "util/err.h"

struct dash_site {
	const char *out_dir;        /* as given: pages are written under it */
	const char *out_abs;        /* absolute, for links to console logs */
	const char *cwd;            /* relative artefact paths are relative to the rig's cwd */
	int nights;                 /* night columns on the index, newest first; 0 = all */
	const char *generated;      /* "2026-12-03 14:00 UTC", shown on every page */
};

int dash_write_index(const struct dash_site *site, const struct dash_model *m,
		     struct rig_err *err);
int dash_write_board_pages(const struct dash_site *site, const struct dash_model *m,
			   struct rig_err *err);
/*
 * Streams cycles, verdicts, measurements and artefacts once each, in run order, and fills each
 * run's verdict summary on the way: call it before the board and index pages.
 */
int dash_write_run_pages(const struct dash_site *site, struct results_db *db, struct dash_model *m,
			 size_t *n_cycles, struct rig_err *err);

/* bisects/<id>.html, one per bisect (page_bisect.c). */
int dash_write_bisect_pages(const struct dash_site *site, const struct dash_model *m,
			    struct rig_err *err);
/* The board page's "Bisects" table, newest first; nothing when the board has none. */
void dash_write_board_bisects(FILE *f, const struct dash_model *m, const struct dash_board *b);
/*
 * The index's list, most recently active first: bisects whose last activity (end, else last
 * step, else start) fell on or after night since (a "YYYY-MM-DD" local date; NULL: any), and
 * those of a board without a page (no runs yet). Nothing when there are none.
 */
int dash_write_recent_bisects(FILE *f, const struct dash_model *m, const char *since,
			      struct rig_err *err);

/* Shared bisect markup (bisect_summary.c); root as for html_page_open(). */
const char *dash_bisect_class(const char *status);
void dash_write_bisect_link(FILE *f, const char *root, const struct dash_bisect *b);
/* A commit as 12 characters with the full sha as tooltip, highlighted if it is b's answer. */
void dash_write_commit(FILE *f, const struct dash_bisect *b, const char *sha);
/* The answer and its confidence, the leading candidate of a running bisect, or a dash. */
void dash_write_bisect_answer(FILE *f, const struct dash_bisect *b);

/* Shared bits of markup. */
/* "#12", and for a LAVA run its source after it. */
void dash_write_run_link(FILE *f, const char *root, const struct dash_run *r);
/* "rig", or "LAVA job N" linked to the job's page on the server it was imported from. */
void dash_write_run_source(FILE *f, const struct dash_run *r);
void dash_write_history_text(FILE *f, const char *root, const struct dash_history *h);
const char *dash_knob_name(int knob);
/* "2026-12-03 14:00 UTC" (with seconds if asked), "-" for NAN. */
void dash_format_time(double t, bool seconds, char *buf, size_t size);
/* Comma-separated failing verdict names and known-issue ids of a set of runs (deduplicated). */
void dash_write_failures(FILE *f, const struct dash_run *const *runs, size_t n);

#endif
