/*
 * runs/<id>.html: the run's summary and artefacts, trend charts across its cycles, then every
 * cycle with its verdicts, hang details (console tail) and a chart of its phase timings.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "dashboards/html.h"
#include "dashboards/pages.h"
#include "dashboards/runstream.h"
#include "dashboards/svg.h"
#include "dashboards/timeline_svg.h"

#define MAX_SERIES 8
#define MAX_PATH_LINK 4096

/* Phases in the order they happen; other measurements are listed in the cycle's table only. */
static const char *const phase_names[] = {
	"freeze_tasks_ms", "freeze_filesystems_ms", "suspend_ms", "enter_sleep_ms", "frozen_ms",
	"hibernate_ms", "resume_ms", "thaw_filesystems_ms",
};
#define N_PHASES (sizeof(phase_names) / sizeof(phase_names[0]))

struct series_set {
	struct svg_series s[MAX_SERIES];
	double *x[MAX_SERIES], *y[MAX_SERIES];
	size_t n;
};

static bool same(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* Series of measurement `name` across cycles, one per filesystem (or one for whole-system). */
static int collect_series(const struct run_stream *rs, const double *cycle_of, const char *name,
			  struct series_set *set)
{
	for (size_t m = 0; m < rs->n_measurements; m++) {
		const struct rs_measurement *me = &rs->measurement[m];
		const char *label = me->filesystem ? me->filesystem : name;
		size_t i = 0;

		if (strcmp(me->name, name) != 0)
			continue;
		while (i < set->n && !same(set->s[i].label, label))
			i++;
		if (i == MAX_SERIES)
			continue;
		if (i == set->n) {
			set->x[i] = malloc(rs->n_measurements * sizeof(double));
			set->y[i] = malloc(rs->n_measurements * sizeof(double));
			if (!set->x[i] || !set->y[i])
				return -1;
			set->s[set->n++] = (struct svg_series){ .label = label, .x = set->x[i],
								.y = set->y[i] };
		}
		set->x[i][set->s[i].n] = cycle_of[m];
		set->y[i][set->s[i].n++] = me->value;
	}
	return 0;
}

static void free_series(struct series_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		free(set->x[i]), free(set->y[i]);
	set->n = 0;
}

/* Measurements do not carry their cycle index; fill x from the cycle slices. */
static void index_measurements(const struct run_stream *rs, double *cycle_of)
{
	for (size_t c = 0; c < rs->n_cycles; c++)
		for (size_t m = 0; m < rs->cycle[c].n_measurements; m++)
			cycle_of[rs->cycle[c].first_measurement + m] = rs->cycle[c].idx;
}

static int write_trend(FILE *f, const struct run_stream *rs, const double *cycle_of,
		       const char *const *names, size_t n_names, const char *title)
{
	struct series_set set = { .n = 0 };
	int ret = 0;

	for (size_t i = 0; i < n_names && !ret; i++)
		ret = collect_series(rs, cycle_of, names[i], &set);
	if (!ret && set.n)
		svg_trend(f, title, "ms", set.s, set.n);
	free_series(&set);
	return ret;
}

static int write_trends(FILE *f, const struct run_stream *rs)
{
	static const char *const stall[] = { "stall_ms" };
	static const char *const phases[] = { "suspend_ms", "resume_ms" };
	double *cycle_of = malloc((rs->n_measurements ? rs->n_measurements : 1) * sizeof(double));
	int ret;

	if (!cycle_of)
		return -1;
	index_measurements(rs, cycle_of);
	html_raw(f, "<h2>Trends across cycles</h2>\n");
	ret = write_trend(f, rs, cycle_of, stall, 1, "stall_ms per filesystem");
	if (!ret)
		ret = write_trend(f, rs, cycle_of, phases, 2, "suspend_ms and resume_ms");
	free(cycle_of);
	return ret;
}

static void write_link(FILE *f, const struct dash_site *site, const char *path)
{
	char from[MAX_PATH_LINK], rel[MAX_PATH_LINK];

	snprintf(from, sizeof(from), "%s/runs", site->out_abs);
	if (html_relative_link(from, path, site->cwd, rel, sizeof(rel)) == 0) {
		html_raw(f, "<a href=\"");
		html_url(f, rel);
		html_raw(f, "\">");
	} else {
		html_raw(f, "<a href=\"file://");
		html_url(f, path);
		html_raw(f, "\">");
	}
	html_text(f, path);
	html_raw(f, "</a>");
}

static void write_artefacts(FILE *f, const struct dash_site *site, const struct dash_run *r,
			    const struct run_stream *rs)
{
	bool log_listed = false;

	html_raw(f, "<h2>Artefacts</h2>\n<ul id=\"artefacts\">");
	for (size_t i = 0; i < rs->n_artefacts; i++) {
		const struct rs_artefact *a = &rs->artefact[i];

		log_listed |= same(a->path, r->console_log);
		html_raw(f, "<li>");
		html_text(f, a->kind);
		if (a->cycle_idx >= 0)
			html_rawf(f, " (cycle %d)", a->cycle_idx);
		html_raw(f, ": ");
		write_link(f, site, a->path);
		html_raw(f, "</li>");
	}
	if (r->console_log && !log_listed) {
		html_raw(f, "<li>console-log: ");
		write_link(f, site, r->console_log);
		html_raw(f, "</li>");
	}
	html_raw(f, "</ul>\n");
}

static void write_field(FILE *f, const char *name, const char *value)
{
	html_rawf(f, "<tr><th>%s</th><td>", name);
	html_text(f, value ? value : "-");
	html_raw(f, "</td></tr>");
}

static void write_summary(FILE *f, const struct dash_site *site, const struct dash_model *m,
			  const struct dash_run *r)
{
	char started[64], ended[64];
	const char *stem = r->board;

	for (size_t b = 0; b < m->n_boards; b++)
		if (strcmp(m->boards[b].name, r->board) == 0)
			stem = m->boards[b].stem;
	dash_format_time(r->started_at, true, started, sizeof(started));
	dash_format_time(r->ended_at, true, ended, sizeof(ended));
	html_rawf(f, "<h1>run #%lld on <a href=\"../boards/", (long long)r->id);
	html_url(f, stem);
	html_raw(f, ".html\">");
	html_text(f, r->board);
	html_rawf(f, "</a>: <span id=\"status\" class=\"%s\">",
		  dash_status_rank(r->status) ? r->status : "none");
	html_text(f, r->status);
	html_raw(f, "</span></h1><p><small>generated ");
	html_text(f, site->generated);
	html_raw(f, "</small></p>\n<table id=\"summary\">");
	write_field(f, "night", r->night);
	write_field(f, "started", started);
	write_field(f, "ended", ended);
	write_field(f, "kernel", r->kernel);
	write_field(f, "kernel sha", r->sha);
	write_field(f, "plan", r->plan);
	html_raw(f, "<tr><th>source</th><td>");
	dash_write_run_source(f, r);
	html_raw(f, "</td></tr>");
	write_field(f, "freeze_filesystems", dash_knob_name(r->knob_ff));
	write_field(f, "sync_on_suspend", dash_knob_name(r->knob_sos));
	write_field(f, "host", r->host);
	html_rawf(f, "<tr><th>cycles not passed</th><td>%d / %d</td></tr></table>\n",
		  r->n_cycles_failed, r->n_cycles);
}

static void write_verdicts(FILE *f, const struct run_stream *rs, const struct rs_cycle *c)
{
	if (!c->n_verdicts)
		return;
	html_raw(f, "<table class=\"verdicts\"><tr><th>verdict</th><th>filesystem</th>"
		    "<th>result</th><th>known issue</th><th>detail</th></tr>");
	for (size_t i = c->first_verdict; i < c->first_verdict + c->n_verdicts; i++) {
		const struct rs_verdict *v = &rs->verdict[i];
		const char *cls = strcmp(v->result, "pass") == 0 ? "pass"
				  : strcmp(v->result, "skip") == 0 ? "none"
				  : v->known_issue ? "known" : "fail";

		html_raw(f, "<tr><td>");
		html_text(f, v->name);
		html_raw(f, "</td><td>");
		html_text(f, v->filesystem);
		html_rawf(f, "</td><td class=\"%s\">", cls);
		html_text(f, v->result);
		html_raw(f, "</td><td>");
		html_text(f, v->known_issue);
		html_raw(f, "</td><td>");
		html_text(f, v->detail);
		html_raw(f, "</td></tr>");
	}
	html_raw(f, "</table>\n");
}

static void write_phases(FILE *f, const struct run_stream *rs, const struct rs_cycle *c)
{
	struct svg_bar bars[N_PHASES];
	size_t n = 0;

	for (size_t p = 0; p < N_PHASES; p++)
		for (size_t i = c->first_measurement; i < c->first_measurement + c->n_measurements; i++)
			if (!rs->measurement[i].filesystem &&
			    strcmp(rs->measurement[i].name, phase_names[p]) == 0) {
				bars[n++] = (struct svg_bar){ .label = phase_names[p],
							      .value = rs->measurement[i].value };
				break;
			}
	if (n)
		svg_phases(f, bars, n, "ms");
}

/* The cycle's time budget (rig/README.md): one column per phase, "unknown" where the evidence
 * did not show it (never 0). */
static void write_budget(FILE *f, const struct run_stream *rs, const struct rs_cycle *c)
{
	if (!c->n_phases)
		return;
	html_raw(f, "<table class=\"budget\"><tr><th>time budget</th>");
	for (size_t i = c->first_phase; i < c->first_phase + c->n_phases; i++) {
		html_raw(f, "<th>");
		html_text(f, rs->measurement[i].name);
		html_raw(f, "</th>");
	}
	html_raw(f, "</tr><tr><td>seconds</td>");
	for (size_t i = c->first_phase; i < c->first_phase + c->n_phases; i++) {
		double s = rs->measurement[i].value;

		if (isnan(s))
			html_raw(f, "<td class=\"none\">unknown</td>");
		else
			html_rawf(f, "<td>%.3f</td>", s);
	}
	html_raw(f, "</tr></table>\n");
}

/* Plans with `timeline: true`: the cycle's per-device timeline, or why there is none. */
static void write_timeline(FILE *f, const struct run_stream *rs, const struct rs_cycle *c)
{
	if (c->timeline < 0)
		return;
	if (!c->timeline) {
		html_raw(f, "<p class=\"none\">per-device timeline unavailable: the board's kernel "
			    "has no power events to trace</p>\n");
		return;
	}
	if (!c->n_tl_rows) {
		html_raw(f, "<p class=\"none\">per-device timeline: no power event traced</p>\n");
		return;
	}
	html_raw(f, "<p>per-device timeline (hover a bar for its device, phase and time):</p>");
	svg_timeline(f, &rs->tl_row[c->first_tl_row], c->n_tl_rows);
}

static void write_cycle(FILE *f, const struct run_stream *rs, const struct rs_cycle *c)
{
	html_rawf(f, "<section class=\"cycle\" id=\"cycle-%d\"><h3>cycle %d: ", c->idx, c->idx);
	html_text(f, c->step_kind);
	if (c->step_desc) {
		html_raw(f, " (");
		html_text(f, c->step_desc);
		html_raw(f, ")");
	}
	html_rawf(f, " &mdash; <span class=\"%s\">", strcmp(c->status, "hang") == 0 ? "fail"
						      : c->status);
	html_text(f, c->status);
	html_raw(f, "</span></h3>\n");
	write_verdicts(f, rs, c);
	if (c->wake) {
		html_raw(f, "<p class=\"wake\">wake: ");
		html_text(f, c->wake);
		html_raw(f, "</p>\n");
	}
	write_budget(f, rs, c);
	write_phases(f, rs, c);
	write_timeline(f, rs, c);
	if (c->hang_phase) {
		html_raw(f, "<p class=\"hang\">hang in phase <b>");
		html_text(f, c->hang_phase);
		html_raw(f, "</b></p>");
	}
	if (c->console_tail) {
		html_raw(f, "<p>console tail:</p><pre class=\"console-tail\">");
		html_text(f, c->console_tail);
		html_raw(f, "</pre>");
	}
	html_raw(f, "</section>\n");
}

static int write_run(const struct dash_site *site, const struct dash_model *m,
		     const struct dash_run *r, const struct run_stream *rs, struct rig_err *err)
{
	char rel[64], title[64];
	FILE *f;
	int ret;

	snprintf(rel, sizeof(rel), "runs/%lld.html", (long long)r->id);
	snprintf(title, sizeof(title), "run %lld", (long long)r->id);
	f = html_page_open(site->out_dir, rel, title, "../", err);
	if (!f)
		return -1;
	write_summary(f, site, m, r);
	write_artefacts(f, site, r, rs);
	ret = write_trends(f, rs);
	html_raw(f, "<h2>Cycles</h2>\n");
	for (size_t c = 0; c < rs->n_cycles && !ret; c++)
		write_cycle(f, rs, &rs->cycle[c]);
	if (ret) {
		fclose(f);
		return rig_err_set(err, RIG_EXIT_INFRA, "dashboard: out of memory");
	}
	return html_page_close(f, rel, err);
}

int dash_write_run_pages(const struct dash_site *site, struct results_db *db, struct dash_model *m,
			 size_t *n_cycles, struct rig_err *err)
{
	struct dash_run **by_id = dash_runs_by_id(m, err);
	struct run_stream rs;
	int ret = 0;

	*n_cycles = 0;
	if (!by_id)
		return -1;
	if (run_stream_open(db, &rs, err)) {
		free(by_id);
		return -1;
	}
	for (size_t i = 0; i < m->n_runs && !ret; i++) {
		ret = run_stream_load(&rs, by_id[i]->id, err);
		if (!ret)
			ret = dash_run_summarize(by_id[i], rs.verdict, rs.n_verdicts, err);
		if (!ret)
			ret = write_run(site, m, by_id[i], &rs, err);
		*n_cycles += rs.n_cycles;
	}
	run_stream_close(&rs);
	free(by_id);
	return ret;
}
