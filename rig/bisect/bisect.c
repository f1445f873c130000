/* Flake-aware search: state, observations and answers. The maths lives in posterior.c (what we
 * believe) and choose.c (what to test next). */
#include "bisect/model.h"

#include <math.h>
#include <stdlib.h>

#define DEFAULT_MAX_CYCLES 1000
/* Smallest false-alarm rate used in the likelihood: q = 0 would make one stray failure on a
 * good commit rule out every culprit after it, forever. */
#define MIN_Q 1e-6
#define DEFAULT_ENDPOINT_FAILS 1

struct bisect *bisect_new(int n, double confidence, double q)
{
	if (n < 2 || !(confidence > 0.0 && confidence < 1.0) || !(q >= 0.0 && q < 0.5))
		return NULL;
	struct bisect *b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->n = n;
	b->confidence = confidence;
	b->q = q < MIN_Q ? MIN_Q : q;
	b->max_cycles = DEFAULT_MAX_CYCLES;
	b->prior_alpha = 1.0;
	b->prior_beta = 1.0;
	b->endpoint_fails = DEFAULT_ENDPOINT_FAILS;
	size_t un = (size_t)n;
	b->fails = calloc(un, sizeof(*b->fails));
	b->passes = calloc(un, sizeof(*b->passes));
	b->skipped = calloc(un, sizeof(*b->skipped));
	b->post = calloc(un, sizeof(*b->post));
	b->mean_p = calloc(un, sizeof(*b->mean_p));
	b->seg_log = calloc(un, sizeof(*b->seg_log));
	b->post_low = calloc(un, sizeof(*b->post_low));
	b->seg_end = calloc(un, sizeof(*b->seg_end));
	b->seg_sides = calloc(un, sizeof(*b->seg_sides));
	if (!b->fails || !b->passes || !b->skipped || !b->post || !b->mean_p || !b->seg_log ||
	    !b->post_low || !b->seg_end || !b->seg_sides) {
		bisect_free(b);
		return NULL;
	}
	bisect_build_grid(b);
	bisect_update_posterior(b);
	return b;
}

void bisect_free(struct bisect *b)
{
	if (!b)
		return;
	free(b->fails);
	free(b->passes);
	free(b->skipped);
	free(b->post);
	free(b->mean_p);
	free(b->seg_log);
	free(b->post_low);
	free(b->seg_end);
	free(b->seg_sides);
	free(b->anc);
	free(b->chain_next);
	free(b->observed_idx);
	free(b);
}

int bisect_set_max_cycles(struct bisect *b, int max_cycles)
{
	if (!b || max_cycles < 0)
		return -1;
	b->max_cycles = max_cycles;
	return 0;
}

int bisect_set_fail_rate_prior(struct bisect *b, double alpha, double beta)
{
	if (!b || !(alpha > 0.0) || !(beta > 0.0))
		return -1;
	b->prior_alpha = alpha;
	b->prior_beta = beta;
	b->fixed_p = 0.0;
	bisect_build_grid(b);
	bisect_update_posterior(b);
	return 0;
}

int bisect_set_fail_rate(struct bisect *b, double p)
{
	if (!b || !(p > 0.0 && p <= 1.0))
		return -1;
	b->fixed_p = p;
	bisect_build_grid(b);
	bisect_update_posterior(b);
	return 0;
}

int bisect_set_stop_fail_rate(struct bisect *b, double p)
{
	if (!b || !(p > 0.0 && p <= 1.0))
		return -1;
	b->stop_p = p;
	bisect_update_posterior(b);
	return 0;
}

int bisect_set_endpoint_fails(struct bisect *b, int fails)
{
	if (!b || fails < 0)
		return -1;
	b->endpoint_fails = fails;
	return 0;
}

static bool valid_index(const struct bisect *b, int idx)
{
	return b && idx >= 0 && idx < b->n;
}

int bisect_observe(struct bisect *b, int idx, bool failed)
{
	if (!valid_index(b, idx) || b->skipped[idx])
		return -1;
	if (failed)
		b->fails[idx]++;
	else
		b->passes[idx]++;
	b->cycles++;
	bisect_update_posterior(b);
	return 0;
}

int bisect_skip(struct bisect *b, int idx)
{
	if (!valid_index(b, idx))
		return -1;
	b->skipped[idx] = true;
	return 0;
}

double bisect_posterior(const struct bisect *b, int idx)
{
	return valid_index(b, idx) ? b->post[idx] : 0.0;
}

double bisect_fail_rate(const struct bisect *b)
{
	return b ? b->fail_rate : 0.0;
}

int bisect_cycles(const struct bisect *b)
{
	return b ? b->cycles : 0;
}

int bisect_commits(const struct bisect *b)
{
	return b ? b->n : 0;
}

/* Culprits c and c+1 differ only in commit c's behaviour, so an untestable commit c can never
 * separate them: a run of skipped commits plus the next commit forms one indistinguishable range.
 * Its mass is the smaller of the marginal and the low-p posterior (see model.h); with a stopping
 * p told (stop_p), that posterior's alone. */
static void range_at(const struct bisect *b, int start, int *last, double *mass)
{
	int end = start;
	double sum = b->post[start], sum_low = b->post_low[start];
	while (end < b->n - 1 && b->skipped[end] && (!b->chain_next || b->chain_next[end])) {
		end++;
		sum += b->post[end];
		sum_low += b->post_low[end];
	}
	*last = end;
	*mass = b->stop_p > 0.0 || sum_low < sum ? sum_low : sum;
}

bool bisect_out_of_cycles(const struct bisect *b)
{
	return b->max_cycles > 0 && b->cycles >= b->max_cycles;
}

double bisect_best_range(const struct bisect *b, int *first, int *last)
{
	double best = -1.0;
	for (int start = 1; start < b->n;) {
		int end;
		double mass;
		range_at(b, start, &end, &mass);
		if (mass > best) {
			best = mass;
			*first = start;
			*last = end;
		}
		start = end + 1;
	}
	return best;
}

void bisect_verdict(const struct bisect *b, struct bisect_verdict *v)
{
	v->status = BISECT_INCONCLUSIVE;
	v->first = v->last = -1;
	v->confidence = 0.0;
	if (!b)
		return;
	v->confidence = bisect_best_range(b, &v->first, &v->last);
	if (v->confidence >= b->confidence)
		v->status = v->first == v->last ? BISECT_FOUND : BISECT_RANGE;
	else if (bisect_out_of_cycles(b) || bisect_next(b) < 0)
		v->status = BISECT_INCONCLUSIVE;
	else
		v->status = BISECT_RUNNING;
}

enum bisect_status bisect_result(const struct bisect *b, int *idx, double *confidence)
{
	struct bisect_verdict v;

	bisect_verdict(b, &v);
	if (idx)
		*idx = v.first;
	if (confidence)
		*confidence = v.confidence;
	return v.status;
}

/* Insertion into a k-long best-first list: k is small (a report's top 3), n may be thousands. */
int bisect_top(const struct bisect *b, int k, int *idx, double *prob)
{
	if (!b || k <= 0 || !idx || !prob)
		return 0;
	int count = 0;
	for (int c = 1; c < b->n; c++) {
		int pos = count < k ? count : k;
		while (pos > 0 && prob[pos - 1] < b->post[c])
			pos--;
		if (pos >= k)
			continue;
		int stop = count < k ? count : k - 1;
		for (int j = stop; j > pos; j--) {
			idx[j] = idx[j - 1];
			prob[j] = prob[j - 1];
		}
		idx[pos] = c;
		prob[pos] = b->post[c];
		if (count < k)
			count++;
	}
	return count;
}

double bisect_entropy(double x)
{
	if (x <= 0.0 || x >= 1.0)
		return 0.0;
	return -x * log(x) - (1.0 - x) * log1p(-x);
}
