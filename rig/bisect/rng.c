#include "bisect/rng.h"

void bisect_rng_seed(struct bisect_rng *r, uint64_t seed)
{
	r->state = seed;
}

uint64_t bisect_rng_u64(struct bisect_rng *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

double bisect_rng_unit(struct bisect_rng *r)
{
	return (double)(bisect_rng_u64(r) >> 11) * 0x1.0p-53;
}

/* Multiply-shift: the bias is below 2^-32 for any span a commit history can have. */
int bisect_rng_range(struct bisect_rng *r, int lo, int hi)
{
	uint64_t span = (uint64_t)((int64_t)hi - lo + 1);
	return lo + (int)(((bisect_rng_u64(r) >> 32) * span) >> 32);
}
