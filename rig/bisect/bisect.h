/*
 * Flake-aware culprit finding: a Bayesian search for the first bad commit when the failure is
 * intermittent (a suspend hang that shows up one resume in three).
 *
 * Commits are 0..n-1 in history order; 0 is known good, n-1 known bad, exactly one culprit c in
 * 1..n-1 is the first bad commit. A commit i >= c fails a cycle with probability p (unknown,
 * marginalised over a grid with a Beta prior); i < c fails with probability q (false alarms,
 * given). Every observation updates the posterior over c; bisect_next() picks the commit whose
 * outcome carries the most expected information about c. See rig/doc/bisect.md.
 *
 * Pure computation: no I/O, no randomness, same observations -> same answers.
 */
#ifndef RIG_BISECT_BISECT_H
#define RIG_BISECT_BISECT_H

#include <stdbool.h>

struct bisect;

enum bisect_status {
	BISECT_RUNNING,       /* no answer yet: keep testing bisect_next() */
	BISECT_FOUND,         /* one commit holds >= confidence */
	BISECT_RANGE,         /* skipped commits make a range indistinguishable; the range holds it */
	BISECT_INCONCLUSIVE,  /* out of cycles (or nothing left to test) below confidence */
};

struct bisect_verdict {
	enum bisect_status status;
	int first;            /* most probable culprit range [first, last]; first == last for one commit */
	int last;
	double confidence;    /* posterior mass of [first, last] */
};

/* n >= 2 commits, confidence in (0, 1), q in [0, 0.5). NULL on bad arguments or no memory. */
struct bisect *bisect_new(int n, double confidence, double q);
void bisect_free(struct bisect *b);

/* Stop as inconclusive after this many observations (0 = no limit, the default is 1000). */
int bisect_set_max_cycles(struct bisect *b, int max_cycles);
/* Beta(alpha, beta) prior over the bad-commit failure rate p (default Beta(1, 1)). */
int bisect_set_fail_rate_prior(struct bisect *b, double alpha, double beta);
/* Pin p to a known value in (0, 1] instead of estimating it (p = 1: deterministic failure). */
int bisect_set_fail_rate(struct bisect *b, double p);
/*
 * Measurement only (rig bisect-sim --stop-known-p): p is still estimated for choosing the next
 * commit, but the search stops on the posterior with p pinned at this value in (0, 1]. With the
 * true p it measures how far a better stopping rule alone could go (rig/doc/bisect.md).
 */
int bisect_set_stop_fail_rate(struct bisect *b, double p);

/*
 * Search a commit graph instead of a line (merges included): commits stay 0..n-1 in a
 * topological order (every parent before its children, 0 the good commit, n-1 the bad one), and
 * culprit c makes bad exactly the commits that contain it (c and its descendants). edges holds
 * n_edges (child, parent) pairs, parent < child, both inside the range; a parent outside the
 * range is left out. -1 on a bad edge, when n-1 does not contain every commit, or no memory.
 * Call before the first observation; observations already made are kept.
 */
int bisect_set_graph(struct bisect *b, const int *edges, int n_edges);

/* Before searching, test the bad endpoint n-1 until it has failed this many times (default 1):
 * it confirms the endpoint is bad and gives the first estimate of p. Observations of n-1 made
 * before the search (the run that found the regression) count. */
int bisect_set_endpoint_fails(struct bisect *b, int fails);

/* Record one cycle on commit idx. -1 if idx is out of range or was skipped. */
int bisect_observe(struct bisect *b, int idx, bool failed);
/* Mark commit idx untestable (build failure, infrastructure error). -1 if out of range. */
int bisect_skip(struct bisect *b, int idx);

/* The commit to test next, or -1 when the search is done (see bisect_result). */
int bisect_next(const struct bisect *b);

/* Status; *idx gets the first commit of the best range, *confidence its posterior mass. */
enum bisect_status bisect_result(const struct bisect *b, int *idx, double *confidence);
void bisect_verdict(const struct bisect *b, struct bisect_verdict *v);

/* The k most probable culprits, best first, into idx[] / prob[]; returns how many were written. */
int bisect_top(const struct bisect *b, int k, int *idx, double *prob);

double bisect_posterior(const struct bisect *b, int idx);  /* P(culprit == idx) */
double bisect_fail_rate(const struct bisect *b);           /* posterior mean of p */
int bisect_cycles(const struct bisect *b);                 /* observations so far */
int bisect_commits(const struct bisect *b);

#endif
