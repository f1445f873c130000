/* Progress of a run (engine/progress.h). */
#include "engine/progress.h"

#include <stdio.h>

/* 59s, 4m10s, 1h05m */
static void duration(double seconds, char *buf, size_t size)
{
	unsigned long s = seconds > 0 ? (unsigned long)(seconds + 0.5) : 0;

	if (s >= 3600)
		snprintf(buf, size, "%luh%02lum", s / 3600, s % 3600 / 60);
	else if (s >= 60)
		snprintf(buf, size, "%lum%02lus", s / 60, s % 60);
	else
		snprintf(buf, size, "%lus", s);
}

void progress_eta(double elapsed, unsigned done, unsigned total, char *buf, size_t size)
{
	char spent[32], left[32];

	duration(elapsed, spent, sizeof(spent));
	if (done == 0 || done > total) {
		snprintf(buf, size, "elapsed %s, time left known after the first cycle", spent);
		return;
	}
	duration(elapsed / done * (total - done), left, sizeof(left));
	snprintf(buf, size, "elapsed %s, about %s left", spent, left);
}
