/* One cycle's per-device suspend/resume timeline as inline SVG (the run page), drawn like
 * sleepgraph's: the kernel's suspend_resume phases on top, then one row per device with a bar per
 * PM callback coloured by phase, the phase's "others" (callbacks under the board's threshold)
 * together, then the rig's own joins on the same axis: each filesystem's frozen window and each
 * writer's stalls. The time asleep (machine_suspend) is folded to a fixed gap so the suspend and
 * resume sides keep their width. No script: each bar's tooltip (<title>) says what and how long. */
#ifndef RIG_DASHBOARD_TIMELINE_SVG_H
#define RIG_DASHBOARD_TIMELINE_SVG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "results/timeline.h"

/* rows: one cycle's, as results_timeline_read() gives them (strings are escaped when written). */
void svg_timeline(FILE *f, const struct results_timeline_row *rows, size_t n);

#endif
