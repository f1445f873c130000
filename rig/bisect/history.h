/*
 * The commits a bisect searches: good, then every first-parent commit after it up to bad, in
 * history order (index 0 is good, the last is bad), read from a git tree with git itself.
 */
#ifndef RIG_BISECT_HISTORY_H
#define RIG_BISECT_HISTORY_H

#include <stddef.h>

#include "util/err.h"

#define HISTORY_SHA_LEN 40

struct history_commit {
	char sha[HISTORY_SHA_LEN + 1];
	char *subject;
};

struct history {
	struct history_commit *commits;
	size_t n;
};

/*
 * Resolve good and bad in the git tree at path (a work tree or a bare repository) and list the
 * range. Usage errors: not a git tree, a revision that is not a commit, good not an ancestor of
 * bad, nothing between them.
 */
int history_load(const char *path, const char *good, const char *bad, struct history *out,
		 struct rig_err *err);

/* Parse `git log --format=%H%x09%s` output (oldest first) onto the end of h. */
int history_parse(const char *text, struct history *h, struct rig_err *err);

void history_free(struct history *h);

#endif
