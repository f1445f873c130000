/* After a step: evidence from the board and the console, judged, stored. */
#include "engine/collect.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/dut.h"

int collect_store(struct engine_ctx *ctx, struct results_cycle *cyc, struct judgement *j,
		  int judged, struct rig_err *err)
{
	int rc = judged < 0 ? -1 : store_judgement(ctx, cyc, j, err);

	judgement_free(j);
	return rc;
}

/* The console's events since the last drain go with this cycle: stored, and handed to fn. */
static struct judge_event *drain_events(struct engine_ctx *ctx, struct results_cycle *cyc,
					size_t *n, struct rig_err *err)
{
	struct judge_event *ev = session_events_drain(ctx->s, n);

	if (cycle_store_events(ctx, cyc, ev, *n, err) < 0) {
		session_events_free(ev, *n);
		return NULL;
	}
	return ev ? ev : calloc(1, sizeof(*ev));
}

/* The filesystem frozen from userspace before the sleep: its state now, and thawed. */
static int owner_state(struct engine_ctx *ctx, int *frozen, struct rig_err *err)
{
	if (dut_fsfreeze(ctx->s, ctx->t.command, ctx->owner_pending, "state", frozen, err) < 0)
		return -1;
	if (*frozen == 1 &&
	    dut_fsfreeze(ctx->s, ctx->t.command, ctx->owner_pending, "thaw", NULL, err) < 0)
		return -1;
	return 0;
}

/* The console's adapter was unplugged and came back: what the kernel printed meanwhile is still
 * in its log on the board, and goes through the event parser now (before the events are
 * drained), so no WARN hides in the gap. */
static int recover_console_gap(struct engine_ctx *ctx, struct results_cycle *cyc,
			       struct rig_err *err)
{
	struct console_gap gap;
	struct agent_reply reply;

	if (!ctx->s->console || !console_take_gap(ctx->s->console, &gap))
		return 0;
	if (results_cycle_add_measurement(cyc, "console_gap_ms", NULL, (double)gap.ms, "ms", err) < 0)
		return -1;
	if (gap.since_ktime < 0) {
		session_say(ctx->s, "  console gap of %.1f s before any kernel record: nothing to "
			    "recover it from", (double)gap.ms / 1e3);
		return 0;
	}
	if (dut_klog(ctx->s, ctx->t.command, gap.since_ktime, gap.until_ktime, &reply, err) < 0)
		return -1;
	for (size_t i = 0; i < reply.n_lines; i++)
		console_replay_line(ctx->s->console, reply.lines[i]);
	session_say(ctx->s, "  console gap of %.1f s: %zu kernel log lines recovered from the board",
		    (double)gap.ms / 1e3, reply.n_lines);
	agent_reply_free(&reply);
	return 0;
}

/* Plans with `timeline: true`: the board's summary of the sleep's power events, on one axis with
 * the freeze trace and the writers' stalls, stored with the cycle. A board without the events
 * stores "unavailable" and the cycle goes on. */
static int collect_timeline(struct engine_ctx *ctx, struct results_cycle *cyc,
			    const struct frozen_window *w, const struct ev_stall_ops *stall,
			    struct rig_err *err)
{
	struct timeline tl;
	int rc;

	if (!ctx->plan->timeline)
		return 0;
	if (dut_timeline_read(ctx->s, ctx->t.command, &tl, err) < 0)
		return -1;
	rc = timeline_join(&tl, w, stall, TL_STALL_MIN_NS, err);
	if (rc == 0)
		rc = store_timeline(cyc, &tl, err);
	if (rc == 0 && !tl.available)
		session_say(ctx->s, "  timeline unavailable: %s", tl.reason);
	else if (rc == 0 && (tl.lost || tl.bad_lines || tl.board_bad))
		session_say(ctx->s, "  timeline: %u events lost, %u lines unreadable (first: %s)",
			    tl.lost, tl.bad_lines + tl.board_bad, tl.first_bad);
	timeline_free(&tl);
	return rc;
}

int collect_after_resume(struct engine_ctx *ctx, struct results_cycle *cyc, struct rig_err *err)
{
	struct frozen_window w;
	struct ev_stall_ops stall = { 0 };
	struct ev_alive alive = { 0 };
	struct judge_context c;
	struct judgement j = { 0 };
	struct judge_event *ev = NULL;
	bool workloads = ctx->plan->n_workloads > 0;
	int owner_frozen = -1, rc = -1;
	size_t n = 0;

	if (recover_console_gap(ctx, cyc, err) < 0 ||
	    dut_collect_after_resume(ctx->s, ctx->t.command, &w, workloads ? &alive : NULL,
				     workloads ? &stall : NULL, err) < 0 ||
	    (ctx->owner_pending && owner_state(ctx, &owner_frozen, err) < 0) ||
	    collect_timeline(ctx, cyc, &w, workloads ? &stall : NULL, err) < 0 ||
	    !(ev = drain_events(ctx, cyc, &n, err)))
		goto out;
	ctx->budget_window = w;
	ctx->budget_traced = true;
	judge_context_of(ctx, &c);
	{
		struct judge_resume r = {
			.trace = &w, .stall = workloads ? &stall : NULL,
			.alive = workloads ? &alive : NULL, .events = ev, .n_events = n,
			.owner_fs = ctx->owner_pending, .owner_frozen = owner_frozen,
		};

		rc = collect_store(ctx, cyc, &j, judge_after_resume(&c, &j, &r, err), err);
	}
out:
	free(ctx->owner_pending);
	ctx->owner_pending = NULL;
	session_events_free(ev, n);
	ev_stall_ops_free(&stall);
	return rc;
}

int collect_order_after_hang(struct engine_ctx *ctx, struct results_cycle *cyc,
			     struct rig_err *err)
{
	struct judge_context c;
	struct judgement j = { 0 };

	judge_context_of(ctx, &c);
	return collect_store(ctx, cyc, &j,
			     judge_order_after_hang(&c, &j, ctx->s->events, ctx->s->n_events, err), err);
}

static bool plan_runs(const struct plan *plan, const char *workload)
{
	for (size_t i = 0; i < plan->n_workloads; i++)
		if (strcmp(plan->workloads[i], workload) == 0)
			return true;
	return false;
}

int collect_fio_checkpoint(struct engine_ctx *ctx, struct rig_err *err)
{
	memset(&ctx->fio_acked, 0, sizeof(ctx->fio_acked));
	if (!plan_runs(ctx->plan, "fio"))
		return 0;
	if (dut_fio_checkpoint(ctx->s, ctx->t.command, &ctx->fio_acked, err) < 0)
		return -1;
	for (size_t i = 0; i < ctx->fio_acked.n; i++) {
		const struct fio_ack *k = &ctx->fio_acked.items[i];

		if (*k->error)
			session_say(ctx->s, "  fio checkpoint on %s: %s", k->fs, k->error);
		else
			session_say(ctx->s, "  fio stopped on %s: %" PRIu64 " writes acknowledged",
				    k->fs, k->written);
	}
	return 0;
}

#define FIO_LINE_MAX 600

int collect_after_failure(struct engine_ctx *ctx, struct results_cycle *cyc,
			  const struct acks *acked, struct rig_err *err)
{
	/* Without journal writers there is no journal acknowledgement to miss. */
	bool journal = acked->n > 0 || ctx->fio_acked.n == 0;
	char fio_lines[FIO_ACKS_MAX][FIO_LINE_MAX];
	const char *fio_verify[FIO_ACKS_MAX];
	struct ev_journals journals = { 0 };
	bool journald = plan_runs(ctx->plan, "journald");
	struct ev_journald journald_check;
	struct ev_fsck fsck;
	struct judge_context c;
	struct judgement j = { 0 };
	struct judge_event *ev;
	size_t n;
	int rc;

	if (journal && dut_verify(ctx->s, ctx->t.command * 2, &journals, err) < 0)
		return -1;
	if (journald && dut_journald_check(ctx->s, ctx->t.command * 2, &journald_check, err) < 0)
		return -1;
	for (size_t i = 0; i < ctx->fio_acked.n; i++) {
		const struct fio_ack *k = &ctx->fio_acked.items[i];

		fio_lines[i][0] = '\0';
		fio_verify[i] = fio_lines[i];
		if (!*k->error && dut_fio_verify(ctx->s, ctx->t.command * 2, k, fio_lines[i],
						 sizeof(fio_lines[i]), err) < 0)
			return -1;
	}
	if (dut_fsck(ctx->s, ctx->t.command * 4, &fsck, err) < 0 ||
	    !(ev = drain_events(ctx, cyc, &n, err)))
		return -1;
	judge_context_of(ctx, &c);
	{
		struct judge_failure f = {
			.acked = acked, .journal = journal, .journals = &journals,
			.fio = &ctx->fio_acked, .fio_verify = fio_verify,
			.journald = journald ? &journald_check : NULL, .fsck = &fsck,
			.events = ev, .n_events = n,
		};

		rc = collect_store(ctx, cyc, &j, judge_after_failure(&c, &j, &f, err), err);
	}
	session_events_free(ev, n);
	memset(&ctx->fio_acked, 0, sizeof(ctx->fio_acked));
	return rc;
}
