/*
 * index.html: one row per board, one column per night (newest first). A night with several runs
 * of a board is one cell: its colour is the night's latest run (the board as the night left it,
 * matching the regression line), it counts the runs per status and links every one of them.
 * Below the matrix, the bisects active during the nights shown.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "dashboards/html.h"
#include "dashboards/pages.h"

struct cell {
	size_t lo, hi;       /* run indices of the board that may belong to this night */
	bool any;
};

/* Indexed by dash_status_rank(). */
static const char *const rank_class[] = { "none", "aborted", "infra", "running", "pass", "known",
					  "fail" };
static const char *const rank_word[] = { "not run", "aborted", "infra", "running", "pass",
					 "known", "fail" };
#define RANKS (sizeof(rank_word) / sizeof(rank_word[0]))

struct board_row {
	const struct dash_board *board;
	struct dash_history history;
};

static int trend_order(enum dash_trend t)
{
	switch (t) {
	case DASH_TREND_NEW: return 0;
	case DASH_TREND_SINCE: return 1;
	case DASH_TREND_NONE: return 2;
	case DASH_TREND_OK: return 3;
	}
	return 3;
}

/* Regressions first, so the lab sees them without scrolling. */
static int row_cmp(const void *a, const void *b)
{
	const struct board_row *x = a, *y = b;
	int d = trend_order(x->history.trend) - trend_order(y->history.trend);

	return d ? d : strcmp(x->board->name, y->board->name);
}

static int night_cmp(const void *key, const void *elem)
{
	return strcmp(key, *(char *const *)elem);
}

static long night_index(const struct dash_model *m, const char *night)
{
	char **hit = bsearch(night, m->nights, m->n_nights, sizeof(*m->nights), night_cmp);

	return hit ? (long)(hit - m->nights) : -1;
}

/* Runs are in start order and a night is the start's date, so each night is one slice. */
static void map_cells(const struct dash_model *m, const struct dash_board *b, size_t first_night,
		      struct cell *cells)
{
	for (size_t i = b->first; i < b->first + b->n_runs; i++) {
		long n = night_index(m, m->runs[i].night);
		struct cell *c;

		if (n < (long)first_night)
			continue;
		c = &cells[(size_t)n - first_night];
		if (!c->any)
			c->lo = i;
		c->hi = i + 1;
		c->any = true;
	}
}

/* "20 fail, 15 known, 2 pass": what else happened on a night with several runs. */
static void write_counts(FILE *f, const struct dash_run *const *runs, size_t n)
{
	size_t counts[RANKS] = { 0 };
	bool first = true;

	for (size_t i = 0; i < n; i++)
		counts[dash_status_rank(runs[i]->status)]++;
	html_rawf(f, " <small>%zu runs:", n);
	for (size_t r = RANKS; r-- > 0;)
		if (counts[r]) {
			html_rawf(f, "%s %zu %s", first ? "" : ",", counts[r], rank_word[r]);
			first = false;
		}
	html_raw(f, "</small>");
}

static void write_cell(FILE *f, const struct dash_model *m, const struct dash_board *b,
		       const char *night, const struct cell *c, const struct dash_run **runs)
{
	size_t n = 0;
	int latest;

	for (size_t i = c->any ? c->lo : 0; c->any && i < c->hi; i++)
		if (strcmp(m->runs[i].night, night) == 0)
			runs[n++] = &m->runs[i];
	latest = n ? dash_status_rank(runs[n - 1]->status) : 0;
	html_rawf(f, "<td class=\"cell %s\" data-board=\"", rank_class[latest]);
	html_text(f, b->name);
	html_raw(f, "\" data-night=\"");
	html_text(f, night);
	html_rawf(f, "\"><span class=\"st\">%s</span>", rank_word[latest]);
	if (n == 0) {
		html_raw(f, "</td>");
		return;
	}
	if (n > 1)
		write_counts(f, runs, n);
	html_raw(f, "<div class=\"runs\">");
	for (size_t i = 0; i < n; i++)
		dash_write_run_link(f, "", runs[i]);
	html_raw(f, "</div>");
	dash_write_failures(f, runs, n);
	html_raw(f, "</td>");
}

static int write_row(FILE *f, const struct dash_model *m, const struct board_row *row,
		     size_t first_night, struct rig_err *err)
{
	size_t n_cols = m->n_nights - first_night;
	struct cell *cells = calloc(n_cols ? n_cols : 1, sizeof(*cells));
	const struct dash_run **runs = malloc(row->board->n_runs * sizeof(*runs));

	if (!cells || !runs) {
		free(cells), free(runs);
		return rig_err_set(err, RIG_EXIT_INFRA, "dashboard: out of memory");
	}
	map_cells(m, row->board, first_night, cells);
	html_rawf(f, "<tr><th><a href=\"boards/%s.html\">", row->board->stem);
	html_text(f, row->board->name);
	html_raw(f, "</a></th><td class=\"trend\">");
	dash_write_history_text(f, "", &row->history);
	html_raw(f, "</td>");
	for (size_t c = n_cols; c-- > 0;)
		write_cell(f, m, row->board, m->nights[first_night + c], &cells[c], runs);
	html_raw(f, "</tr>\n");
	free(cells), free(runs);
	return 0;
}

static void write_header(FILE *f, const struct dash_site *site, const struct dash_model *m,
			 size_t first_night)
{
	html_raw(f, "<h1>suspend-rig: boards by night</h1><p><small>generated ");
	html_text(f, site->generated);
	html_rawf(f, " &middot; %zu boards, %zu runs &middot; legend: ", m->n_boards, m->n_runs);
	html_raw(f, "<span class=\"pass\">pass</span> <span class=\"fail\">fail</span> "
		    "<span class=\"known\">known issue only</span> "
		    "<span class=\"infra\">infra / aborted / not run</span></small></p>\n");
	html_raw(f, "<table id=\"matrix\"><thead><tr><th>board</th><th>regression</th>");
	for (size_t c = m->n_nights; c-- > first_night;) {
		html_raw(f, "<th>");
		html_text(f, m->nights[c]);
		html_raw(f, "</th>");
	}
	html_raw(f, "</tr></thead><tbody>\n");
}

int dash_write_index(const struct dash_site *site, const struct dash_model *m,
		     struct rig_err *err)
{
	size_t first_night = site->nights > 0 && (size_t)site->nights < m->n_nights
				     ? m->n_nights - (size_t)site->nights : 0;
	struct board_row *rows = calloc(m->n_boards ? m->n_boards : 1, sizeof(*rows));
	FILE *f;
	int ret = 0;

	if (!rows)
		return rig_err_set(err, RIG_EXIT_INFRA, "dashboard: out of memory");
	for (size_t i = 0; i < m->n_boards; i++) {
		rows[i].board = &m->boards[i];
		dash_board_history(m, &m->boards[i], &rows[i].history);
	}
	qsort(rows, m->n_boards, sizeof(*rows), row_cmp);
	f = html_page_open(site->out_dir, "index.html", "suspend-rig dashboard", "", err);
	if (!f) {
		free(rows);
		return -1;
	}
	write_header(f, site, m, first_night);
	for (size_t i = 0; i < m->n_boards && !ret; i++)
		ret = write_row(f, m, &rows[i], first_night, err);
	html_raw(f, "</tbody></table>\n");
	if (m->n_boards == 0)
		html_raw(f, "<p>No runs in the results database yet.</p>");
	if (!ret)
		ret = dash_write_recent_bisects(f, m, m->n_nights ? m->nights[first_night] : NULL, err);
	free(rows);
	if (ret) {
		fclose(f);
		return -1;
	}
	return html_page_close(f, "index.html", err);
}
