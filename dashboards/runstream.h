/*
 * The detail of run pages, read through one results cursor per table for the whole database
 * (results/read.h), each ordered by run (and cycle), and consumed in step: loading run N reads
 * exactly its rows from each cursor. So rendering is linear in the history and only one run is
 * in memory at a time.
 */
#ifndef RIG_DASHBOARD_RUNSTREAM_H
#define RIG_DASHBOARD_RUNSTREAM_H

#include <stddef.h>
#include <stdint.h>

#include "dashboards/arena.h"
#include "results/read.h"
#include "results/timeline.h"
#include "util/err.h"

struct rs_verdict {
	const char *name, *filesystem, *result, *known_issue, *detail;
};

struct rs_measurement {
	const char *name, *filesystem, *unit;
	double value;
};

struct rs_cycle {
	int idx;
	const char *step_kind, *step_desc, *status, *hang_phase, *kernel, *console_tail;
	double started_at, ended_at;
	size_t first_verdict, n_verdicts;          /* slices of the run's arrays */
	size_t first_measurement, n_measurements;
	size_t first_phase, n_phases;              /* time budget, in the measurement array */
	int timeline;                              /* -1 none; 0 unavailable; 1 on (plans with timeline: true) */
	size_t first_tl_row, n_tl_rows;            /* its per-device timeline, in tl_row */
	const char *wake;                          /* its wake accounting in one line; NULL none */
};

struct rs_artefact {
	int cycle_idx;                             /* -1: an artefact of the whole run */
	const char *kind, *path;
};

struct run_stream {
	struct results_db *db;                     /* the per-device timelines: one query per run */
	struct results_cursor *cycles, *verdicts, *measurements, *artefacts, *phases, *wakes;
	struct arena strings;
	/* The loaded run; arrays keep their capacity from run to run. */
	struct rs_cycle *cycle;
	size_t n_cycles, cap_cycles;
	struct rs_verdict *verdict;
	size_t n_verdicts, cap_verdicts;
	struct rs_measurement *measurement;
	size_t n_measurements, cap_measurements;
	struct rs_artefact *artefact;
	size_t n_artefacts, cap_artefacts;
	struct results_timeline_row *tl_row;
	size_t n_tl_rows, cap_tl_rows;
};

int run_stream_open(struct results_db *db, struct run_stream *rs, struct rig_err *err);
/* Load run_id; runs must be asked for in increasing id order. */
int run_stream_load(struct run_stream *rs, int64_t run_id, struct rig_err *err);
void run_stream_close(struct run_stream *rs);

#endif
