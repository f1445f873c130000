/*
 * The board page's multi-run summary of the per-device timeline: per kernel and phase, the
 * slowest device callbacks over every traced cycle, their trend (the latest night's mean against
 * the mean over all nights) and the cycle where each was at its worst. Loaded with one query
 * (results_slowest_devices, as `rig results --slowest-devices`) before any page is written.
 */
#ifndef RIG_DASHBOARD_SLOWEST_H
#define RIG_DASHBOARD_SLOWEST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "results/db.h"
#include "util/err.h"

/* The slowest devices shown per board, kernel and phase. */
#define DASH_SLOWEST_PER_PHASE 3
/* A latest night whose mean is this many times the mean over all nights is marked slower. */
#define DASH_SLOWER_RATIO 1.25

struct dash_slow_device {
	char *board, *kernel, *phase, *name, *driver, *last_night;
	int cycles, traced, nights, errors, worst_cycle;
	double mean_us, max_us, last_night_mean_us;
	int64_t worst_run;
};

/* By board, kernel, phase (a suspend's order), mean descending. */
struct dash_slowest {
	struct dash_slow_device *v;
	size_t n;
};

int dash_slowest_load(struct results_db *db, struct dash_slowest *s, struct rig_err *err);
void dash_slowest_free(struct dash_slowest *s);

/* The board page's table; a line saying how to get one when the board has no traced cycle. */
void dash_write_board_slowest(FILE *f, const struct dash_slowest *s, const char *board);

#endif
