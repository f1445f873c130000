/* What `rig run` says before each cycle about the time: spent so far and, once a cycle has
 * ended, about how much is left at the average pace so far. Pure. */
#ifndef RIG_ENGINE_PROGRESS_H
#define RIG_ENGINE_PROGRESS_H

#include <stddef.h>

/* "elapsed 19m02s, about 1h05m left" after done of total cycles in elapsed seconds;
 * "elapsed 2m10s, time left known after the first cycle" while none has ended. */
void progress_eta(double elapsed, unsigned done, unsigned total, char *buf, size_t size);

#endif
