/* Internal state of the flake-aware search, shared by bisect.c, posterior.c and choose.c. */
#ifndef RIG_BISECT_MODEL_H
#define RIG_BISECT_MODEL_H

#include "bisect/bisect.h"

#include <stddef.h>
#include <stdint.h>

/* Grid over the bad-commit failure rate p: fine enough that p's posterior (std ~0.05 after a
 * few dozen cycles) is well resolved, small enough to keep an update O(segments * grid). */
#define BISECT_GRID_MAX 48

/* Cycles on either side of a hypothetical culprit c. */
struct bisect_sides {
	int good_fails, good_passes;  /* commits before c */
	int bad_fails, bad_passes;    /* commits at or after c */
};

struct bisect {
	int n;
	double confidence;
	double q;             /* clamped away from 0 so a stray failure never zeroes the posterior */
	int max_cycles;
	int cycles;

	int grid_len;
	double grid_p[BISECT_GRID_MAX];
	double grid_log_prior[BISECT_GRID_MAX];
	double grid_log_p[BISECT_GRID_MAX];     /* log p, log(1-p): the update's hot loop */
	double grid_log_1mp[BISECT_GRID_MAX];
	double log_q, log_1mq;
	double prior_alpha, prior_beta;
	double fixed_p;       /* > 0 when p is pinned */
	int endpoint_fails;   /* failures wanted on commit n-1 before searching */

	int *fails;           /* per commit: failed cycles */
	int *passes;          /* per commit: passed cycles */
	bool *skipped;

	/* Posterior, recomputed after every change. */
	double *post;         /* P(c == i); post[0] == 0 */
	double *mean_p;       /* E[p | c == i] */
	/* Scratch, indexed by a segment's first culprit: culprits start..seg_end[start] share one
	 * likelihood (no observed commit between them), with counts seg_sides[start]. */
	int *seg_end;
	struct bisect_sides *seg_sides;
	double *seg_log;
	double fail_rate;     /* E[p] */
	/* The same posterior with p pinned at a low quantile of its posterior: a low p makes every
	 * observation weaker evidence, so stopping only when this one agrees guards against the
	 * lucky streaks that make p look higher than it is. */
	double *post_low;
	double p_low;
	/* > 0: the stopping posterior (post_low) is computed at this p, told by the simulator, and
	 * the marginal no longer counts for stopping (bisect_set_stop_fail_rate: a bound). */
	double stop_p;

	/* The commit graph (graph.c); NULL when the commits are a line, where culprit c makes
	 * exactly c..n-1 bad. Otherwise row i (words 64-bit words) is the set of culprits that make
	 * commit i bad: i's ancestors inside the range, and i itself. */
	uint64_t *anc;
	int words;
	/* Graph only: commit i+1 is i's only child, so a skipped i cannot be told apart from i+1
	 * (the line's "next commit" rule). */
	bool *chain_next;
	int *observed_idx;    /* graph only, scratch: the commits observed so far */
};

/* Does culprit c make commit i bad? */
static inline bool bisect_makes_bad(const struct bisect *b, int c, int i)
{
	if (!b->anc)
		return i >= c;
	return (b->anc[(size_t)i * (size_t)b->words + (size_t)(c / 64)] >> (c % 64)) & 1u;
}

/* Recompute post[], mean_p[] and fail_rate from the counts. */
void bisect_update_posterior(struct bisect *b);
/* Rebuild the p grid and its log prior from prior_alpha/beta or fixed_p. */
void bisect_build_grid(struct bisect *b);

/* Posterior mass of the most probable indistinguishable range [*first, *last]. */
double bisect_best_range(const struct bisect *b, int *first, int *last);
bool bisect_out_of_cycles(const struct bisect *b);

/* Binary entropy in nats; h(0) = h(1) = 0. */
double bisect_entropy(double x);

#endif
