#include <math.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>

#include "dashboards/html.h"
#include "dashboards/pages.h"

#define MAX_LISTED 32

void dash_write_run_link(FILE *f, const char *root, const struct dash_run *r)
{
	html_rawf(f, "<a class=\"%s\" href=\"%sruns/%lld.html\">#%lld</a>",
		  dash_status_rank(r->status) ? r->status : "none", root, (long long)r->id,
		  (long long)r->id);
	if (r->source && !strcmp(r->source, "lava")) {
		html_raw(f, " ");
		dash_write_run_source(f, r);
	}
}

void dash_write_run_source(FILE *f, const struct dash_run *r)
{
	bool linkable = r->lava_server && r->lava_job_id &&
			(!strncmp(r->lava_server, "http://", 7) || !strncmp(r->lava_server, "https://", 8));

	if (!r->source || strcmp(r->source, "lava")) {
		html_raw(f, "<span class=\"src-rig\">rig</span>");
		return;
	}
	/* The server's own job page, when the run was fetched from a server (http(s) only: the
	 * URL comes from the database and must not become a script). */
	if (linkable) {
		html_raw(f, "<a class=\"src-lava\" href=\"");
		html_text(f, r->lava_server);
		html_raw(f, "/scheduler/job/");
		html_url(f, r->lava_job_id);
		html_raw(f, "\">");
	} else {
		html_raw(f, "<span class=\"src-lava\">");
	}
	html_raw(f, "LAVA job ");
	html_text(f, r->lava_job_id ? r->lava_job_id : "?");
	html_raw(f, linkable ? "</a>" : "</span>");
}

static void write_run_ref(FILE *f, const char *root, const struct dash_run *r)
{
	html_text(f, r->night);
	html_raw(f, ", kernel ");
	html_text(f, r->kernel ? r->kernel : "?");
	html_raw(f, ", run ");
	dash_write_run_link(f, root, r);
}

void dash_write_history_text(FILE *f, const char *root, const struct dash_history *h)
{
	switch (h->trend) {
	case DASH_TREND_NONE:
		html_raw(f, "<span class=\"reg-none\">no pass or fail run yet</span>");
		return;
	case DASH_TREND_OK:
		html_raw(f, "<span class=\"reg-ok\">passing (latest: ");
		write_run_ref(f, root, h->latest);
		html_raw(f, ")</span>");
		return;
	case DASH_TREND_NEW:
		html_raw(f, "<span class=\"reg-new\">new failure (last pass: ");
		break;
	case DASH_TREND_SINCE:
		html_raw(f, "<span class=\"reg-since\">failing since ");
		html_text(f, h->first_bad->night);
		html_raw(f, " (kernel ");
		html_text(f, h->first_bad->kernel ? h->first_bad->kernel : "?");
		html_raw(f, ", run ");
		dash_write_run_link(f, root, h->first_bad);
		html_raw(f, "; last pass: ");
		break;
	}
	if (h->last_good)
		write_run_ref(f, root, h->last_good);
	else
		html_raw(f, "never");
	html_raw(f, ")</span>");
}

void dash_format_time(double t, bool seconds, char *buf, size_t size)
{
	time_t secs = (time_t)t;
	struct tm tm;

	if (isnan(t) || !gmtime_r(&secs, &tm) ||
	    !strftime(buf, size, seconds ? "%Y-%m-%d %H:%M:%S UTC" : "%Y-%m-%d %H:%M UTC", &tm))
		snprintf(buf, size, "-");
}

const char *dash_knob_name(int knob)
{
	return knob < 0 ? "unknown" : knob ? "on" : "off";
}

struct name_set {
	const char *items[MAX_LISTED];
	size_t len[MAX_LISTED];
	size_t n;
	bool truncated;
};

static void set_add(struct name_set *s, const char *name, size_t len)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->len[i] == len && strncmp(s->items[i], name, len) == 0)
			return;
	if (s->n == MAX_LISTED) {
		s->truncated = true;
		return;
	}
	s->items[s->n] = name;
	s->len[s->n++] = len;
}

/* known_ids is itself a comma-separated list from group_concat. */
static void set_add_list(struct name_set *s, const char *list)
{
	while (list && *list) {
		size_t len = strcspn(list, ",");

		if (len)
			set_add(s, list, len);
		list += len + (list[len] == ',');
	}
}

static void write_set(FILE *f, const char *cls, const char *label, const struct name_set *s)
{
	if (!s->n)
		return;
	html_rawf(f, "<div class=\"%s\">%s", cls, label);
	for (size_t i = 0; i < s->n; i++) {
		char buf[256];

		snprintf(buf, sizeof(buf), "%.*s", (int)(s->len[i] < 255 ? s->len[i] : 255),
			 s->items[i]);
		if (i)
			html_raw(f, ", ");
		html_text(f, buf);
	}
	html_raw(f, s->truncated ? ", &hellip;</div>" : "</div>");
}

/* "2 fail, 1 hang, 2 infra cycles": what an aborted or infra run hides behind its status. */
static void write_cycle_counts(FILE *f, const struct dash_run *const *runs, size_t n)
{
	int fail = 0, hang = 0, infra = 0;

	for (size_t i = 0; i < n; i++) {
		fail += runs[i]->n_cycles_fail;
		hang += runs[i]->n_cycles_hang;
		infra += runs[i]->n_cycles_infra;
	}
	if (!fail && !hang && !infra)
		return;
	html_raw(f, "<div class=\"cc\">");
	if (fail)
		html_rawf(f, "%d fail%s", fail, hang || infra ? ", " : "");
	if (hang)
		html_rawf(f, "%d hang%s", hang, infra ? ", " : "");
	if (infra)
		html_rawf(f, "%d infra", infra);
	html_rawf(f, " cycle%s</div>", fail + hang + infra == 1 ? "" : "s");
}

void dash_write_failures(FILE *f, const struct dash_run *const *runs, size_t n)
{
	struct name_set failing = { .n = 0 }, known = { .n = 0 };

	write_cycle_counts(f, runs, n);

	for (size_t i = 0; i < n; i++)
		for (size_t v = 0; v < runs[i]->n_verdicts; v++) {
			const struct dash_verdict_sum *s = &runs[i]->verdicts[v];

			if (s->n_fail)
				set_add(&failing, s->name, strlen(s->name));
			if (s->n_known)
				set_add_list(&known, s->known_ids);
		}
	write_set(f, "vn", "", &failing);
	write_set(f, "ki", "known: ", &known);
}
