/* The three kinds of page the dashboard writes (dashboard/ sources only). */
#ifndef RIG_DASHBOARD_PAGES_H
#define RIG_DASHBOARD_PAGES_H

#include <sqlite3.h>
#include <stdio.h>

#include "dashboard/model.h"
#include "dashboard/history.h"
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
int dash_write_run_pages(const struct dash_site *site, sqlite3 *sql, struct dash_model *m,
			 size_t *n_cycles, struct rig_err *err);

/* Shared bits of markup. */
void dash_write_run_link(FILE *f, const char *root, const struct dash_run *r);
void dash_write_history_text(FILE *f, const char *root, const struct dash_history *h);
const char *dash_knob_name(int knob);
/* Comma-separated failing verdict names and known-issue ids of a set of runs (deduplicated). */
void dash_write_failures(FILE *f, const struct dash_run *const *runs, size_t n);

#endif
