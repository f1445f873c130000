/*
 * Bisects as other pages show them: status colours, short commits with the answer highlighted,
 * the board page's table of its bisects and the index's list of recent ones.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dashboards/html.h"
#include "dashboards/pages.h"

#define SHORT_SHA 12
#define MAX_RECENT 20

const char *dash_bisect_class(const char *status)
{
	static const char *const known[] = { "found", "range", "running", "inconclusive", "aborted" };

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (status && strcmp(status, known[i]) == 0)
			return known[i];
	return "infra";   /* error, or a status this dashboard does not know */
}

void dash_write_bisect_link(FILE *f, const char *root, const struct dash_bisect *b)
{
	html_rawf(f, "<a class=\"%s\" href=\"%sbisects/%lld.html\">#%lld</a>",
		  dash_bisect_class(b->status), root, (long long)b->id, (long long)b->id);
}

static bool is_status(const struct dash_bisect *b, const char *status)
{
	return b->status && strcmp(b->status, status) == 0;
}

/* "answer" for a found commit or range start; "likely" for an inconclusive bisect's best guess. */
static const char *highlight(const struct dash_bisect *b, const char *sha)
{
	if (!b || !sha || !b->result_commit || strcmp(sha, b->result_commit) != 0)
		return NULL;
	return is_status(b, "found") || is_status(b, "range") ? "answer" : "likely";
}

void dash_write_commit(FILE *f, const struct dash_bisect *b, const char *sha)
{
	char short_sha[SHORT_SHA + 1];
	const char *cls = highlight(b, sha);
	size_t n;

	if (!sha) {
		html_raw(f, "&ndash;");
		return;
	}
	n = strnlen(sha, SHORT_SHA);
	memcpy(short_sha, sha, n);
	short_sha[n] = '\0';
	html_raw(f, "<code");
	if (cls)
		html_rawf(f, " class=\"%s\"", cls);
	html_raw(f, " title=\"");
	html_text(f, sha);
	html_raw(f, "\">");
	html_text(f, short_sha);
	html_raw(f, "</code>");
}

static void write_p(FILE *f, double p)
{
	if (isfinite(p) && p >= 0)
		html_rawf(f, " (%.3f)", p);
}

void dash_write_bisect_answer(FILE *f, const struct dash_bisect *b)
{
	const struct dash_bisect_step *last = b->n_steps ? &b->steps[b->n_steps - 1] : NULL;

	if (b->result_commit) {
		if (is_status(b, "range"))
			html_raw(f, "a range from ");
		else if (!is_status(b, "found"))
			html_raw(f, "most probable ");
		dash_write_commit(f, b, b->result_commit);
		write_p(f, b->result_confidence);
	} else if (is_status(b, "running") && last && last->n_top) {
		html_raw(f, "leading so far ");
		dash_write_commit(f, b, last->top[0].commit);
		write_p(f, last->top[0].p);
	} else {
		html_raw(f, "&ndash;");
	}
}

static void write_legend(FILE *f)
{
	html_raw(f, "<p><small>legend: <span class=\"found\">found</span> one commit at the "
		    "confidence asked, <span class=\"range\">range</span> skipped commits left a "
		    "range, <span class=\"running\">running</span>, <span class=\"inconclusive\">"
		    "inconclusive / aborted / error</span>; <code class=\"answer\">answer</code>"
		    "</small></p>\n");
}

static void write_board_row(FILE *f, const struct dash_bisect *b)
{
	char started[64];

	dash_format_time(b->started_at, false, started, sizeof(started));
	html_raw(f, "<tr><td>");
	dash_write_bisect_link(f, "../", b);
	html_rawf(f, "</td><td>%s</td><td>", started);
	dash_write_commit(f, b, b->good);
	html_raw(f, "..");
	dash_write_commit(f, b, b->bad);
	html_raw(f, "</td><td>");
	html_text(f, b->plan);
	html_rawf(f, "</td><td class=\"%s\">", dash_bisect_class(b->status));
	html_text(f, b->status);
	html_raw(f, "</td><td>");
	dash_write_bisect_answer(f, b);
	html_rawf(f, "</td><td>%zu</td><td>%ld</td></tr>\n", b->n_steps, b->n_cycles);
}

void dash_write_board_bisects(FILE *f, const struct dash_model *m, const struct dash_board *b)
{
	size_t first, n = dash_bisects_of_board(&m->bisects, b->name, &first);

	if (!n)
		return;
	html_raw(f, "<h2>Bisects (newest first)</h2>\n");
	write_legend(f);
	html_raw(f, "<table id=\"bisects\"><tr><th>bisect</th>"
		    "<th>started</th><th>good..bad</th><th>plan</th><th>status</th>"
		    "<th>first bad commit (confidence)</th><th>steps</th><th>cycles</th></tr>\n");
	for (size_t i = first; i < first + n; i++)
		write_board_row(f, &m->bisects.v[i]);
	html_raw(f, "</table>\n");
}

/* When the bisect last did something: its end, else its last step, else its start. */
static double last_activity(const struct dash_bisect *b)
{
	if (!isnan(b->ended_at))
		return b->ended_at;
	return b->n_steps && !isnan(b->steps[b->n_steps - 1].at) ? b->steps[b->n_steps - 1].at
								  : b->started_at;
}

/* Nights are local dates, as the rig writes runs.night. */
static bool active_since(const struct dash_bisect *b, const char *since)
{
	time_t t = (time_t)last_activity(b);
	char night[16];
	struct tm tm;

	if (!since)
		return true;
	if (isnan(last_activity(b)) || !localtime_r(&t, &tm) ||
	    !strftime(night, sizeof(night), "%Y-%m-%d", &tm))
		return false;
	return strcmp(night, since) >= 0;
}

static int by_activity(const void *pa, const void *pb)
{
	double a = last_activity(*(const struct dash_bisect *const *)pa);
	double b = last_activity(*(const struct dash_bisect *const *)pb);

	return (a < b) - (a > b);
}

static void write_recent(FILE *f, const struct dash_model *m, const struct dash_bisect *b)
{
	const struct dash_board *board = dash_model_board(m, b->board);

	html_raw(f, "<li>bisect ");
	dash_write_bisect_link(f, "", b);
	html_raw(f, " on ");
	if (board)
		html_rawf(f, "<a href=\"boards/%s.html\">", board->stem);
	html_text(f, b->board);
	html_raw(f, board ? "</a> (" : " (");
	html_text(f, b->plan ? b->plan : "no plan");
	html_rawf(f, "): <span class=\"%s\">", dash_bisect_class(b->status));
	html_text(f, b->status);
	html_raw(f, "</span> ");
	dash_write_bisect_answer(f, b);
	html_rawf(f, "; %zu steps, %ld cycles</li>\n", b->n_steps, b->n_cycles);
}

int dash_write_recent_bisects(FILE *f, const struct dash_model *m, const char *since,
			      struct rig_err *err)
{
	const struct dash_bisect **list = malloc((m->bisects.n ? m->bisects.n : 1) * sizeof(*list));
	size_t n = 0;

	if (!list)
		return rig_err_set(err, RIG_EXIT_INFRA, "dashboard: out of memory");
	for (size_t i = 0; i < m->bisects.n; i++)
		if (active_since(&m->bisects.v[i], since) || !dash_model_board(m, m->bisects.v[i].board))
			list[n++] = &m->bisects.v[i];
	qsort(list, n, sizeof(*list), by_activity);
	if (n) {
		html_raw(f, "<h2>Recent bisects</h2>\n");
		write_legend(f);
		html_raw(f, "<ul id=\"bisects\">\n");
	}
	for (size_t i = 0; i < n && i < MAX_RECENT; i++)
		write_recent(f, m, list[i]);
	if (n > MAX_RECENT)
		html_rawf(f, "<li>and %zu more on the board pages</li>\n", n - MAX_RECENT);
	if (n)
		html_raw(f, "</ul>\n");
	free(list);
	return 0;
}
