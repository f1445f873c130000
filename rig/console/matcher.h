/* Waiting for console lines: the first line matching one of N POSIX extended regexes, each
 * pattern with its own timeout. Lines read while waiting still reach the event handler. */
#ifndef RIG_CONSOLE_MATCHER_H
#define RIG_CONSOLE_MATCHER_H

#include <stddef.h>
#include <time.h>

#include "console/console.h"

#define CONSOLE_WAIT_TIMEOUT (-2)

struct console_pattern {
	const char *regex;        /* POSIX ERE, unanchored; matched against the logical line */
	int timeout_ms;           /* the pattern stops counting after this; -1 = never */
};

struct console_match {
	int index;                /* which pattern matched, -1 if none */
	char *line;               /* copy of the matching line (free with console_match_free) */
	struct timespec host_time;
};

/* Returns the matching pattern's index, CONSOLE_WAIT_TIMEOUT once every pattern's time is up,
 * or -1 on error (bad regex: RIG_EXIT_USAGE; console gone: RIG_EXIT_INFRA). m may be NULL. */
int console_wait(struct console *c, const struct console_pattern *patterns, size_t n,
		 struct console_match *m, struct rig_err *err);
/* One pattern. */
int console_wait_for(struct console *c, const char *regex, int timeout_ms,
		     struct console_match *m, struct rig_err *err);
void console_match_free(struct console_match *m);

#endif
