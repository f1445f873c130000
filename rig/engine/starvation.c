/* Host CPU starvation sampled, stored and applied to a cycle (engine/starvation.h). */
#include "engine/starvation.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine/host_cpu.h"
#include "judge/starvation.h"

static void sample(struct engine_ctx *ctx, struct host_cpu_sample *out)
{
	host_cpu_sample_board(ctx->s ? ctx->s->power : NULL, out);
}

void starvation_cycle_begin(struct engine_ctx *ctx)
{
	sample(ctx, &ctx->host_from);
	ctx->host_hang = (struct host_cpu_sample){ 0 };
	if (ctx->s)
		ctx->s->command_timed_out = ctx->s->command_window_known = false;
}

void starvation_hang_declared(struct engine_ctx *ctx)
{
	sample(ctx, &ctx->host_hang);
}

static double known(bool is_known, double value)
{
	return is_known ? value : NAN;
}

/* The verdicts a starved host explains are not judged; the cycle is infra, with the
 * evidence in a verdict of its own (the dashboard and rig results show a cycle's verdicts). */
static int reclassify(struct engine_ctx *ctx, struct results_cycle *cyc,
		      enum results_cycle_status *status, const char *why, struct rig_err *err)
{
	char detail[2048];

	for (size_t i = 0; i < cyc->n_verdicts; i++) {
		struct results_verdict *v = &cyc->verdicts[i];

		if (!starve_timing_failure(v, cyc->events, cyc->n_events))
			continue;
		snprintf(detail, sizeof(detail), "not judged: the host starved the board of CPU "
			 "(see host-cpu); %s", v->detail ? v->detail : "");
		store_recount_as_skip(ctx, v->name);
		if (results_cycle_set_verdict(cyc, i, RESULTS_VERDICT_SKIP, detail, err) < 0)
			return -1;
	}
	if (results_cycle_add_verdict(cyc, "host-cpu", NULL, RESULTS_VERDICT_ERROR, NULL, why,
				      err) < 0)
		return -1;
	if (*status == RESULTS_CYCLE_HANG && ctx->totals->hangs > 0)
		ctx->totals->hangs--;
	ctx->totals->infra++;
	ctx->totals->starved++;
	*status = RESULTS_CYCLE_INFRA;
	session_say(ctx->s, "  infrastructure, not the kernel: %s", why);
	return 0;
}

static int store_window(struct results_cycle *cyc, const struct starve_window *w, bool hung,
			bool reclassified, char *why, struct rig_err *err)
{
	struct results_host_cpu h = {
		.recorded = true, .applicable = w->applicable, .window_end = hung ? "hang" : "end",
		.window_s = w->applicable && w->wall_s > 0 ? w->wall_s : NAN,
		.qemu_run_s = known(w->qemu_known, w->qemu_run_s),
		.qemu_wait_s = known(w->qemu_known, w->qemu_wait_s),
		.psi_some_s = known(w->psi_known, w->psi_some_s),
		.starved = starve_is_starved(w), .reclassified = reclassified, .detail = why,
	};

	return results_cycle_set_host_cpu(cyc, &h, err);
}

int starvation_apply(struct engine_ctx *ctx, struct results_cycle *cyc,
		     const struct host_cpu_sample *to, bool hung,
		     enum results_cycle_status *status, struct rig_err *err)
{
	struct starve_window w;
	char why[2048];
	int verdict = 0;

	starve_window_of(&ctx->host_from, to, &w);
	if (w.applicable && (*status == RESULTS_CYCLE_HANG || *status == RESULTS_CYCLE_FAIL)) {
		struct starve_cycle c = {
			.hang_phase = *status == RESULTS_CYCLE_HANG ? cyc->hang_phase : NULL,
			.verdicts = cyc->verdicts, .n_verdicts = cyc->n_verdicts,
			.events = cyc->events, .n_events = cyc->n_events,
			.console_tail = cyc->console_tail,
		};

		verdict = starve_judge(&w, &c, why, sizeof(why));
	}
	if (!verdict)
		starve_describe(&w, why, sizeof(why));
	if (store_window(cyc, &w, hung, verdict == 1, why, err) < 0)
		return -1;
	return verdict == 1 ? reclassify(ctx, cyc, status, why, err) : 0;
}

int starvation_infra_apply(struct engine_ctx *ctx, struct results_cycle *cyc,
			   const struct host_cpu_sample *to, const char *error,
			   const struct starve_window *timed_out, struct rig_err *err)
{
	struct starve_window w;
	char why[2048];
	int verdict = 0;

	starve_window_of(&ctx->host_from, to, &w);
	if (w.applicable && timed_out && timed_out->applicable)
		verdict = starve_judge_infra(timed_out, error, true, why, sizeof(why));
	if (!verdict)
		starve_describe(&w, why, sizeof(why));
	if (store_window(cyc, &w, false, verdict == 1, why, err) < 0)
		return -1;
	if (verdict != 1)
		return 0;
	ctx->totals->starved++;
	session_say(ctx->s, "  infrastructure, explained: %s", why);
	return results_cycle_add_verdict(cyc, "host-cpu", NULL, RESULTS_VERDICT_ERROR, NULL, why,
					 err);
}

int starvation_infra_end(struct engine_ctx *ctx, struct results_cycle *cyc, const char *error,
			 struct rig_err *err)
{
	struct host_cpu_sample to;

	if (!ctx->host_from.taken)
		return 0;
	sample(ctx, &to);
	return starvation_infra_apply(ctx, cyc, &to, error,
				      ctx->s && ctx->s->command_timed_out &&
				      ctx->s->command_window_known ? &ctx->s->command_window : NULL,
				      err);
}

int starvation_cycle_end(struct engine_ctx *ctx, struct results_cycle *cyc,
			 enum results_cycle_status *status, struct rig_err *err)
{
	struct host_cpu_sample to;

	if (!ctx->host_from.taken)
		return 0;
	if (ctx->host_hang.taken)
		to = ctx->host_hang;
	else
		sample(ctx, &to);
	return starvation_apply(ctx, cyc, &to, ctx->host_hang.taken, status, err);
}
