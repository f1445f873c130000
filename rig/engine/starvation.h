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

/* The cycle ended on an infrastructure error (error: its message): the cycle window's figures go
 * into cyc and, when the last board command timed out (the session's command_timed_out) in a
 * window of its own that was starved (command_window), a host-cpu error verdict says the host
 * explains it (the totals' starved count; the cycle stays infra). */
int starvation_infra_end(struct engine_ctx *ctx, struct results_cycle *cyc, const char *error,
			 struct rig_err *err);
/* Its work with the cycle's end sample and the timed-out command's window (NULL: none) given,
 * for a test. */
int starvation_infra_apply(struct engine_ctx *ctx, struct results_cycle *cyc,
			   const struct host_cpu_sample *to, const char *error,
			   const struct starve_window *timed_out, struct rig_err *err);

#endif
