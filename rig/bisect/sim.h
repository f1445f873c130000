/*
 * Simulated suspend-hang histories, to measure the flake-aware search against repeat-N
 * bisection: n commits, a culprit drawn uniformly from 1..n-1, bad commits fail a cycle with
 * probability p and good ones with probability q. Seeded: the same parameters give the same
 * figures on every machine. Trial t of either method sees the same culprit and failure stream.
 */
#ifndef RIG_BISECT_SIM_H
#define RIG_BISECT_SIM_H

#include <stdbool.h>
#include <stdint.h>

#include "bisect/rng.h"

struct bisect_history {
	int n;
	int culprit;
	double p, q;
	struct bisect_rng rng;   /* the failure stream */
};

struct bisect_sim_params {
	int commits;
	double p;                /* bad-commit failure rate */
	double q;                /* good-commit false-alarm rate (also what the search is told) */
	double confidence;
	int max_cycles;          /* per bisection; 0 = 1000 */
	bool known_p;            /* tell the search p instead of letting it estimate p */
	bool stop_known_p;       /* estimate p for choosing, but stop on the posterior at the true p
				  * (a bound on what any stopping rule could save; not a method) */
	int detect_cycles;       /* cycles of the bad endpoint already run (the run that found the
				  * regression): fed to the search first, not counted as its cycles */
	int trials;
	uint64_t seed;
};

struct bisect_sim_stats {
	int trials;
	int correct;             /* answered with the true culprit */
	int inconclusive;        /* flake-aware only: gave no answer */
	long total_cycles;
	double accuracy;         /* correct / trials */
	double mean_cycles;
};

/* Trial t's history: culprit and failure stream derived from (seed, t). */
void bisect_history_for_trial(struct bisect_history *h, const struct bisect_sim_params *params,
			      int trial);
/* One cycle on commit idx: does it fail? */
bool bisect_history_cycle(struct bisect_history *h, int idx);

/* Run params->trials flake-aware bisections. -1 on bad parameters or no memory. */
int bisect_sim_flake_aware(const struct bisect_sim_params *params, struct bisect_sim_stats *out);
/* Run params->trials repeat-N (ktest BISECT_TRIES) bisections with N = tries. */
int bisect_sim_repeat(const struct bisect_sim_params *params, int tries, struct bisect_sim_stats *out);
/* Smallest N in 1..max_tries whose accuracy reaches target; if none does, the N with the best
 * accuracy. Returns that N (stats in *out) and sets *reached; -1 on bad parameters. */
int bisect_sim_find_tries(const struct bisect_sim_params *params, double target, int max_tries,
			  struct bisect_sim_stats *out, bool *reached);

#endif
