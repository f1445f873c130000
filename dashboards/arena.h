/*
 * Memory for the dashboard's loaders. A bump allocator for the strings of one run page: copied
 * out of the database's rows while the run loads, all released at once when the next run starts
 * (saves a malloc/free per database string, which dominates rendering time at 10,000 runs).
 */
#ifndef RIG_DASHBOARD_ARENA_H
#define RIG_DASHBOARD_ARENA_H

#include <stddef.h>

struct arena_block;

struct arena {
	struct arena_block *head;   /* newest block first */
};

/* Copy of s (len bytes, NUL added), or NULL when s is NULL; *oom is set when memory ran out. */
char *arena_strndup(struct arena *a, const char *s, size_t len, int *oom);
/* Forget every string, keeping one block for reuse. */
void arena_reset(struct arena *a);
void arena_free(struct arena *a);

#endif
