/* What the board reports after a step, turned into measurements and verdicts. */
#ifndef RIG_ENGINE_COLLECT_H
#define RIG_ENGINE_COLLECT_H

#include "engine/ctx.h"

/* The frozen window and the freeze order from the kernel's trace since the last read. */
int collect_trace(struct engine_ctx *ctx, struct frozen_window *w, struct rig_err *err);
void collect_window_measurements(struct results_cycle *cyc, const struct frozen_window *w,
				 struct rig_err *err);
/* stall verdict per filesystem from the writers' telemetry against the window. */
int collect_stall(struct engine_ctx *ctx, struct results_cycle *cyc, const struct frozen_window *w,
		  struct rig_err *err);
/* Comma-separated ids of writers that died ("" when all live). */
int collect_writers_alive(struct engine_ctx *ctx, char *dead, size_t size, struct rig_err *err);
/* order verdict: the loop filesystem froze before the filesystem holding its image. */
int collect_order(struct engine_ctx *ctx, struct results_cycle *cyc, const struct frozen_window *w,
		  struct rig_err *err);
/* order verdict after a hang, from the rig's trace events a SysRq-z dump printed on the console
 * (hang_record asks for one): none when no dump shows filesystems_freeze(). */
int collect_order_after_hang(struct engine_ctx *ctx, struct results_cycle *cyc,
			     struct rig_err *err);
/* owner verdict for a filesystem frozen from userspace before the suspend, if any. */
int collect_owner(struct engine_ctx *ctx, struct results_cycle *cyc, struct rig_err *err);
/* no-loss verdicts after a forced failed resume: each writer's file against its last
 * acknowledgement seen on the console before the failure. */
int collect_verify(struct engine_ctx *ctx, struct results_cycle *cyc, const struct acks *acked,
		   struct rig_err *err);
/* Stop fio and keep what it had written (its verify state per filesystem) in ctx->fio_acked,
 * before a forced failed resume; nothing when the plan runs no fio. */
int collect_fio_checkpoint(struct engine_ctx *ctx, struct rig_err *err);
/* no-loss verdicts from fio after the reboot: a verify-only pass per checkpointed filesystem. */
int collect_fio_verify(struct engine_ctx *ctx, struct results_cycle *cyc, struct rig_err *err);
/* fsck verdicts: the filesystems' own read-only checkers on the unmounted filesystems. */
int collect_fsck(struct engine_ctx *ctx, struct results_cycle *cyc, struct rig_err *err);
/* Does the plan run this workload (journal, journal-write, fio, journald)? */
bool plan_runs(const struct plan *plan, const char *workload);

/* systemd boards (collect_systemd.c). */
/* systemd-sleep verdict and systemd-sleep's timing from the result line of a sleep entered
 * through systemctl. */
int collect_systemd_sleep(struct engine_ctx *ctx, struct results_cycle *cyc, const char *line,
			  struct rig_err *err);
/* journald verdict after a forced failed resume when the plan runs the journald workload:
 * journalctl --verify and journald's complaints on this boot (rig-dut journald-check). */
int collect_journald(struct engine_ctx *ctx, struct results_cycle *cyc, struct rig_err *err);

#endif
