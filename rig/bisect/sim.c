#include "bisect/sim.h"

#include "bisect/bisect.h"
#include "bisect/repeat.h"

#include <string.h>

/* Separates the culprit draw from the failure stream of the same trial. */
#define STREAM_SALT 0x5bd1e9955bd1e995ULL
#define SIM_DEFAULT_MAX_CYCLES 1000

void bisect_history_for_trial(struct bisect_history *h, const struct bisect_sim_params *params,
			      int trial)
{
	struct bisect_rng pick;

	bisect_rng_seed(&pick, params->seed ^ ((uint64_t)trial * 0x9e3779b97f4a7c15ULL));
	h->n = params->commits;
	h->p = params->p;
	h->q = params->q;
	h->culprit = bisect_rng_range(&pick, 1, params->commits - 1);
	bisect_rng_seed(&h->rng, bisect_rng_u64(&pick) ^ STREAM_SALT);
}

bool bisect_history_cycle(struct bisect_history *h, int idx)
{
	double rate = idx >= h->culprit ? h->p : h->q;
	return bisect_rng_unit(&h->rng) < rate;
}

static bool valid_params(const struct bisect_sim_params *params)
{
	return params && params->commits >= 2 && params->trials > 0 && params->p > 0.0 &&
	       params->p <= 1.0 && params->q >= 0.0 && params->q < 0.5 && params->max_cycles >= 0 &&
	       params->detect_cycles >= 0;
}

static void finish_stats(struct bisect_sim_stats *s)
{
	s->accuracy = (double)s->correct / s->trials;
	s->mean_cycles = (double)s->total_cycles / s->trials;
}

/* Told p, the search has no reason to spend cycles calibrating on the bad endpoint; the
 * repeat-N baseline is not made to verify it either. */
static int configure_search(struct bisect *b, const struct bisect_sim_params *params)
{
	int budget = params->max_cycles > 0 ? params->max_cycles : SIM_DEFAULT_MAX_CYCLES;

	if (bisect_set_max_cycles(b, budget + params->detect_cycles) < 0)
		return -1;
	if (params->known_p &&
	    (bisect_set_fail_rate(b, params->p) < 0 || bisect_set_endpoint_fails(b, 0) < 0))
		return -1;
	if (params->stop_known_p && bisect_set_stop_fail_rate(b, params->p) < 0)
		return -1;
	return 0;
}

/* The detection run's cycles on the bad endpoint, then the search until it stops. */
static int drive_search(struct bisect *b, struct bisect_history *h, int detect_cycles)
{
	int bad_end = h->n - 1;

	for (int i = 0; i < detect_cycles; i++) {
		if (bisect_observe(b, bad_end, bisect_history_cycle(h, bad_end)) < 0)
			return -1;
	}
	for (int idx = bisect_next(b); idx >= 0; idx = bisect_next(b)) {
		if (bisect_observe(b, idx, bisect_history_cycle(h, idx)) < 0)
			return -1;
	}
	return 0;
}

static int run_flake_aware_trial(const struct bisect_sim_params *params, int trial,
				 struct bisect_sim_stats *s)
{
	struct bisect_history h;
	struct bisect *b = bisect_new(params->commits, params->confidence, params->q);

	if (!b)
		return -1;
	bisect_history_for_trial(&h, params, trial);
	if (configure_search(b, params) < 0 || drive_search(b, &h, params->detect_cycles) < 0) {
		bisect_free(b);
		return -1;
	}
	int answer;
	enum bisect_status status = bisect_result(b, &answer, NULL);
	if (status == BISECT_FOUND && answer == h.culprit)
		s->correct++;
	else if (status != BISECT_FOUND)
		s->inconclusive++;
	s->total_cycles += bisect_cycles(b) - params->detect_cycles;
	bisect_free(b);
	return 0;
}

int bisect_sim_flake_aware(const struct bisect_sim_params *params, struct bisect_sim_stats *out)
{
	if (!valid_params(params) || !out || !(params->confidence > 0.0 && params->confidence < 1.0))
		return -1;
	memset(out, 0, sizeof(*out));
	out->trials = params->trials;
	for (int t = 0; t < params->trials; t++) {
		if (run_flake_aware_trial(params, t, out) < 0)
			return -1;
	}
	finish_stats(out);
	return 0;
}

int bisect_sim_repeat(const struct bisect_sim_params *params, int tries, struct bisect_sim_stats *out)
{
	if (!valid_params(params) || !out || tries < 1)
		return -1;
	memset(out, 0, sizeof(*out));
	out->trials = params->trials;
	for (int t = 0; t < params->trials; t++) {
		struct bisect_history h;
		struct repeat_bisect r;
		bisect_history_for_trial(&h, params, t);
		if (repeat_bisect_init(&r, params->commits, tries) < 0)
			return -1;
		for (int idx = repeat_bisect_next(&r); idx >= 0; idx = repeat_bisect_next(&r)) {
			if (repeat_bisect_observe(&r, bisect_history_cycle(&h, idx)) < 0)
				return -1;
		}
		if (repeat_bisect_result(&r) == h.culprit)
			out->correct++;
		out->total_cycles += r.cycles;
	}
	finish_stats(out);
	return 0;
}

int bisect_sim_find_tries(const struct bisect_sim_params *params, double target, int max_tries,
			  struct bisect_sim_stats *out, bool *reached)
{
	struct bisect_sim_stats best = { 0 };
	int best_tries = -1;

	if (!out || !reached || max_tries < 1)
		return -1;
	*reached = false;
	for (int tries = 1; tries <= max_tries; tries++) {
		struct bisect_sim_stats s;
		if (bisect_sim_repeat(params, tries, &s) < 0)
			return -1;
		if (s.accuracy >= target) {
			*out = s;
			*reached = true;
			return tries;
		}
		if (best_tries < 0 || s.accuracy > best.accuracy) {
			best = s;
			best_tries = tries;
		}
	}
	*out = best;
	return best_tries;
}
