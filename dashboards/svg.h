/* Inline SVG charts written straight into a page: no script, no external resource. */
#ifndef RIG_DASHBOARD_SVG_H
#define RIG_DASHBOARD_SVG_H

#include <stddef.h>
#include <stdio.h>

struct svg_series {
	const char *label;      /* database text: escaped when written */
	const double *x, *y;
	size_t n;
};

/* Line chart of y against x (cycle index), one coloured line and legend entry per series. */
void svg_trend(FILE *f, const char *title, const char *unit, const struct svg_series *series,
	       size_t n_series);

struct svg_bar {
	const char *label;      /* database text: escaped when written */
	double value;
	const char *colour;     /* program text; NULL: the palette's colour for the bar's index */
};

/*
 * Horizontal bars, one per row, all starting at zero and drawn to one scale, values written
 * beside: full_scale is the value of a full-width bar (0: the largest value). cls is the svg
 * element's class and title its tooltip (both program text).
 */
void svg_bars(FILE *f, const char *cls, const char *title, const struct svg_bar *bars, size_t n,
	      const char *unit, double full_scale);
/* One bar per phase (class "phases"), drawn to the largest. */
void svg_phases(FILE *f, const struct svg_bar *bars, size_t n, const char *unit);

#endif
