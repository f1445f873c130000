/* Counting by a string key (verdict name, kernel version, knob setting) over a board's runs. */
#ifndef RIG_DASHBOARD_TALLY_H
#define RIG_DASHBOARD_TALLY_H

#include <stddef.h>

#define TALLY_COUNTS 7   /* one per dash_status_rank(), or pass/fail/known/skip/runs for verdicts */

struct tally_row {
	const char *key;        /* borrowed from the model */
	long counts[TALLY_COUNTS];
	const char *first_night, *last_night;
};

struct tally {
	struct tally_row *rows;
	size_t n, cap;
};

/* The row for key, added zeroed if new; NULL when out of memory. */
struct tally_row *tally_row(struct tally *t, const char *key);
void tally_sort(struct tally *t);
void tally_free(struct tally *t);

#endif
