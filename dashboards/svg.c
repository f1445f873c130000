#include "dashboards/svg.h"

#include <math.h>

#include "dashboards/html.h"

#define TREND_W 640
#define TREND_H 170
#define PAD_L 56
#define PAD_R 150        /* legend column */
#define PAD_T 18
#define PAD_B 22
#define BAR_ROW 15
#define BAR_LABEL_W 150
#define BAR_W 380

static const char *const palette[] = { "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
				       "#8c564b", "#e377c2", "#17becf" };
#define STR_(x) #x
#define STR(x) STR_(x)
#define PALETTE_N (sizeof(palette) / sizeof(palette[0]))

static void bounds(const struct svg_series *s, size_t n, double *x0, double *x1, double *y1)
{
	*x0 = INFINITY, *x1 = -INFINITY, *y1 = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t p = 0; p < s[i].n; p++) {
			*x0 = fmin(*x0, s[i].x[p]);
			*x1 = fmax(*x1, s[i].x[p]);
			*y1 = fmax(*y1, s[i].y[p]);
		}
	if (!(*x1 > *x0))
		*x1 = *x0 + 1;
	if (!(*y1 > 0))
		*y1 = 1;
}

static void trend_line(FILE *f, const struct svg_series *s, const char *colour, double x0,
		       double x1, double y1)
{
	double plot_w = TREND_W - PAD_L - PAD_R, plot_h = TREND_H - PAD_T - PAD_B;

	html_rawf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", colour);
	for (size_t p = 0; p < s->n; p++) {
		html_num(f, PAD_L + (s->x[p] - x0) / (x1 - x0) * plot_w);
		html_raw(f, ",");
		html_num(f, PAD_T + plot_h - s->y[p] / y1 * plot_h);
		html_raw(f, " ");
	}
	html_raw(f, "\"/>");
	/* Dots too, so a run of one cycle still shows its value. */
	for (size_t p = 0; p < s->n; p++) {
		html_raw(f, "<circle r=\"2.5\" fill=\"");
		html_raw(f, colour);
		html_raw(f, "\" cx=\"");
		html_num(f, PAD_L + (s->x[p] - x0) / (x1 - x0) * plot_w);
		html_raw(f, "\" cy=\"");
		html_num(f, PAD_T + plot_h - s->y[p] / y1 * plot_h);
		html_raw(f, "\"/>");
	}
}

void svg_trend(FILE *f, const char *title, const char *unit, const struct svg_series *series,
	       size_t n_series)
{
	double x0, x1, y1;

	bounds(series, n_series, &x0, &x1, &y1);
	html_rawf(f, "<svg class=\"trend\" width=\"%d\" height=\"%d\" role=\"img\"><title>", TREND_W,
		  TREND_H);
	html_text(f, title);
	html_rawf(f, "</title><text x=\"%d\" y=\"12\">", PAD_L);
	html_text(f, title);
	html_rawf(f, "</text><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#888\"/>"
		     "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#888\"/>",
		  PAD_L, PAD_T, PAD_L, TREND_H - PAD_B, PAD_L, TREND_H - PAD_B, TREND_W - PAD_R,
		  TREND_H - PAD_B);
	html_rawf(f, "<text x=\"2\" y=\"%d\">%.4g %s</text><text x=\"2\" y=\"%d\">0</text>",
		  PAD_T + 4, y1, unit, TREND_H - PAD_B);
	html_rawf(f, "<text x=\"%d\" y=\"%d\">cycle %.0f</text><text x=\"%d\" y=\"%d\" "
		     "text-anchor=\"end\">cycle %.0f</text>", PAD_L, TREND_H - 6, x0,
		  TREND_W - PAD_R, TREND_H - 6, x1);
	for (size_t i = 0; i < n_series; i++) {
		const char *colour = palette[i % PALETTE_N];

		trend_line(f, &series[i], colour, x0, x1, y1);
		html_rawf(f, "<rect x=\"%d\" y=\"%zu\" width=\"10\" height=\"10\" fill=\"%s\"/>"
			     "<text x=\"%d\" y=\"%zu\">", TREND_W - PAD_R + 8, PAD_T + i * 14, colour,
			  TREND_W - PAD_R + 22, PAD_T + i * 14 + 9);
		html_text(f, series[i].label);
		html_raw(f, "</text>");
	}
	html_raw(f, "</svg>\n");
}

void svg_bars(FILE *f, const char *cls, const char *title, const struct svg_bar *bars, size_t n,
	      const char *unit, double full_scale)
{
	double max = full_scale;

	for (size_t i = 0; i < n && !(full_scale > 0); i++)
		max = fmax(max, bars[i].value);
	if (!(max > 0))
		max = 1;
	html_rawf(f, "<svg class=\"%s\" width=\"%d\" height=\"%zu\" role=\"img\"><title>%s</title>",
		  cls, BAR_LABEL_W + BAR_W + 90, n * BAR_ROW + 4, title);
	for (size_t i = 0; i < n; i++) {
		long y = (long)i * BAR_ROW + 2;
		double v = bars[i].value > max ? max : bars[i].value;
		long w = lround(fmax(1, v / max * BAR_W));

		html_raw(f, "<text x=\"0\" y=\"");
		html_long(f, y + 11);
		html_raw(f, "\">");
		html_text(f, bars[i].label);
		html_raw(f, "</text><rect x=\"" STR(BAR_LABEL_W) "\" y=\"");
		html_long(f, y);
		html_raw(f, "\" width=\"");
		html_long(f, w);
		html_raw(f, "\" height=\"11\" fill=\"");
		html_raw(f, bars[i].colour ? bars[i].colour : palette[i % PALETTE_N]);
		html_raw(f, "\"/><text x=\"");
		html_long(f, BAR_LABEL_W + w + 4);
		html_raw(f, "\" y=\"");
		html_long(f, y + 11);
		html_raw(f, "\">");
		html_num(f, bars[i].value);
		html_raw(f, " ");
		html_text(f, unit);
		html_raw(f, "</text>");
	}
	html_raw(f, "</svg>\n");
}

void svg_phases(FILE *f, const struct svg_bar *bars, size_t n, const char *unit)
{
	svg_bars(f, "phases", "phase timings", bars, n, unit, 0);
}
