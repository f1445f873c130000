/*
 * The commits a bisect searches: good, then every commit reachable from bad but not from good
 * (merged branches included), in a topological order (parents before children; index 0 is good,
 * the last is bad), with each commit's parents inside that set. Read with git itself.
 */
#ifndef RIG_BISECT_HISTORY_H
#define RIG_BISECT_HISTORY_H

#include <stdbool.h>
#include <stddef.h>

#include "util/err.h"

#define HISTORY_SHA_LEN 40

struct history_commit {
	char sha[HISTORY_SHA_LEN + 1];
	char *subject;
	int *parents;           /* indices of its parents in the range (parents outside it left out) */
	int n_parents;
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

/* Parse `git log --format=%H%x09%P%x09%s` output (parents first) onto the end of h: parents
 * already in h become parent indices, others are left out. */
int history_parse(const char *text, struct history *h, struct rig_err *err);

/* True when every commit's only parent is the one before it (the search then needs no graph). */
bool history_is_line(const struct history *h);
/* (child, parent) index pairs for bisect_set_graph: *edges is malloc'ed, *n_edges pairs. */
int history_edges(const struct history *h, int **edges, int *n_edges);

void history_free(struct history *h);

#endif
