/* Trace events fed into a frozen window (judge/window.h), one microsecond apart, for the tests
 * of the window and of the verdicts on it: FEED(&w, { "freeze_super", "sda1" }, ...). */
#ifndef RIG_TESTS_FEED_WINDOW_H
#define RIG_TESTS_FEED_WINDOW_H

#include <string.h>

#include "judge/window.h"

struct ev {
	const char *name, *dev;
};

static inline void feed(struct frozen_window *w, const struct ev *evs, size_t n)
{
	memset(w, 0, sizeof(*w));
	for (size_t i = 0; i < n; i++)
		window_feed(w, evs[i].name, 1000 * (i + 1), evs[i].dev);
}

#define FEED(w, ...)                                                             \
	do {                                                                     \
		const struct ev evs_[] = { __VA_ARGS__ };                        \
		feed(w, evs_, sizeof(evs_) / sizeof(evs_[0]));                   \
	} while (0)

#endif
