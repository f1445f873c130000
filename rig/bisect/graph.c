/*
 * The commit graph of a bisect over merges: which culprits make which commits bad. A culprit
 * inside a merged branch makes bad its own descendants on that branch, the merge and everything
 * after it, but not the mainline commits before the merge; on a line that is just c..n-1.
 * Stored as one ancestry bitset per commit (n^2/8 bytes: 2 MiB at n = 4096).
 */
#include "bisect/model.h"

#include <stdlib.h>
#include <string.h>

static uint64_t *row(const struct bisect *b, uint64_t *anc, int i)
{
	return anc + (size_t)i * (size_t)b->words;
}

static bool valid_edges(const struct bisect *b, const int *edges, int n_edges)
{
	if (n_edges < 0 || (n_edges > 0 && !edges))
		return false;
	for (int k = 0; k < n_edges; k++) {
		int child = edges[2 * k], parent = edges[2 * k + 1];
		if (parent < 0 || child <= parent || child >= b->n)
			return false;
	}
	return true;
}

/* Every commit in range must be an ancestor of bad, or "bad" would not be bad under it. */
static bool bad_contains_all(const struct bisect *b, const uint64_t *anc)
{
	const uint64_t *last = anc + (size_t)(b->n - 1) * (size_t)b->words;
	for (int c = 0; c < b->n; c++)
		if (!((last[c / 64] >> (c % 64)) & 1u))
			return false;
	return true;
}

/* A commit with one child c has exactly the descendants {itself} + c's: skipped, it can never
 * be told from c. The range verdict covers consecutive indices, so only a child at i+1 joins. */
static void find_chains(const struct bisect *b, const int *edges, int n_edges, bool *chain)
{
	int *children = calloc((size_t)b->n, sizeof(*children));

	memset(chain, 0, (size_t)b->n * sizeof(*chain));
	/* Without the counts no skipped commit joins its child: a range comes out as two
	 * near-equal candidates (inconclusive), never as a wrong answer. */
	if (!children)
		return;
	for (int k = 0; k < n_edges; k++)
		children[edges[2 * k + 1]]++;
	for (int k = 0; k < n_edges; k++) {
		int child = edges[2 * k], parent = edges[2 * k + 1];
		if (children[parent] == 1 && child == parent + 1)
			chain[parent] = true;
	}
	free(children);
}

struct edge {
	int child, parent;
};

static int by_child(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;
	return (x->child > y->child) - (x->child < y->child);
}

/* Row i = {i} + the rows of i's parents. Edges taken in child order: a parent is smaller than its
 * child, so its own edges are all applied before it is read. O(E log E + E n / 64). */
static int fill_ancestry(const struct bisect *b, uint64_t *anc, const int *edges, int n_edges)
{
	struct edge *sorted = malloc((size_t)(n_edges ? n_edges : 1) * sizeof(*sorted));

	if (!sorted)
		return -1;
	for (int k = 0; k < n_edges; k++)
		sorted[k] = (struct edge){ edges[2 * k], edges[2 * k + 1] };
	qsort(sorted, (size_t)n_edges, sizeof(*sorted), by_child);
	for (int i = 0; i < b->n; i++)
		row(b, anc, i)[i / 64] |= (uint64_t)1 << (i % 64);
	for (int k = 0; k < n_edges; k++) {
		uint64_t *r = row(b, anc, sorted[k].child);
		const uint64_t *pr = row(b, anc, sorted[k].parent);
		for (int w = 0; w < b->words; w++)
			r[w] |= pr[w];
	}
	free(sorted);
	return 0;
}

int bisect_set_graph(struct bisect *b, const int *edges, int n_edges)
{
	if (!b || !valid_edges(b, edges, n_edges))
		return -1;
	int words = (b->n + 63) / 64;
	uint64_t *anc = calloc((size_t)b->n * (size_t)words, sizeof(*anc));
	bool *chain = calloc((size_t)b->n, sizeof(*chain));
	int *obs = b->observed_idx ? b->observed_idx : calloc((size_t)b->n, sizeof(*obs));
	b->observed_idx = obs;   /* kept by b whatever happens next: freed with it */
	if (!anc || !chain || !obs) {
		free(anc);
		free(chain);
		return -1;
	}
	b->words = words;
	if (fill_ancestry(b, anc, edges, n_edges) < 0 || !bad_contains_all(b, anc)) {
		free(anc);
		free(chain);
		return -1;
	}
	free(b->anc);
	free(b->chain_next);
	b->anc = anc;
	b->chain_next = chain;
	find_chains(b, edges, n_edges, chain);
	bisect_update_posterior(b);
	return 0;
}
