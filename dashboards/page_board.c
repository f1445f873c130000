/*
 * boards/<board>.html: the board's regression state, first bad / last good run of each verdict
 * that ever failed, its bisects, pass rate per verdict, the kernels and knob settings tested, and
 * every run.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "dashboards/html.h"
#include "dashboards/pages.h"
#include "dashboards/tally.h"

enum { V_PASS, V_FAIL, V_KNOWN, V_SKIP, V_RUNS };

static int tally_verdicts(const struct dash_model *m, const struct dash_board *b,
			  struct tally *t)
{
	for (size_t i = b->first; i < b->first + b->n_runs; i++)
		for (size_t v = 0; v < m->runs[i].n_verdicts; v++) {
			const struct dash_verdict_sum *s = &m->runs[i].verdicts[v];
			struct tally_row *row = tally_row(t, s->name);

			if (!row)
				return -1;
			row->counts[V_PASS] += s->n_pass;
			row->counts[V_FAIL] += s->n_fail;
			row->counts[V_KNOWN] += s->n_known;
			row->counts[V_SKIP] += s->n_skip;
			row->counts[V_RUNS]++;
		}
	tally_sort(t);
	return 0;
}

static void write_regressions(FILE *f, const struct dash_model *m, const struct dash_board *b,
			      const struct tally *verdicts)
{
	bool any = false;

	html_raw(f, "<h2>Failing verdicts: first bad, last good</h2>\n");
	for (size_t i = 0; i < verdicts->n; i++) {
		struct dash_history h;

		if (verdicts->rows[i].counts[V_FAIL] == 0)
			continue;
		dash_verdict_history(m, b, verdicts->rows[i].key, &h);
		if (!any)
			html_raw(f, "<table id=\"regressions\"><tr><th>verdict</th><th>state</th>"
				    "<th>first bad</th><th>last good</th><th>fixed by</th></tr>\n");
		any = true;
		html_raw(f, "<tr><td>");
		html_text(f, verdicts->rows[i].key);
		html_raw(f, "</td><td>");
		dash_write_history_text(f, "../", &h);
		html_raw(f, "</td>");
		const struct dash_run *refs[] = { h.first_bad, h.last_good, h.fixed_by };
		for (size_t r = 0; r < 3; r++) {
			html_raw(f, "<td>");
			if (refs[r]) {
				html_text(f, refs[r]->night);
				html_raw(f, " ");
				html_text(f, refs[r]->kernel ? refs[r]->kernel : "?");
				html_raw(f, " ");
				dash_write_run_link(f, "../", refs[r]);
			} else {
				html_raw(f, "&ndash;");
			}
			html_raw(f, "</td>");
		}
		html_raw(f, "</tr>\n");
	}
	html_raw(f, any ? "</table>\n" : "<p>No verdict ever failed without a known issue.</p>\n");
}

static void write_pass_rates(FILE *f, const struct tally *verdicts)
{
	html_raw(f, "<h2>Pass rate per verdict (cycles)</h2>\n<table id=\"passrate\"><tr>"
		    "<th>verdict</th><th>runs</th><th>pass</th><th>fail</th><th>known</th>"
		    "<th>skip</th><th>pass rate</th></tr>\n");
	for (size_t i = 0; i < verdicts->n; i++) {
		const long *c = verdicts->rows[i].counts;
		long judged = c[V_PASS] + c[V_FAIL] + c[V_KNOWN];

		html_raw(f, "<tr><td>");
		html_text(f, verdicts->rows[i].key);
		html_rawf(f, "</td><td>%ld</td><td>%ld</td><td>%ld</td><td>%ld</td><td>%ld</td>",
			  c[V_RUNS], c[V_PASS], c[V_FAIL], c[V_KNOWN], c[V_SKIP]);
		if (judged)
			html_rawf(f, "<td>%.1f%%</td></tr>\n", 100.0 * (double)c[V_PASS] / (double)judged);
		else
			html_raw(f, "<td>&ndash;</td></tr>\n");
	}
	html_raw(f, "</table>\n");
}

/* Runs per status for each value of key_of(run): kernels, knob settings. */
static int write_by_status(FILE *f, const struct dash_model *m, const struct dash_board *b,
			   const char *title, const char *id,
			   const char *(*key_of)(const struct dash_run *r, char *buf, size_t size))
{
	static const char *const cols[] = { "aborted", "infra", "running", "pass", "known", "fail" };
	struct tally t = { 0 };
	char (*keys)[64] = calloc(b->n_runs ? b->n_runs : 1, sizeof(*keys));

	if (!keys)
		return -1;
	for (size_t i = b->first; i < b->first + b->n_runs; i++) {
		const struct dash_run *r = &m->runs[i];
		struct tally_row *row = tally_row(&t, key_of(r, keys[i - b->first], sizeof(keys[0])));

		if (!row) {
			tally_free(&t), free(keys);
			return -1;
		}
		row->counts[dash_status_rank(r->status)]++;
		if (!row->first_night)
			row->first_night = r->night;
		row->last_night = r->night;
	}
	tally_sort(&t);
	html_rawf(f, "<h2>%s</h2>\n<table id=\"%s\"><tr><th>value</th><th>first night</th>"
		     "<th>last night</th>", title, id);
	for (size_t c = 0; c < 6; c++)
		html_rawf(f, "<th>%s</th>", cols[c]);
	html_raw(f, "</tr>\n");
	for (size_t i = 0; i < t.n; i++) {
		html_raw(f, "<tr><td>");
		html_text(f, t.rows[i].key);
		html_raw(f, "</td><td>");
		html_text(f, t.rows[i].first_night);
		html_raw(f, "</td><td>");
		html_text(f, t.rows[i].last_night);
		html_raw(f, "</td>");
		for (size_t c = 0; c < 6; c++)
			html_rawf(f, "<td>%ld</td>", t.rows[i].counts[c + 1]);
		html_raw(f, "</tr>\n");
	}
	html_raw(f, "</table>\n");
	tally_free(&t), free(keys);
	return 0;
}

static const char *kernel_key(const struct dash_run *r, char *buf, size_t size)
{
	(void)buf, (void)size;
	return r->kernel ? r->kernel : "(unknown)";
}

static const char *knob_key(const struct dash_run *r, char *buf, size_t size)
{
	snprintf(buf, size, "freeze_filesystems=%s sync_on_suspend=%s", dash_knob_name(r->knob_ff),
		 dash_knob_name(r->knob_sos));
	return buf;
}

static void write_history(FILE *f, const struct dash_model *m, const struct dash_board *b)
{
	html_raw(f, "<h2>Run history (newest first)</h2>\n<table id=\"history\"><tr><th>run</th>"
		    "<th>night</th><th>started</th><th>source</th><th>kernel</th><th>plan</th>"
		    "<th>freeze_filesystems</th><th>sync_on_suspend</th><th>status</th>"
		    "<th>cycles failed</th><th>failing verdicts</th></tr>\n");
	for (size_t i = b->first + b->n_runs; i-- > b->first;) {
		const struct dash_run *r = &m->runs[i];
		char started[64];

		dash_format_time(r->started_at, false, started, sizeof(started));
		html_raw(f, "<tr><td>");
		html_rawf(f, "<a class=\"%s\" href=\"../runs/%lld.html\">#%lld</a>",
			  dash_status_rank(r->status) ? r->status : "none", (long long)r->id,
			  (long long)r->id);
		html_raw(f, "</td><td>");
		html_text(f, r->night);
		html_rawf(f, "</td><td>%s</td><td>", started);
		dash_write_run_source(f, r);
		html_raw(f, "</td><td>");
		html_text(f, r->kernel);
		html_raw(f, "</td><td>");
		html_text(f, r->plan);
		html_rawf(f, "</td><td>%s</td><td>%s</td><td class=\"%s\">", dash_knob_name(r->knob_ff),
			  dash_knob_name(r->knob_sos),
			  dash_status_rank(r->status) ? r->status : "none");
		html_text(f, r->status);
		html_rawf(f, "</td><td>%d / %d</td><td>", r->n_cycles_failed, r->n_cycles);
		dash_write_failures(f, &r, 1);
		html_raw(f, "</td></tr>\n");
	}
	html_raw(f, "</table>\n");
}

static int write_board(const struct dash_site *site, const struct dash_model *m,
		       const struct dash_board *b, struct rig_err *err)
{
	char rel[DASH_STEM_MAX + 16];
	struct tally verdicts = { 0 };
	struct dash_history h;
	FILE *f;

	snprintf(rel, sizeof(rel), "boards/%s.html", b->stem);
	if (tally_verdicts(m, b, &verdicts)) {
		tally_free(&verdicts);
		return rig_err_set(err, RIG_EXIT_INFRA, "dashboard: out of memory");
	}
	f = html_page_open(site->out_dir, rel, b->name, "../", err);
	if (!f) {
		tally_free(&verdicts);
		return -1;
	}
	dash_board_history(m, b, &h);
	html_raw(f, "<h1>board ");
	html_text(f, b->name);
	html_raw(f, "</h1><p><small>generated ");
	html_text(f, site->generated);
	html_rawf(f, " &middot; %zu runs</small></p><p id=\"trend\">", b->n_runs);
	dash_write_history_text(f, "../", &h);
	html_raw(f, "</p>\n");
	write_regressions(f, m, b, &verdicts);
	dash_write_board_bisects(f, m, b);
	write_pass_rates(f, &verdicts);
	tally_free(&verdicts);
	dash_write_board_slowest(f, &m->slowest, b->name);
	if (write_by_status(f, m, b, "Kernel versions tested (runs)", "kernels", kernel_key) ||
	    write_by_status(f, m, b, "Knob values tested (runs)", "knobs", knob_key)) {
		fclose(f);
		return rig_err_set(err, RIG_EXIT_INFRA, "dashboard: out of memory");
	}
	write_history(f, m, b);
	return html_page_close(f, rel, err);
}

int dash_write_board_pages(const struct dash_site *site, const struct dash_model *m,
			   struct rig_err *err)
{
	for (size_t i = 0; i < m->n_boards; i++)
		if (write_board(site, m, &m->boards[i], err))
			return -1;
	return 0;
}
