/* Human-readable text for `rig results`: the query results (query.h) as aligned tables. */
#ifndef RIG_RESULTS_FORMAT_H
#define RIG_RESULTS_FORMAT_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "results/cycle.h"

/* One line per run, from results_query_runs(). */
int results_format_runs(FILE *out, json_t *runs);
/* The run's fields, then its cycles, verdicts, measurements and artefacts (results_query_run()). */
int results_format_run(FILE *out, json_t *run);
/* A suspend's wake accounting in one line, as `rig results` and the dashboard's cycle view show
 * it: "rtc alarm 5000 ms (asleep 120 ms after arming): asleep 4980 ms, awake 1300 ms; irq 8
 * (rtc0); sources 00_01:1:1". */
void results_wake_describe(const struct results_wake *w, char *buf, size_t size);

#endif
