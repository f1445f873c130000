/* `rig results --slowest-devices`: results_slowest_devices() (results/timeline.h) as a text
 * table or JSON. */
#ifndef RIG_RESULTS_SLOWEST_H
#define RIG_RESULTS_SLOWEST_H

#include <stdbool.h>
#include <stdio.h>

#include "results/timeline.h"

/* One row per board, kernel, phase and device; "no timelines stored" when there is none. */
int results_print_slowest(struct results_db *db, const struct results_slow_filter *filter,
			  bool json, FILE *out, struct rig_err *err);

#endif
