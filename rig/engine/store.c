/* The judge's verdicts into the results and the run's totals; the knob as results record it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/ctx.h"
#include "results/timeline.h"
#include "util/clock.h"

enum results_knob knob_of(int value)
{
	if (value == 0)
		return RESULTS_KNOB_OFF;
	if (value > 0)
		return RESULTS_KNOB_ON;
	return RESULTS_KNOB_UNKNOWN;
}

void judge_context_of(const struct engine_ctx *ctx, struct judge_context *c)
{
	*c = (struct judge_context){
		.board = ctx->board, .known = ctx->opts->known,
		.kernel_version = ctx->st.kernel_version,
		.knob_freeze_filesystems = ctx->st.knob_freeze_filesystems,
	};
}

static struct engine_verdict_count *count_for(struct engine_totals *t, const char *name)
{
	for (unsigned i = 0; i < t->n_verdict_names; i++)
		if (strcmp(t->by_verdict[i].name, name) == 0)
			return &t->by_verdict[i];
	if (t->n_verdict_names == ENGINE_MAX_VERDICT_NAMES)
		return NULL;
	snprintf(t->by_verdict[t->n_verdict_names].name, sizeof(t->by_verdict[0].name), "%s", name);
	return &t->by_verdict[t->n_verdict_names++];
}

static void count(struct engine_totals *t, const char *name, enum results_verdict_result result,
		  bool known)
{
	struct engine_verdict_count *c = count_for(t, name);

	if (result == RESULTS_VERDICT_PASS) {
		t->pass++;
		if (c)
			c->pass++;
	} else if (result == RESULTS_VERDICT_FAIL && known) {
		t->known++;
		if (c)
			c->known++;
	} else if (result == RESULTS_VERDICT_FAIL || result == RESULTS_VERDICT_ERROR) {
		t->fail++;
		if (c)
			c->fail++;
	} else {
		t->skip++;
		if (c)
			c->skip++;
	}
}

void store_recount_as_skip(struct engine_ctx *ctx, const char *name)
{
	struct engine_verdict_count *c = count_for(ctx->totals, name);

	if (ctx->totals->fail > 0)
		ctx->totals->fail--;
	ctx->totals->skip++;
	if (c && c->fail > 0)
		c->fail--;
	if (c)
		c->skip++;
}

int store_judgement(struct engine_ctx *ctx, struct results_cycle *cyc, const struct judgement *j,
		    struct rig_err *err)
{
	for (size_t i = 0; i < j->n_measurements; i++) {
		const struct judge_measurement *m = &j->measurements[i];

		if (results_cycle_add_measurement(cyc, m->name, m->filesystem, m->value, m->unit,
						  err) < 0)
			return -1;
	}
	for (size_t i = 0; i < j->n_verdicts; i++) {
		const struct judge_verdict *v = &j->verdicts[i];

		count(ctx->totals, v->name, v->result, v->known_issue != NULL);
		if (v->result != RESULTS_VERDICT_PASS)
			session_say(ctx->s, "  verdict %s%s%s: %s%s%s%s: %s", v->name,
				    v->filesystem ? " " : "", v->filesystem ? v->filesystem : "",
				    results_verdict_result_name(v->result),
				    v->known_issue ? " (known: " : "", v->known_issue ? v->known_issue : "",
				    v->known_issue ? ")" : "", v->detail ? v->detail : "");
		if (results_cycle_add_verdict(cyc, v->name, v->filesystem, v->result, v->known_issue,
					      v->detail, err) < 0)
			return -1;
	}
	return 0;
}

int cycle_store_events(struct engine_ctx *ctx, struct results_cycle *cyc,
		       const struct judge_event *ev, size_t n, struct rig_err *err)
{
	/* the budget counts what happened in the cycle: the run's first boot, whose lines wait
	 * for the first cycle's drain, is not that cycle's reboot */
	for (size_t i = 0; i < n; i++)
		if (ev[i].host_ts <= 0 || ev[i].host_ts >= cyc->started_at)
			budget_feed(&ctx->budget, &ev[i], 1);
	for (size_t i = 0; i < n; i++) {
		if (!judge_event_worth_storing(ev[i].ev.kind))
			continue;
		if (results_cycle_add_event(cyc, kevent_kind_name(ev[i].ev.kind),
					    ev[i].ev.has_ktime ? ev[i].ev.ktime : -1.0, ev[i].host_ts,
					    ev[i].text, err) < 0)
			return -1;
	}
	return 0;
}

void cycle_budget_begin(struct engine_ctx *ctx)
{
	budget_init(&ctx->budget);
	ctx->presync_ms = -1;
	ctx->collect_from = 0;
	ctx->budget_traced = false;
}

int cycle_store_budget(struct engine_ctx *ctx, struct results_cycle *cyc, struct rig_err *err)
{
	struct budget b;
	double collect = ctx->collect_from > 0 ? monotonic_seconds() - ctx->collect_from : -1.0;

	budget_finish(&ctx->budget, ctx->presync_ms, ctx->budget_traced ? &ctx->budget_window : NULL,
		      collect, &b);
	for (int p = 0; p < BUDGET_N; p++)
		if (results_cycle_add_phase(cyc, budget_phase_name((enum budget_phase)p),
					    b.known[p] ? b.seconds[p] : NAN, err) < 0)
			return -1;
	return 0;
}

int store_timeline(struct results_cycle *cyc, const struct timeline *tl, struct rig_err *err)
{
	struct results_timeline_info info = {
		.available = tl->available, .reason = tl->available ? NULL : tl->reason,
		.base_ns = tl->base_ns, .events = tl->events, .lost = tl->lost,
		.bad_lines = tl->bad_lines + tl->board_bad, .min_us = tl->min_us,
	};

	if (results_cycle_set_timeline(cyc, &info, err) < 0)
		return -1;
	for (size_t i = 0; i < tl->n; i++) {
		const struct tl_row *r = &tl->rows[i];
		bool phased = r->kind == TL_DEVICE || r->kind == TL_OTHERS;
		struct results_timeline_row row = {
			.kind = tl_kind_name(r->kind), .phase = phased ? tl_phase_name(r->phase) : NULL,
			.name = r->name, .driver = r->driver[0] ? r->driver : NULL,
			.start_us = r->start_us, .dur_us = r->dur_us, .err = r->err, .count = r->count,
		};

		if (results_cycle_add_timeline_row(cyc, &row, err) < 0)
			return -1;
	}
	return 0;
}
