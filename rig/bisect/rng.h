/* Seeded pseudo-random numbers for the simulator: splitmix64, tiny and reproducible everywhere. */
#ifndef RIG_BISECT_RNG_H
#define RIG_BISECT_RNG_H

#include <stdint.h>

struct bisect_rng {
	uint64_t state;
};

void bisect_rng_seed(struct bisect_rng *r, uint64_t seed);
uint64_t bisect_rng_u64(struct bisect_rng *r);
double bisect_rng_unit(struct bisect_rng *r);            /* uniform in [0, 1) */
int bisect_rng_range(struct bisect_rng *r, int lo, int hi);  /* uniform in [lo, hi] */

#endif
