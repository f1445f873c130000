#include "dashboards/arena.h"

#include <stdlib.h>
#include <string.h>

#define BLOCK_SIZE 65536

struct arena_block {
	struct arena_block *next;
	size_t used, size;
	char data[];
};

static struct arena_block *new_block(struct arena *a, size_t need)
{
	size_t size = need > BLOCK_SIZE ? need : BLOCK_SIZE;
	struct arena_block *b = malloc(sizeof(*b) + size);

	if (!b)
		return NULL;
	b->next = a->head;
	b->used = 0;
	b->size = size;
	a->head = b;
	return b;
}

char *arena_strndup(struct arena *a, const char *s, size_t len, int *oom)
{
	struct arena_block *b = a->head;
	char *copy;

	if (!s)
		return NULL;
	if (!b || b->size - b->used < len + 1)
		b = new_block(a, len + 1);
	if (!b) {
		*oom = 1;
		return NULL;
	}
	copy = b->data + b->used;
	memcpy(copy, s, len);
	copy[len] = '\0';
	b->used += len + 1;
	return copy;
}

void arena_reset(struct arena *a)
{
	struct arena_block *keep = a->head;

	if (!keep)
		return;
	/* Keep the oldest block: it has the standard size, a newer one may be an oversized one. */
	while (keep->next) {
		struct arena_block *next = keep->next;

		free(keep);
		keep = next;
	}
	keep->used = 0;
	a->head = keep;
}

void arena_free(struct arena *a)
{
	while (a->head) {
		struct arena_block *next = a->head->next;

		free(a->head);
		a->head = next;
	}
}
