/*
 * A synthetic results history for benchmarking the dashboard (rig dashboard --synthetic-runs):
 * boards take turns, one run per board per night, with mostly passing runs and some failing,
 * known-issue and infra runs, in a fixed pseudo-random pattern. Written through the results API
 * (results/ owns all SQL) in one batch, cycle by cycle as rig run writes them.
 */
#ifndef RIG_DASHBOARD_SYNTH_H
#define RIG_DASHBOARD_SYNTH_H

#include "util/err.h"

struct dash_synth {
	int runs;
	int cycles;     /* per run */
	int boards;
};

/* Create db_path with the results schema (it must not hold runs yet) and fill it. */
int dash_synth_fill(const char *db_path, const struct dash_synth *spec, struct rig_err *err);

#endif
