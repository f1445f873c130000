/* Known issues applied to verdicts (the entries: config/known.h). Pure: no I/O. */
#ifndef RIG_JUDGE_KNOWN_H
#define RIG_JUDGE_KNOWN_H

#include <stddef.h>

#include "config/known.h"

/* The first entry that explains one failure message of a verdict, or NULL. kernel_version may
 * be NULL (matches only entries without bounds); knob -1 = unknown (matches only knob -1). */
const struct known_issue *known_match(const struct known_issues *k, const char *verdict,
				      const char *filesystem, const char *kernel_version, int knob,
				      const char *message);

/* 1 when EVERY message is explained by some entry (a fresh failure among known ones keeps the
 * verdict a failure); *id_out (if non-NULL) is then the id of the entry matching the first
 * message. 0 when any message is unexplained, when n == 0 or when k is NULL. */
int known_classify(const struct known_issues *k, const char *verdict, const char *filesystem,
		   const char *kernel_version, int knob, const char *const *messages, size_t n,
		   const char **id_out);

#endif
