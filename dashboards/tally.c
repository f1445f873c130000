#include "dashboards/tally.h"

#include <stdlib.h>
#include <string.h>

#include "util/array.h"

/* Linear search: a board has a handful of verdict names, kernels and knob settings. */
struct tally_row *tally_row(struct tally *t, const char *key)
{
	for (size_t i = t->n; i-- > 0;)
		if (strcmp(t->rows[i].key, key) == 0)
			return &t->rows[i];
	if (array_grow((void **)&t->rows, &t->cap, t->n, sizeof(*t->rows)))
		return NULL;
	t->rows[t->n] = (struct tally_row){ .key = key };
	return &t->rows[t->n++];
}

static int row_cmp(const void *a, const void *b)
{
	return strcmp(((const struct tally_row *)a)->key, ((const struct tally_row *)b)->key);
}

void tally_sort(struct tally *t)
{
	if (t->n)  /* qsort(NULL, 0) is undefined: a board whose runs have no verdict yet */
		qsort(t->rows, t->n, sizeof(*t->rows), row_cmp);
}

void tally_free(struct tally *t)
{
	free(t->rows);
	*t = (struct tally){ 0 };
}
