/*
 * Which commit to test next: the one whose pass/fail outcome has the largest mutual information
 * with the culprit,
 *
 *   I(i) = h(P(fail at i)) - sum_c P(c) h(P(fail at i | c)),
 *   P(fail at i | c) = E[p | c] if i >= c, else q.
 *
 * With p = 1 and q = 0 this is the posterior median: plain binary search. With flaky failures it
 * leans towards the side where a failure is informative and happily re-tests the same commit:
 * a pass on a bad commit is weak evidence, and the maths knows how weak.
 */
#include "bisect/model.h"

/* Below this (in nats) a test is not worth a cycle: the posterior cannot move. */
#define MIN_GAIN 1e-9

struct running_sums {
	double mass;      /* P(c <= i) */
	double fail;      /* sum_{c <= i} P(c) E[p | c] */
	double entropy;   /* sum_{c <= i} P(c) h(E[p | c]) */
};

static double gain_at(const struct bisect *b, const struct running_sums *r, double h_q)
{
	double good_mass = 1.0 - r->mass;
	if (good_mass < 0.0)
		good_mass = 0.0;
	double p_fail = r->fail + good_mass * b->q;
	return bisect_entropy(p_fail) - r->entropy - good_mass * h_q;
}

/* On a graph, commit i is bad under its ancestors (and itself), not under a prefix. */
static void graph_sums(const struct bisect *b, int i, struct running_sums *r)
{
	*r = (struct running_sums){ 0.0, 0.0, 0.0 };
	for (int c = 1; c <= i; c++) {
		if (!bisect_makes_bad(b, c, i))
			continue;
		r->mass += b->post[c];
		r->fail += b->post[c] * b->mean_p[c];
		r->entropy += b->post[c] * bisect_entropy(b->mean_p[c]);
	}
}

int bisect_next(const struct bisect *b)
{
	int first, last;

	if (!b || bisect_out_of_cycles(b) || bisect_best_range(b, &first, &last) >= b->confidence)
		return -1;
	if (b->fails[b->n - 1] < b->endpoint_fails && !b->skipped[b->n - 1])
		return b->n - 1;
	/* Commit 0 fails at rate q whatever c is: never informative. Commit n-1 is bad under every
	 * culprit, yet not useless: it fails at E[p | c], which differs between culprits once they
	 * have seen different data, so testing it sharpens p where that separates culprits. */
	struct running_sums r = { 0.0, 0.0, 0.0 };
	double h_q = bisect_entropy(b->q);
	double best_gain = MIN_GAIN;
	int best = -1;
	for (int i = 1; i < b->n; i++) {
		if (b->anc) {
			if (b->skipped[i])
				continue;
			graph_sums(b, i, &r);
		} else {
			r.mass += b->post[i];
			r.fail += b->post[i] * b->mean_p[i];
			r.entropy += b->post[i] * bisect_entropy(b->mean_p[i]);
		}
		if (b->skipped[i])
			continue;
		double gain = gain_at(b, &r, h_q);
		if (gain > best_gain) {
			best_gain = gain;
			best = i;
		}
	}
	return best;
}
