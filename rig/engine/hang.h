/* What the rig does when a phase outlives its timeout: a hang is a result, not a crash. */
#ifndef RIG_ENGINE_HANG_H
#define RIG_ENGINE_HANG_H

#include "engine/ctx.h"

/* Record a hang of phase in cyc (may be NULL): the console tail, a SysRq task dump attempt,
 * then a hard power cut; the board must be booted again. Returns 1, or -1 if even the power cut
 * failed (an infrastructure error). */
int hang_record(struct engine_ctx *ctx, struct results_cycle *cyc, const char *phase,
		struct rig_err *err);

/* The last max_lines lines of a file, newly allocated ("" when unreadable). */
char *file_tail(const char *path, unsigned max_lines);

#endif
