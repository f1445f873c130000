/* Known issues (known-issues/known-issues.yaml, documented in known-issues/README.md): kernel
 * faults a lab has acknowledged, loaded and checked. The judge applies them (judge/known.h): a
 * failed verdict whose every failure message matches an active entry is shown as "known" with
 * the entry's id; its raw result stays "fail". */
#ifndef RIG_CONFIG_KNOWN_H
#define RIG_CONFIG_KNOWN_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

#include "util/err.h"

struct known_issue {
	char *id;
	char *title;
	char *pattern;        /* POSIX ERE matched against a failure message; NULL = any message */
	regex_t re;
	bool has_re;
	char *verdict;        /* verdict name it applies to ("clean-resume"); NULL = any */
	char *filesystem;     /* NULL = any */
	char *min_kernel;     /* inclusive, "6.16"; NULL = no lower bound */
	char *max_kernel;     /* inclusive, "7.3.99"; NULL = no upper bound */
	int knob;             /* freeze_filesystems value it needs; -1 = any */
	char *link;           /* upstream report */
	char *note;           /* evidence */
	bool intermittent;    /* may not show on every run: absence is not "possibly fixed" at once */
};

struct known_issues {
	char *path;
	struct known_issue *items;
	size_t n;
};

/* Load and validate (unknown keys, bad regex, bad version: RIG_EXIT_USAGE with file:line). */
int known_load(const char *path, struct known_issues **out, struct rig_err *err);
void known_free(struct known_issues *k);

/* Compare kernel versions numerically by their dotted numeric prefix ("7.3.4-rig" -> 7.3.4). */
int known_version_cmp(const char *a, const char *b);
/* Whether text starts with a dotted number a bound can be compared with. */
bool known_has_version(const char *text);

/* The entry with that id, or NULL. */
const struct known_issue *known_find(const struct known_issues *k, const char *id);

/* "Possibly fixed" rule (known-issues/README.md): an entry not seen for this many nights is
 * reported as possibly fixed; intermittent entries need twice as many. nights 0 = the default. */
#define KNOWN_QUIET_NIGHTS_DEFAULT 7u
/* Twice this must still be a number of nights (intermittent entries double it). */
#define KNOWN_NIGHTS_MAX 100000u
unsigned known_quiet_nights(const struct known_issue *issue, unsigned nights);

#endif
