/* After a step: the evidence the board gives (through the typed client, dut.h) and the console
 * collected, handed to the judge (judge/judge.h), its verdicts stored in the cycle. */
#ifndef RIG_ENGINE_COLLECT_H
#define RIG_ENGINE_COLLECT_H

#include "engine/ctx.h"

/* After a resume with the old userspace: trace, writers' telemetry, writers alive, the owner's
 * filesystem, the console's events; judged (stall, order, owner, clean-resume, writers-alive). */
int collect_after_resume(struct engine_ctx *ctx, struct results_cycle *cyc, struct rig_err *err);
/* After a hang: the order verdict from a SysRq-z trace dump on the console (hang_record asks
 * for one); nothing when no dump shows filesystems_freeze(). */
int collect_order_after_hang(struct engine_ctx *ctx, struct results_cycle *cyc,
			     struct rig_err *err);
/* Stop fio and keep what it had written (its verify state per filesystem) in ctx->fio_acked,
 * before a forced failed resume; nothing when the plan runs no fio. */
int collect_fio_checkpoint(struct engine_ctx *ctx, struct rig_err *err);
/* After the reboot that follows a forced failed resume: the journals (and journald's entries)
 * against the acknowledgements seen before the failure, journald's own check when the plan runs
 * it, fio's blocks, fsck, the console's events. */
int collect_after_failure(struct engine_ctx *ctx, struct results_cycle *cyc,
			  const struct acks *acked, struct rig_err *err);
/* Judge and store: a helper for the steps' own verdicts (suspend, hibernate, wake). */
int collect_store(struct engine_ctx *ctx, struct results_cycle *cyc, struct judgement *j,
		  int judged, struct rig_err *err);

#endif
