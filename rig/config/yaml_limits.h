/* Limits on YAML text checked before libyaml builds a document from it. libyaml has none: a
 * board file nested 200k deep was still parsing after 60 s and a LAVA log line nested 40k deep
 * took 8.7 s (its scanner rechecks every open flow level per token, quadratic in the depth).
 * The check walks the text's events once and stops at the first level too deep, so its own
 * time is linear. */
#ifndef RIG_CONFIG_YAML_LIMITS_H
#define RIG_CONFIG_YAML_LIMITS_H

#include <stddef.h>

#include "util/err.h"

/* Board files, plans and known-issue lists are hand-written: a few KB. */
#define YAML_FILE_MAX_BYTES (1024 * 1024)
/* Deeper than any file or LAVA log line the rig reads has reason to be (they use < 8). */
#define YAML_MAX_DEPTH 64

/* 0 when text (len bytes, from file, its first line numbered first_line) nests collections at
 * most YAML_MAX_DEPTH deep; otherwise -1 with err (RIG_EXIT_USAGE) naming file:line. A syntax
 * error is not reported here: the loader that follows reports it in its own words. */
int yaml_limits_check_depth(const char *text, size_t len, const char *file, unsigned first_line,
			    struct rig_err *err);

#endif
