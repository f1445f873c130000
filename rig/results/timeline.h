/*
 * A cycle's per-device suspend/resume timeline in the results (schema 6: cycle_timelines, one row
 * per cycle whose plan asked for it; timeline_rows, its marks, devices, "others", frozen
 * filesystems and writer stalls on one axis, µs from the cycle's base on CLOCK_BOOTTIME), and
 * the reports over it: one cycle's rows (the dashboard's drawing) and the slowest devices per
 * board, kernel and phase over every cycle and night (rig results --slowest-devices).
 */
#ifndef RIG_RESULTS_TIMELINE_H
#define RIG_RESULTS_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results/db.h"
#include "util/err.h"

struct results_cycle;

struct results_timeline_row {
	const char *kind;        /* "mark", "device", "others", "frozen", "stall" */
	const char *phase;       /* devices and others: "suspend", "resume_noirq", ...; else NULL */
	const char *name;        /* device, mark, filesystem s_id, writer id */
	const char *driver;      /* a device's driver, a stall's filesystem; NULL */
	int64_t start_us;
	int64_t dur_us;          /* -1: open (never ended in the evidence) */
	int err;                 /* a device callback's error */
	unsigned count;          /* others: callbacks aggregated; 1 otherwise */
};

struct results_timeline_info {
	bool available;          /* false: the board had no power events ("unavailable") */
	const char *reason;      /* why unavailable; NULL */
	uint64_t base_ns;
	unsigned events, lost, bad_lines, min_us;
};

/* The cycle's timeline header, copied; once per cycle (a second call replaces it, rows kept). */
int results_cycle_set_timeline(struct results_cycle *cycle, const struct results_timeline_info *info,
			       struct rig_err *err);
/* One row, strings copied; the header must be set first. */
int results_cycle_add_timeline_row(struct results_cycle *cycle,
				   const struct results_timeline_row *row, struct rig_err *err);
/* The cycle's timeline into the database (results_cycle_write does it; nothing without one). */
int results_timeline_write(struct results_db *db, const struct results_cycle *cycle,
			   int64_t cycle_id, struct rig_err *err);
void results_timeline_free(struct results_cycle *cycle);

/* Every timeline of a run's cycles, by cycle then stored order: fn gets the cycle's idx and
 * header with each of its rows, or once with row NULL for a cycle without rows (unavailable, or
 * nothing traced). Nothing for a run without (or a database before schema 6). Strings are valid
 * during the callback; a non-zero answer stops the walk and is returned. */
typedef int (*results_timeline_fn)(void *ctx, int cycle_idx,
				   const struct results_timeline_info *info,
				   const struct results_timeline_row *row);
int results_timeline_read(struct results_db *db, int64_t run_id, results_timeline_fn fn,
			  void *ctx, struct rig_err *err);

/* rig results --slowest-devices: a device's callbacks in one phase over every cycle of a board
 * and kernel that had a timeline. cycles: those in which it was kept (at or over the board's
 * threshold, or failed), of traced (cycles of that board and kernel with a timeline); nights:
 * distinct nights it was kept on; mean and max over those cycles; worst_run/worst_cycle: where
 * its max was; last_night_mean_us: its mean on the latest of those nights (the trend). */
struct results_slow_device {
	const char *board, *kernel_version, *phase, *name, *driver, *last_night;
	int cycles, traced, nights, errors;
	double mean_us, max_us, last_night_mean_us;
	int64_t worst_run;
	int worst_cycle;
};

struct results_slow_filter {
	const char *board;       /* NULL: every board */
	const char *kernel;      /* NULL: every kernel */
	int per_phase;           /* the N slowest (by mean) per board, kernel and phase; 0 = all */
};

typedef int (*results_slow_fn)(void *ctx, const struct results_slow_device *row);
/* Ordered by board, kernel, phase (a suspend's order), mean descending. */
int results_slowest_devices(struct results_db *db, const struct results_slow_filter *filter,
			    results_slow_fn fn, void *ctx, struct rig_err *err);

#endif
