/* Human-readable text for `rig results`: the query results (query.h) as aligned tables. */
#ifndef RIG_RESULTS_FORMAT_H
#define RIG_RESULTS_FORMAT_H

#include <jansson.h>
#include <stdio.h>

/* One line per run, from results_query_runs(). */
int results_format_runs(FILE *out, json_t *runs);
/* The run's fields, then its cycles, verdicts, measurements and artefacts (results_query_run()). */
int results_format_run(FILE *out, json_t *run);

#endif
