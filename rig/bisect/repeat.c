#include "bisect/repeat.h"

int repeat_bisect_init(struct repeat_bisect *r, int n, int tries)
{
	if (!r || n < 2 || tries < 1)
		return -1;
	r->good = 0;
	r->bad = n - 1;
	r->tries = tries;
	r->passes = 0;
	r->cycles = 0;
	return 0;
}

int repeat_bisect_next(const struct repeat_bisect *r)
{
	if (r->bad - r->good <= 1)
		return -1;
	return r->good + (r->bad - r->good) / 2;
}

int repeat_bisect_observe(struct repeat_bisect *r, bool failed)
{
	int mid = repeat_bisect_next(r);
	if (mid < 0)
		return -1;
	r->cycles++;
	if (failed) {
		r->bad = mid;
		r->passes = 0;
	} else if (++r->passes == r->tries) {
		r->good = mid;
		r->passes = 0;
	}
	return 0;
}

int repeat_bisect_result(const struct repeat_bisect *r)
{
	return r->bad;
}
