/* Limits on YAML text checked before libyaml builds a document from it. libyaml has none: a
 * board file nested 200k deep was still parsing after 60 s and a LAVA log line nested 40k deep
 * took 8.7 s (its scanner rechecks every open flow level per token, quadratic in the depth).
 * An alias stands for its anchor's whole value, and each use of it is decoded (copied) again:
 * a 1 MB known-issues file of one 100 KB entry aliased 130 000 times asked for 13 GB and
 * ended "out of memory" after 5.9 s; nested anchors ("billion laughs") stand for 10^9 nodes in
 * a few KB. No file or log line the rig reads uses aliases (the schemas are flat, a plan
 * repeats steps with `cycles`), so an alias is refused outright rather than counted: a count
 * of nodes would still let one large scalar be copied 10^5 times, and libyaml looks up every
 * alias by a linear search of the anchors. The check walks the text's events once and stops at
 * the first level too deep or the first alias, so its own time is linear. */
#ifndef RIG_CONFIG_YAML_LIMITS_H
#define RIG_CONFIG_YAML_LIMITS_H

#include <stddef.h>

#include "util/err.h"

/* Board files, plans and known-issue lists are hand-written: a few KB. */
#define YAML_FILE_MAX_BYTES (1024 * 1024)
/* Deeper than any file or LAVA log line the rig reads has reason to be (they use < 8). */
#define YAML_MAX_DEPTH 64

/* 0 when text (len bytes, from file, its first line numbered first_line) nests collections at
 * most YAML_MAX_DEPTH deep and has no alias (*name); otherwise -1 with err (RIG_EXIT_USAGE)
 * naming file:line and the limit. A syntax error is not reported here: the loader that follows
 * reports it in its own words. */
int yaml_limits_check(const char *text, size_t len, const char *file, unsigned first_line,
		      struct rig_err *err);

#endif
