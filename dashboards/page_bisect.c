/*
 * bisects/<id>.html: what the bisect was asked and what it answered, a chart of how sure it was
 * of its leading candidate after each step, then every step: the commit tested, its runs, the
 * cycle outcomes as coloured letters, the note, and the three most probable culprits.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "dashboards/html.h"
#include "dashboards/pages.h"
#include "dashboards/svg.h"

#define LABEL_MAX 48
#define BAR_ANSWER "#1a5fb4"
#define BAR_OTHER "#9fb8d8"

static void field(FILE *f, const char *name)
{
	html_rawf(f, "<tr><th>%s</th><td>", name);
}

static void end_field(FILE *f)
{
	html_raw(f, "</td></tr>");
}

static void write_header(FILE *f, const struct dash_site *site, const struct dash_model *m,
			 const struct dash_bisect *b)
{
	const struct dash_board *board = dash_model_board(m, b->board);

	html_rawf(f, "<h1>bisect #%lld on ", (long long)b->id);
	if (board)
		html_rawf(f, "<a href=\"../boards/%s.html\">", board->stem);
	html_text(f, b->board);
	html_rawf(f, "%s: <span id=\"status\" class=\"%s\">", board ? "</a>" : "",
		  dash_bisect_class(b->status));
	html_text(f, b->status);
	html_raw(f, "</span></h1><p><small>generated ");
	html_text(f, site->generated);
	html_raw(f, "</small></p>\n");
}

static void write_counts(FILE *f, const struct dash_bisect *b)
{
	char started[64], ended[64];
	long fails = 0;

	for (size_t i = 0; i < b->n_steps; i++)
		fails += b->steps[i].fails;
	dash_format_time(b->started_at, true, started, sizeof(started));
	dash_format_time(b->ended_at, true, ended, sizeof(ended));
	html_rawf(f, "<tr><th>started</th><td>%s</td></tr><tr><th>ended</th><td>%s</td></tr>"
		     "<tr><th>steps</th><td>%zu</td></tr><tr><th>cycles (failed)</th>"
		     "<td>%ld (%ld)</td></tr>", started, isnan(b->ended_at) ? "not yet" : ended,
		  b->n_steps, b->n_cycles, fails);
}

static void write_summary(FILE *f, const struct dash_bisect *b)
{
	html_raw(f, "<table id=\"summary\">");
	field(f, "plan");
	html_text(f, b->plan ? b->plan : "-");
	end_field(f);
	field(f, "good");
	dash_write_commit(f, b, b->good);
	end_field(f);
	field(f, "bad");
	dash_write_commit(f, b, b->bad);
	end_field(f);
	field(f, "confidence asked");
	if (isfinite(b->confidence))
		html_rawf(f, "%.4g", b->confidence);
	else
		html_raw(f, "-");
	end_field(f);
	field(f, "first bad commit");
	dash_write_bisect_answer(f, b);
	end_field(f);
	write_counts(f, b);
	html_raw(f, "</table>\n");
}

/* Bars of the leading candidate's posterior mass after each step, the answer's in dark blue. */
static int write_chart(FILE *f, const struct dash_bisect *b)
{
	struct svg_bar *bars = calloc(b->n_steps ? b->n_steps : 1, sizeof(*bars));
	char (*labels)[LABEL_MAX] = calloc(b->n_steps ? b->n_steps : 1, sizeof(*labels));
	size_t n = 0;

	if (!bars || !labels) {
		free(bars), free(labels);
		return -1;
	}
	for (size_t i = 0; i < b->n_steps; i++) {
		const struct dash_bisect_step *s = &b->steps[i];
		bool answer = s->n_top && b->result_commit &&
			      strcmp(s->top[0].commit, b->result_commit) == 0;

		if (!s->n_top || !isfinite(s->top[0].p))
			continue;
		snprintf(labels[n], LABEL_MAX, "step %d: %.12s", s->idx, s->top[0].commit);
		bars[n] = (struct svg_bar){ .label = labels[n], .value = 100 * s->top[0].p,
					    .colour = answer ? BAR_ANSWER : BAR_OTHER };
		n++;
	}
	if (n) {
		html_raw(f, "<h2>Most probable first bad commit after each step</h2>\n");
		svg_bars(f, "posterior", "posterior mass of the leading candidate", bars, n, "%", 100);
	}
	free(bars), free(labels);
	return 0;
}

static void write_outcomes(FILE *f, const char *letters, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *word = letters[i] == 'P' ? "pass" : letters[i] == 'F' ? "fail"
				   : letters[i] == 'H' ? "hang" : "unusable";

		html_rawf(f, "<span class=\"oc o%c\" title=\"%s\">%c</span>", letters[i] | 0x20, word,
			  letters[i]);
	}
}

/*
 * The runs of a step: on the bisect's board, with the step's commit as kernel sha, started after
 * the previous step was recorded and no later than this one. A board's runs are in start order.
 */
static void write_step_runs(FILE *f, const struct dash_model *m, const struct dash_board *board,
			    const struct dash_bisect *b, size_t step)
{
	const struct dash_bisect_step *s = &b->steps[step];
	double from = step ? b->steps[step - 1].at : b->started_at;
	size_t lo = board ? board->first : 0, hi = board ? board->first + board->n_runs : 0;
	bool any = false;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->runs[mid].started_at < from)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; board && i < board->first + board->n_runs; i++) {
		const struct dash_run *r = &m->runs[i];

		if (r->started_at > s->at)
			break;
		if (r->sha && strcmp(r->sha, s->commit) == 0) {
			html_raw(f, any ? " " : "");
			dash_write_run_link(f, "../", r);
			any = true;
		}
	}
	if (!any)
		html_raw(f, "&ndash;");
}

static void write_top(FILE *f, const struct dash_bisect *b, const struct dash_bisect_step *s)
{
	for (size_t i = 0; i < s->n_top; i++) {
		html_raw(f, i ? ", " : "");
		dash_write_commit(f, b, s->top[i].commit);
		if (isfinite(s->top[i].p))
			html_rawf(f, " %.3f", s->top[i].p);
	}
	if (!s->n_top)
		html_raw(f, "&ndash;");
}

static void write_step(FILE *f, const struct dash_model *m, const struct dash_board *board,
		       const struct dash_bisect *b, size_t i)
{
	const struct dash_bisect_step *s = &b->steps[i];
	const char *note;
	size_t n_letters;

	dash_verdict_split(s->verdict, &n_letters, &note);
	html_rawf(f, "<tr id=\"step-%d\"><td>%d</td><td>", s->idx, s->idx);
	dash_write_commit(f, b, s->commit);
	html_raw(f, "</td><td>");
	write_step_runs(f, m, board, b, i);
	html_rawf(f, "</td><td>%d</td><td>%d</td><td class=\"outcomes\">", s->cycles, s->fails);
	write_outcomes(f, s->verdict, n_letters);
	html_raw(f, "</td><td>");
	html_text(f, note);
	html_raw(f, "</td><td>");
	write_top(f, b, s);
	html_raw(f, "</td></tr>\n");
}

static void write_steps(FILE *f, const struct dash_model *m, const struct dash_bisect *b)
{
	const struct dash_board *board = dash_model_board(m, b->board);

	html_raw(f, "<h2>Steps</h2>\n");
	if (!b->n_steps) {
		html_raw(f, "<p id=\"no-steps\">No step recorded yet.</p>\n");
		return;
	}
	html_raw(f, "<p><small>outcomes: <span class=\"oc op\">P</span> pass "
		    "<span class=\"oc of\">F</span> fail <span class=\"oc oh\">H</span> hang "
		    "<span class=\"oc oi\">I</span> unusable (infrastructure: no evidence)"
		    "</small></p>\n<table id=\"steps\"><tr><th>step</th><th>commit</th><th>runs</th>"
		    "<th>cycles</th><th>fails</th><th>outcomes</th><th>note</th>"
		    "<th>most probable first bad commits after the step</th></tr>\n");
	for (size_t i = 0; i < b->n_steps; i++)
		write_step(f, m, board, b, i);
	html_raw(f, "</table>\n");
}

static int write_bisect(const struct dash_site *site, const struct dash_model *m,
			const struct dash_bisect *b, struct rig_err *err)
{
	char rel[64], title[64];
	FILE *f;

	snprintf(rel, sizeof(rel), "bisects/%lld.html", (long long)b->id);
	snprintf(title, sizeof(title), "bisect %lld", (long long)b->id);
	f = html_page_open(site->out_dir, rel, title, "../", err);
	if (!f)
		return -1;
	write_header(f, site, m, b);
	write_summary(f, b);
	if (write_chart(f, b)) {
		fclose(f);
		return rig_err_set(err, RIG_EXIT_INFRA, "dashboard: out of memory");
	}
	write_steps(f, m, b);
	return html_page_close(f, rel, err);
}

int dash_write_bisect_pages(const struct dash_site *site, const struct dash_model *m,
			    struct rig_err *err)
{
	for (size_t i = 0; i < m->bisects.n; i++)
		if (write_bisect(site, m, &m->bisects.v[i], err))
			return -1;
	return 0;
}
