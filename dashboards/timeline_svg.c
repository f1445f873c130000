#include "dashboards/timeline_svg.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "dashboards/html.h"

#define TL_W 960
#define TL_LABEL_W 190
#define TL_PAD_R 10
#define TL_ROW 14
#define TL_TOP 20          /* the axis labels */
#define TL_GAP 36          /* the folded time asleep */
#define TL_MAX_LANES 80    /* devices beyond this many share one row ("more devices") */

/* Phases in a suspend's order, and one colour each (suspend side warm, resume side cool). */
static const struct { const char *name, *colour; } phase_colours[] = {
	{ "prepare", "#f7b6d2" }, { "suspend", "#d62728" }, { "suspend_late", "#ff7f0e" },
	{ "suspend_noirq", "#bcbd22" }, { "resume_noirq", "#17becf" },
	{ "resume_early", "#9edae5" }, { "resume", "#1f77b4" }, { "complete", "#aec7e8" },
};
#define N_PHASE_COLOURS (sizeof(phase_colours) / sizeof(phase_colours[0]))

static const char *phase_colour(const char *phase)
{
	for (size_t i = 0; phase && i < N_PHASE_COLOURS; i++)
		if (strcmp(phase, phase_colours[i].name) == 0)
			return phase_colours[i].colour;
	return "#7f7f7f";
}

/* A suspend_resume span's colour: the device phase it runs (dpm_suspend_late: suspend_late); the
 * kernel's own spans one colour each. */
static const char *mark_colour(const char *name)
{
	static const struct { const char *name, *colour; } kernel[] = {
		{ "suspend_enter", "#c5b0d5" }, { "sync_filesystems", "#8c564b" },
		{ "freeze_processes", "#9467bd" }, { "thaw_processes", "#9467bd" },
		{ "filesystems_freeze", "#6baed6" }, { "filesystems_thaw", "#6baed6" },
		{ "machine_suspend", "#444" }, { "CPU_OFF", "#e377c2" }, { "CPU_ON", "#e377c2" },
	};

	if (strncmp(name, "dpm_", 4) == 0)
		return strcmp(name, "dpm_prepare") == 0 ? phase_colour("prepare")
		       : strcmp(name, "dpm_complete") == 0 ? phase_colour("complete")
		       : phase_colour(name + 4);
	for (size_t i = 0; i < sizeof(kernel) / sizeof(kernel[0]); i++)
		if (strcmp(name, kernel[i].name) == 0)
			return kernel[i].colour;
	return "#c7c7c7";
}

struct axis {
	int64_t lo, hi;                /* µs on the cycle's axis */
	int64_t asleep_from, asleep_to;   /* folded; from > to: nothing folded */
	double scale;                  /* px per µs awake */
};

static int64_t end_of(const struct results_timeline_row *r, int64_t hi)
{
	return r->dur_us < 0 ? hi : r->start_us + r->dur_us;
}

static void axis_of(const struct results_timeline_row *rows, size_t n, struct axis *a)
{
	double awake;

	a->lo = INT64_MAX, a->hi = INT64_MIN;
	a->asleep_from = 1, a->asleep_to = 0;
	for (size_t i = 0; i < n; i++) {
		const struct results_timeline_row *r = &rows[i];

		if (r->start_us < a->lo)
			a->lo = r->start_us;
		if (r->dur_us >= 0 && r->start_us + r->dur_us > a->hi)
			a->hi = r->start_us + r->dur_us;
		if (r->start_us > a->hi)
			a->hi = r->start_us;
		if (strcmp(r->kind, "mark") == 0 && strcmp(r->name, "machine_suspend") == 0 &&
		    r->dur_us > 0)
			a->asleep_from = r->start_us, a->asleep_to = r->start_us + r->dur_us;
	}
	if (a->hi <= a->lo)
		a->hi = a->lo + 1;
	awake = (double)(a->hi - a->lo);
	if (a->asleep_to > a->asleep_from)
		awake -= (double)(a->asleep_to - a->asleep_from);
	a->scale = (TL_W - TL_LABEL_W - TL_PAD_R - (a->asleep_to > a->asleep_from ? TL_GAP : 0)) /
		   (awake > 0 ? awake : 1);
}

static double x_of(const struct axis *a, int64_t t)
{
	double x = TL_LABEL_W;

	if (a->asleep_to <= a->asleep_from || t <= a->asleep_from)
		return x + (double)(t - a->lo) * a->scale;
	x += (double)(a->asleep_from - a->lo) * a->scale;
	if (t < a->asleep_to)
		return x + TL_GAP * (double)(t - a->asleep_from) / (double)(a->asleep_to - a->asleep_from);
	return x + TL_GAP + (double)(t - a->asleep_to) * a->scale;
}

/* The rows' lanes: one per distinct (kind, name, driver) in first-seen order, marks on lane 0
 * and others on one lane. */
struct lane {
	const char *kind, *name, *driver;
};

static size_t lane_of(struct lane *lanes, size_t *n, const struct results_timeline_row *r)
{
	/* the device PM phases (dpm_*) on one lane, each of the kernel's other spans on its own */
	const char *name = strcmp(r->kind, "mark") == 0 && strncmp(r->name, "dpm_", 4) == 0
				   ? "device phases"
			   : strcmp(r->kind, "others") == 0 ? "others" : r->name;
	const char *driver = r->driver ? r->driver : "";

	for (size_t i = 0; i < *n; i++)
		if (strcmp(lanes[i].kind, r->kind) == 0 && strcmp(lanes[i].name, name) == 0 &&
		    strcmp(lanes[i].driver, driver) == 0)
			return i;
	if (*n == TL_MAX_LANES)
		return TL_MAX_LANES - 1;
	lanes[*n] = (struct lane){ .kind = r->kind, .name = name, .driver = driver };
	return (*n)++;
}

/* Lanes in drawing order: kernel phases, devices, others, frozen filesystems, writers. */
static int kind_rank(const char *kind)
{
	static const char *const order[] = { "mark", "device", "others", "frozen", "stall" };

	for (int i = 0; i < 5; i++)
		if (strcmp(kind, order[i]) == 0)
			return i;
	return 5;
}

static void label(FILE *f, const struct lane *l, size_t row)
{
	html_raw(f, "<text x=\"2\" y=\"");
	html_long(f, (long)(TL_TOP + row * TL_ROW + 10));
	html_raw(f, "\">");
	if (strcmp(l->kind, "frozen") == 0)
		html_raw(f, "frozen ");
	else if (strcmp(l->kind, "stall") == 0)
		html_raw(f, "writer ");
	if (strcmp(l->kind, "device") == 0 && l->driver[0]) {
		html_text(f, l->driver);
		html_raw(f, " ");
	}
	html_text(f, l->name);
	html_raw(f, "</text>");
}

static void bar(FILE *f, const struct axis *a, const struct results_timeline_row *r, size_t row)
{
	double x0 = x_of(a, r->start_us), x1 = x_of(a, end_of(r, a->hi));
	const char *fill = strcmp(r->kind, "mark") == 0     ? mark_colour(r->name)
			   : strcmp(r->kind, "frozen") == 0 ? "#6baed6"
			   : strcmp(r->kind, "stall") == 0  ? "#e6550d"
							    : phase_colour(r->phase);
	bool failed = strcmp(r->kind, "device") == 0 && r->err != 0;

	html_raw(f, "<rect x=\"");
	html_num(f, x0);
	html_raw(f, "\" y=\"");
	html_long(f, (long)(TL_TOP + row * TL_ROW + 2));
	html_raw(f, "\" width=\"");
	html_num(f, fmax(1, x1 - x0));
	html_rawf(f, "\" height=\"10\" fill=\"%s\"%s%s><title>", fill,
		  r->dur_us < 0 ? " fill-opacity=\"0.4\"" : "",
		  failed ? " stroke=\"#000\" stroke-width=\"2\"" : "");
	html_text(f, r->name);
	if (r->driver && *r->driver) {
		html_raw(f, " (");
		html_text(f, r->driver);
		html_raw(f, ")");
	}
	if (r->phase) {
		html_raw(f, " ");
		html_text(f, r->phase);
	}
	if (strcmp(r->kind, "others") == 0)
		html_rawf(f, ": %u callbacks under the board's threshold", r->count);
	html_rawf(f, " at %.3f ms", (double)r->start_us / 1e3);
	if (r->dur_us < 0)
		html_raw(f, ", never ended in the trace");
	else
		html_rawf(f, ", %.3f ms", (double)r->dur_us / 1e3);
	if (failed)
		html_rawf(f, ", error %d", r->err);
	html_raw(f, "</title></rect>");
}

static void axis_labels(FILE *f, const struct axis *a, long height)
{
	html_rawf(f, "<text x=\"%d\" y=\"12\">%.1f ms</text>", TL_LABEL_W, (double)a->lo / 1e3);
	html_rawf(f, "<text x=\"%d\" y=\"12\" text-anchor=\"end\">%.1f ms</text>", TL_W - TL_PAD_R,
		  (double)a->hi / 1e3);
	if (a->asleep_to <= a->asleep_from)
		return;
	html_raw(f, "<rect x=\"");
	html_num(f, x_of(a, a->asleep_from));
	html_rawf(f, "\" y=\"%d\" width=\"%d\" height=\"%ld\" fill=\"#eee\"/>", TL_TOP, TL_GAP,
		  height - TL_TOP);
	html_raw(f, "<text x=\"");
	html_num(f, x_of(a, a->asleep_from) + TL_GAP / 2.0);
	html_rawf(f, "\" y=\"12\" text-anchor=\"middle\">asleep %.2f s</text>",
		  (double)(a->asleep_to - a->asleep_from) / 1e6);
}

/* The phases' colours, the frozen windows' and the stalls', in one line under the rows. */
static void legend(FILE *f, long y)
{
	long x = 2;

	for (size_t i = 0; i < N_PHASE_COLOURS + 2; i++) {
		const char *name = i < N_PHASE_COLOURS ? phase_colours[i].name
				   : i == N_PHASE_COLOURS ? "frozen" : "stall";
		const char *colour = i < N_PHASE_COLOURS ? phase_colours[i].colour
				     : i == N_PHASE_COLOURS ? "#6baed6" : "#e6550d";

		html_rawf(f, "<rect x=\"%ld\" y=\"%ld\" width=\"9\" height=\"9\" fill=\"%s\"/>"
			     "<text x=\"%ld\" y=\"%ld\">%s</text>", x, y + 1, colour, x + 12, y + 9,
			  name);
		x += 12 + 6 * (long)strlen(name) + 10;   /* about 6 px a character at the page's size */
	}
}

void svg_timeline(FILE *f, const struct results_timeline_row *rows, size_t n)
{
	struct lane lanes[TL_MAX_LANES];
	size_t lane_row[TL_MAX_LANES], n_lanes = 0, row = 0;
	struct axis a;
	long height;

	if (n == 0)
		return;
	axis_of(rows, n, &a);
	for (size_t i = 0; i < n; i++)
		lane_of(lanes, &n_lanes, &rows[i]);
	/* each lane's row: by kind, then first seen (the order the board listed them) */
	for (int k = 0; k <= 5; k++)
		for (size_t i = 0; i < n_lanes; i++)
			if (kind_rank(lanes[i].kind) == k)
				lane_row[i] = row++;
	height = (long)(TL_TOP + (row + 1) * TL_ROW + 4);   /* and the legend */
	html_rawf(f, "<svg class=\"timeline\" width=\"%d\" height=\"%ld\" role=\"img\">"
		     "<title>per-device suspend/resume timeline</title>", TL_W, height);
	axis_labels(f, &a, height);
	for (size_t i = 0; i < n_lanes; i++)
		label(f, &lanes[i], lane_row[i]);
	for (size_t i = 0; i < n; i++)
		bar(f, &a, &rows[i], lane_row[lane_of(lanes, &n_lanes, &rows[i])]);
	legend(f, (long)(TL_TOP + row * TL_ROW + 4));
	html_raw(f, "</svg>\n");
}
