/* The volatile drive caches of a QEMU board (power/drive_cache.h) around a power cut: where each
 * drive's request log stood when the rig asked the board to sleep, and after the cut what the
 * log says (judge/drive_cache.h), stored with the cycle. */
#ifndef RIG_ENGINE_DRIVES_H
#define RIG_ENGINE_DRIVES_H

#include "engine/ctx.h"
#include "power/drive_cache.h"

struct drive_marks {
	long long offset[DRIVE_CACHE_MAX_DISKS];  /* log size at the mark; -1: no log yet */
	double since;                             /* the mark, wall clock (unix seconds) */
};

/* Note where each volatile drive's log stands now (nothing to do on other boards). */
void drives_mark(const struct engine_ctx *ctx, struct drive_marks *marks);
/* After the cut: each volatile drive's flushes and lost blocks, measured and stored in cyc. */
int drives_collect(struct engine_ctx *ctx, struct results_cycle *cyc,
		   const struct drive_marks *marks, struct rig_err *err);

#endif
