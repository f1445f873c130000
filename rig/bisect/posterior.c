/*
 * Posterior over the culprit c, with the bad-commit failure rate p marginalised over a grid.
 *
 * The likelihood of culprit c depends only on which observed commits lie at or after c, so it
 * is constant over each run of c values between two observed commits ("segment"). We compute it
 * once per segment and grid point: O(n + segments * grid) per update, not O(n * grid).
 */
#include "bisect/model.h"

#include <math.h>

/* Top of the p grid: high enough that a deterministic failure (p = 1) is recognised as such,
 * below 1 so that a pass on a bad commit never has probability zero. */
#define GRID_TOP 0.999
#define GRID_BOTTOM 0.02
#define FIXED_P_TOP (1.0 - 1e-6)
/* Quantile of p's posterior used for the cautious stopping posterior (post_low). Measured in
 * rig/doc/bisect.md: 0.1 still let lucky failure streaks through at p = 0.1 (accuracy 0.94),
 * 0.05 keeps every simulated cell at >= 0.95 for ~8 % more cycles. */
#define LOW_P_QUANTILE 0.05

static void cache_logs(struct bisect *b)
{
	for (int k = 0; k < b->grid_len; k++) {
		b->grid_log_p[k] = log(b->grid_p[k]);
		b->grid_log_1mp[k] = log1p(-b->grid_p[k]);
	}
	b->log_q = log(b->q);
	b->log_1mq = log1p(-b->q);
}

void bisect_build_grid(struct bisect *b)
{
	if (b->fixed_p > 0.0) {
		b->grid_len = 1;
		b->grid_p[0] = b->fixed_p < FIXED_P_TOP ? b->fixed_p : FIXED_P_TOP;
		b->grid_log_prior[0] = 0.0;
		cache_logs(b);
		return;
	}
	/* p below q would mean bad commits fail less than good ones: not this model. */
	double bottom = 2.0 * b->q > GRID_BOTTOM ? 2.0 * b->q : GRID_BOTTOM;
	b->grid_len = BISECT_GRID_MAX;
	for (int k = 0; k < b->grid_len; k++) {
		double p = bottom + (GRID_TOP - bottom) * k / (b->grid_len - 1);
		b->grid_p[k] = p;
		b->grid_log_prior[k] = (b->prior_alpha - 1.0) * log(p) +
				       (b->prior_beta - 1.0) * log1p(-p);
	}
	cache_logs(b);
}

/* count * log(x) that is 0 when count is 0, whatever x. */
static double weighted_log(int count, double log_x)
{
	return count ? count * log_x : 0.0;
}

/* log P(observations | culprit in this segment, p = grid_p[k]) + log prior(p). */
/* log P(observations | culprit in this segment, p), from log p and log(1 - p). */
static double segment_log_lik_at(const struct bisect *b, const struct bisect_sides *s,
				 double log_p, double log_1mp)
{
	return weighted_log(s->good_fails, b->log_q) + weighted_log(s->good_passes, b->log_1mq) +
	       weighted_log(s->bad_fails, log_p) + weighted_log(s->bad_passes, log_1mp);
}

static double segment_log_lik(const struct bisect *b, const struct bisect_sides *s, int k)
{
	return segment_log_lik_at(b, s, b->grid_log_p[k], b->grid_log_1mp[k]) +
	       b->grid_log_prior[k];
}

/* p's marginal posterior, unnormalised: weight[k] * exp(scale). */
struct p_marginal {
	double weight[BISECT_GRID_MAX];
	double scale;
};

static void p_marginal_add(struct p_marginal *m, int len, const double *w, double log_top)
{
	if (log_top > m->scale) {
		double shrink = exp(m->scale - log_top);
		for (int k = 0; k < len; k++)
			m->weight[k] *= shrink;
		m->scale = log_top;
	}
	double grow = exp(log_top - m->scale);
	for (int k = 0; k < len; k++)
		m->weight[k] += w[k] * grow;
}

/* The segment's log mass over the whole grid, E[p | segment], and its share of p's marginal. */
static double segment_log_mass(const struct bisect *b, const struct bisect_sides *s, int len,
			       double *mean_p, struct p_marginal *marginal)
{
	double log_l[BISECT_GRID_MAX], w[BISECT_GRID_MAX];
	double top = -INFINITY;

	for (int k = 0; k < b->grid_len; k++) {
		log_l[k] = segment_log_lik(b, s, k);
		if (log_l[k] > top)
			top = log_l[k];
	}
	double sum = 0.0, sum_p = 0.0;
	for (int k = 0; k < b->grid_len; k++) {
		w[k] = exp(log_l[k] - top) * len;
		sum += w[k];
		sum_p += w[k] * b->grid_p[k];
	}
	p_marginal_add(marginal, b->grid_len, w, top);
	*mean_p = sum_p / sum;
	return top + log(sum);
}

static bool observed(const struct bisect *b, int i)
{
	return b->fails[i] + b->passes[i] > 0;
}

/* On a graph the bad side of culprit c is c's descendants, not a suffix: every culprit is its
 * own segment, its sides summed over the observed commits (few: one per test so far). */
static void graph_segments(struct bisect *b)
{
	int n_obs = 0;

	for (int i = 0; i < b->n; i++)
		if (observed(b, i))
			b->observed_idx[n_obs++] = i;
	for (int c = 1; c < b->n; c++) {
		struct bisect_sides s = { 0, 0, 0, 0 };
		for (int k = 0; k < n_obs; k++) {
			int i = b->observed_idx[k];
			if (bisect_makes_bad(b, c, i)) {
				s.bad_fails += b->fails[i];
				s.bad_passes += b->passes[i];
			} else {
				s.good_fails += b->fails[i];
				s.good_passes += b->passes[i];
			}
		}
		b->seg_end[c] = c;
		b->seg_sides[c] = s;
	}
}

/* Cut culprits 1..n-1 into segments, recording each one's end and side counts. */
static void find_segments(struct bisect *b)
{
	if (b->anc) {
		graph_segments(b);
		return;
	}

	struct bisect_sides s = { b->fails[0], b->passes[0], 0, 0 };

	for (int i = 1; i < b->n; i++) {
		s.bad_fails += b->fails[i];
		s.bad_passes += b->passes[i];
	}
	for (int start = 1; start < b->n;) {
		int end = start;
		while (end < b->n - 1 && !observed(b, end))
			end++;
		b->seg_end[start] = end;
		b->seg_sides[start] = s;
		/* Culprit end+1 puts commit end on the good side. */
		s.good_fails += b->fails[end];
		s.good_passes += b->passes[end];
		s.bad_fails -= b->fails[end];
		s.bad_passes -= b->passes[end];
		start = end + 1;
	}
}

/* Spread the normalised segment masses (log, in seg_log) over their commits into out[]. */
static void spread_segments(struct bisect *b, double top, double *out)
{
	double total = 0.0;

	for (int start = 1; start < b->n; start = b->seg_end[start] + 1)
		total += exp(b->seg_log[start] - top);
	out[0] = 0.0;
	for (int start = 1; start < b->n; start = b->seg_end[start] + 1) {
		int end = b->seg_end[start];
		double per_commit = exp(b->seg_log[start] - top) / total / (end - start + 1);
		for (int c = start; c <= end; c++)
			out[c] = per_commit;
	}
}

/* Grid index of the LOW_P_QUANTILE quantile of p's marginal posterior. */
static int low_quantile_index(const struct bisect *b, const struct p_marginal *m)
{
	double total = 0.0, acc = 0.0;

	for (int k = 0; k < b->grid_len; k++)
		total += m->weight[k];
	for (int k = 0; k < b->grid_len; k++) {
		acc += m->weight[k];
		if (acc >= LOW_P_QUANTILE * total)
			return k;
	}
	return b->grid_len - 1;
}

/* post_low: the posterior with p pinned at p_low. */
static void update_low_p_posterior(struct bisect *b, double p_low)
{
	double top = -INFINITY;
	double log_p = log(p_low), log_1mp = log1p(-p_low);

	b->p_low = p_low;
	for (int start = 1; start < b->n; start = b->seg_end[start] + 1) {
		int len = b->seg_end[start] - start + 1;
		b->seg_log[start] = segment_log_lik_at(b, &b->seg_sides[start], log_p, log_1mp) +
				    log((double)len);
		top = b->seg_log[start] > top ? b->seg_log[start] : top;
	}
	spread_segments(b, top, b->post_low);
}

void bisect_update_posterior(struct bisect *b)
{
	struct p_marginal marginal = { .scale = -INFINITY };
	double top = -INFINITY;

	find_segments(b);
	for (int start = 1; start < b->n; start = b->seg_end[start] + 1) {
		int end = b->seg_end[start];
		double mean_p;
		b->seg_log[start] = segment_log_mass(b, &b->seg_sides[start], end - start + 1, &mean_p,
						     &marginal);
		for (int c = start; c <= end; c++)
			b->mean_p[c] = mean_p;
		top = b->seg_log[start] > top ? b->seg_log[start] : top;
	}
	spread_segments(b, top, b->post);
	b->fail_rate = 0.0;
	for (int c = 1; c < b->n; c++)
		b->fail_rate += b->post[c] * b->mean_p[c];
	if (b->stop_p > 0.0)
		update_low_p_posterior(b, b->stop_p < FIXED_P_TOP ? b->stop_p : FIXED_P_TOP);
	else
		update_low_p_posterior(b, b->grid_p[low_quantile_index(b, &marginal)]);
}
