/* The board page's slowest device callbacks per kernel and phase (slowest.h). */
#include "dashboards/slowest.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "dashboards/html.h"
#include "results/timeline.h"
#include "util/array.h"
#include "util/text_copy.h"

struct slow_loading {
	struct dash_slowest *s;
	size_t cap;
	struct rig_err *err;
};

static void free_device(struct dash_slow_device *d)
{
	free(d->board), free(d->kernel), free(d->phase), free(d->name), free(d->driver);
	free(d->last_night);
}

static int add_device(void *ctx, const struct results_slow_device *row)
{
	struct slow_loading *l = ctx;
	struct dash_slowest *s = l->s;
	struct dash_slow_device *d;
	bool oom = false;

	if (array_grow((void **)&s->v, &l->cap, s->n, sizeof(*s->v)))
		return rig_err_set(l->err, RIG_EXIT_INFRA, "dashboard: out of memory loading devices");
	d = &s->v[s->n];
	*d = (struct dash_slow_device){
		.board = text_copy(row->board, &oom), .kernel = text_copy(row->kernel_version, &oom),
		.phase = text_copy(row->phase, &oom), .name = text_copy(row->name, &oom),
		.driver = text_copy(row->driver, &oom), .last_night = text_copy(row->last_night, &oom),
		.cycles = row->cycles, .traced = row->traced, .nights = row->nights,
		.errors = row->errors, .worst_cycle = row->worst_cycle, .mean_us = row->mean_us,
		.max_us = row->max_us, .last_night_mean_us = row->last_night_mean_us,
		.worst_run = row->worst_run,
	};
	if (oom) {
		free_device(d);
		return rig_err_set(l->err, RIG_EXIT_INFRA, "dashboard: out of memory loading devices");
	}
	s->n++;
	return 0;
}

int dash_slowest_load(struct results_db *db, struct dash_slowest *s, struct rig_err *err)
{
	struct results_slow_filter filter = { .per_phase = DASH_SLOWEST_PER_PHASE };
	struct slow_loading l = { .s = s, .err = err };

	*s = (struct dash_slowest){ 0 };
	if (results_slowest_devices(db, &filter, add_device, &l, err) < 0) {
		dash_slowest_free(s);
		return -1;
	}
	return 0;
}

void dash_slowest_free(struct dash_slowest *s)
{
	for (size_t i = 0; i < s->n; i++)
		free_device(&s->v[i]);
	free(s->v);
	*s = (struct dash_slowest){ 0 };
}

static void write_trend(FILE *f, const struct dash_slow_device *d)
{
	bool slower = d->nights > 1 && d->last_night_mean_us >= DASH_SLOWER_RATIO * d->mean_us;

	html_rawf(f, "<td%s>%.3f", slower ? " class=\"fail\"" : "", d->last_night_mean_us / 1e3);
	if (slower)
		html_raw(f, " &#9650;");
	html_raw(f, " <small>(");
	html_text(f, d->last_night);
	html_raw(f, ")</small></td>");
}

static void write_device(FILE *f, const struct dash_slow_device *d)
{
	const char *const texts[] = { d->kernel, d->phase, d->name, d->driver };

	html_raw(f, "<tr>");
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		html_raw(f, "<td>");
		html_text(f, texts[i]);
		html_raw(f, "</td>");
	}
	html_rawf(f, "<td>%d/%d</td><td>%d</td><td>%.3f</td><td>%.3f</td>", d->cycles,
		  d->traced, d->nights, d->mean_us / 1e3, d->max_us / 1e3);
	write_trend(f, d);
	html_rawf(f, "<td%s>%d</td>", d->errors ? " class=\"fail\"" : "", d->errors);
	html_rawf(f, "<td><a href=\"../runs/%lld.html#cycle-%d\">run %lld #%d</a></td></tr>\n",
		  (long long)d->worst_run, d->worst_cycle, (long long)d->worst_run, d->worst_cycle);
}

void dash_write_board_slowest(FILE *f, const struct dash_slowest *s, const char *board)
{
	size_t shown = 0;

	html_raw(f, "<h2 id=\"slowest\">Slowest device callbacks</h2>\n");
	for (size_t i = 0; i < s->n; i++) {
		if (strcmp(s->v[i].board, board) != 0)
			continue;
		if (!shown++)
			html_rawf(f, "<p>The %d slowest per kernel and phase (by mean) over every cycle "
				     "with a per-device timeline; last night marked &#9650; when its "
				     "mean is %.2f&times; the mean over all nights or more.</p>\n"
				     "<table><tr><th>kernel</th><th>phase</th><th>device</th>"
				     "<th>driver</th><th>cycles</th><th>nights</th><th>mean ms</th>"
				     "<th>max ms</th><th>last night ms</th><th>errors</th>"
				     "<th>worst cycle</th></tr>\n",
				  DASH_SLOWEST_PER_PHASE, DASH_SLOWER_RATIO);
		write_device(f, &s->v[i]);
	}
	if (shown)
		html_raw(f, "</table>\n");
	else
		html_raw(f, "<p class=\"none\">no cycle with a per-device timeline: plans with "
			    "<code>timeline: true</code> record one</p>\n");
}
