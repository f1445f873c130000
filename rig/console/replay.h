/* Feeding recorded console text (a run's console log, or a raw capture) through the same
 * escape stripping and kernel-record splitting as a live console, for offline analysis and
 * tests. A leading "[<unix secs>.<usecs>] " host stamp (console/log.h format) is removed and
 * becomes the line's host time. */
#ifndef RIG_CONSOLE_REPLAY_H
#define RIG_CONSOLE_REPLAY_H

#include <stdio.h>
#include <time.h>

#include "util/err.h"

/* Called per logical line; non-zero stops the replay and is returned. */
typedef int (*replay_line_fn)(void *ctx, const char *line, const struct timespec *host_time);

int console_replay_stream(FILE *in, const char *marker, replay_line_fn fn, void *ctx,
			  struct rig_err *err);
int console_replay_file(const char *path, const char *marker, replay_line_fn fn, void *ctx,
			struct rig_err *err);

#endif
