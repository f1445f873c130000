/*
 * Repeat-N bisection, the way ktest.pl's BISECT_TRIES does it: binary search where a commit is
 * "bad" at its first failure and "good" only after N passes in a row. The baseline the
 * flake-aware search is measured against.
 */
#ifndef RIG_BISECT_REPEAT_H
#define RIG_BISECT_REPEAT_H

#include <stdbool.h>

struct repeat_bisect {
	int good;       /* highest commit judged good */
	int bad;        /* lowest commit judged bad */
	int tries;      /* N */
	int passes;     /* passes so far on the current commit */
	int cycles;
};

/* n >= 2 commits, tries >= 1. -1 on bad arguments. */
int repeat_bisect_init(struct repeat_bisect *r, int n, int tries);
/* Commit to test next, or -1 when good and bad are adjacent. */
int repeat_bisect_next(const struct repeat_bisect *r);
/* Record one cycle on the commit repeat_bisect_next() returned. -1 if the search is over. */
int repeat_bisect_observe(struct repeat_bisect *r, bool failed);
/* The first bad commit according to the search. */
int repeat_bisect_result(const struct repeat_bisect *r);

#endif
