/* Host CPU starvation over each cycle of a board that runs on this host (issue 13 part 3): the
 * engine samples at the cycle's start, when it declares a hang and at the end (engine/host_cpu.h),
 * stores the figures with the cycle and applies judge/starvation.h's decision. */
#ifndef RIG_ENGINE_STARVATION_H
#define RIG_ENGINE_STARVATION_H

#include "engine/ctx.h"

/* A cycle begins: its window opens. */
void starvation_cycle_begin(struct engine_ctx *ctx);
/* A phase outlived its timeout: the window a hang is judged over closes now, before the SysRq
 * dump and the power cut. */
void starvation_hang_declared(struct engine_ctx *ctx);
/* The cycle ends with *status (what its hang or verdicts made it): the window's figures go into
 * cyc; a hang or failure that host starvation explains becomes infra (*status, the verdicts it
 * explains turned to skip, a host-cpu error verdict with the evidence, the run's totals). */
int starvation_cycle_end(struct engine_ctx *ctx, struct results_cycle *cyc,
			 enum results_cycle_status *status, struct rig_err *err);

/* starvation_cycle_end's work with the window's end sample given (to; hung: taken when the hang
 * was declared), so a test can give the samples a starved host would. */
int starvation_apply(struct engine_ctx *ctx, struct results_cycle *cyc,
		     const struct host_cpu_sample *to, bool hung,
		     enum results_cycle_status *status, struct rig_err *err);

#endif
