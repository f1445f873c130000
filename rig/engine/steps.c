/* One plan step on the board: trigger, wait phase by phase (each with its timeout: a phase that
 * outlives it is a hang), wake, then collect verdicts. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/collect.h"
#include "engine/ctx.h"
#include "engine/drives.h"
#include "engine/dut.h"
#include "engine/hang.h"
#include "engine/rtc_wake.h"
#include "engine/wait.h"
#include "judge/hibernate_mode.h"
#include "judge/wake_time.h"
#include "util/clock.h"

static long long ms(unsigned seconds)
{
	return (long long)seconds * 1000;
}

/* A wait that did not end as hoped: hang (1), Ctrl-C (2) or error (-1). */
static int wait_failed(struct engine_ctx *ctx, enum wait_result r, struct results_cycle *cyc,
		       const char *phase, struct rig_err *err)
{
	if (r == WAIT_TIMEOUT) {
		int rc = hang_record(ctx, cyc, phase, err);

		/* A hang while freezing or thawing filesystems is an order failure when a loop
		 * filesystem is mounted: judged from the trace hang_record had dumped. */
		if (rc == 1 && cyc && collect_order_after_hang(ctx, cyc, err) < 0)
			return -1;
		return rc;
	}
	if (r == WAIT_STOPPED)
		return 2;
	return -1;
}

/* A phase let past its timeout because the disks were busy says by how much: a slow sync is
 * visible in the results, never hidden. */
static void note_extension(struct engine_ctx *ctx, struct results_cycle *cyc, const char *phase,
			   struct rig_err *err)
{
	char name[64];

	if (ctx->last_wait_extended_ms <= 0 || !cyc)
		return;
	snprintf(name, sizeof(name), "%s_past_timeout_ms", phase);
	(void)results_cycle_add_measurement(cyc, name, NULL, (double)ctx->last_wait_extended_ms,
					    "ms", err);
}

/* The collection after a resume starts here: the time budget's "collect" runs to the commit. */
static int after_resume(struct engine_ctx *ctx, struct results_cycle *cyc, struct rig_err *err)
{
	ctx->collect_from = monotonic_seconds();
	return collect_after_resume(ctx, cyc, err);
}

static int wake_board(struct engine_ctx *ctx, enum wake_source wake, struct rig_err *err)
{
	switch (wake) {
	case WAKE_RTC:
		return 0;
	case WAKE_QMP:
		return power_wakeup(ctx->s->power, err);
	case WAKE_BUTTON:
		return power_press(ctx->s->power, 0, err);
	case WAKE_SERIAL:
		return console_send(ctx->s->console, "\n", 1, err);
	}
	return 0;
}

static int suspend_verdict(struct engine_ctx *ctx, struct results_cycle *cyc,
			   const struct ev_sleep *sleep, bool slept, struct rig_err *err)
{
	struct judge_context c;
	struct judgement j = { 0 };

	judge_context_of(ctx, &c);
	return collect_store(ctx, cyc, &j, judge_suspend(&c, &j, "suspend", sleep,
							 slept ? JUDGE_SEEN_YES : JUDGE_SEEN_NO, err),
			     err);
}

/* The wake verdict of a board the rig had to wake: only then is there one. */
static int wake_verdict(struct engine_ctx *ctx, struct results_cycle *cyc,
			const struct step_suspend *st, const struct rtc_wake *rtc,
			const struct ev_sleep *sleep, struct rig_err *err)
{
	struct judge_rtc r = { .armed_after = rtc->armed_after, .asleep_at = rtc->asleep_at,
			       .seconds = st->seconds, .presync_ms = sleep->presync_ms };
	struct judge_context c;
	struct judgement j = { 0 };

	if (!rtc->rescued)
		return 0;
	judge_context_of(ctx, &c);
	return collect_store(ctx, cyc, &j, judge_wake(&c, &j, &r, err), err);
}

/* The wake-time verdict and the cycle's wake accounting (judge/wake_time.h). The host saw the
 * alarm armed presync_ms after it asked for the suspend and the board asleep at asleep_at, when
 * it could watch the sleep (slept) and rig-dut said how long it synced. */
static int wake_time_verdict(struct engine_ctx *ctx, struct results_cycle *cyc,
			     const struct step_suspend *st, const struct rtc_wake *rtc, bool slept,
			     const struct ev_sleep *sleep, const struct ev_wake *board,
			     struct rig_err *err)
{
	bool rtc_woken = st->wake == WAKE_RTC;
	bool entry_seen = rtc_woken && slept && strstr(sleep->line, "presync_ms=");
	long entry_ms = entry_seen ? lround((rtc->asleep_at - rtc->armed_after) * 1e3) - sleep->presync_ms
				   : -1;
	struct judge_wake_time w = {
		.wake = wake_source_name(st->wake),
		.requested_ms = rtc_woken ? (long)st->seconds * 1000 : -1,
		/* below 0: the board's sync clock against the host's, asleep at once */
		.entry_ms = entry_seen && entry_ms < 0 ? 0 : entry_ms,
		.rescued = rtc->rescued, .board = board,
	};
	struct results_wake record;
	struct judge_context c;
	struct judgement j = { 0 };

	wake_time_record(&w, &record);
	if (results_cycle_set_wake(cyc, &record, err) < 0)
		return -1;
	judge_context_of(ctx, &c);
	return collect_store(ctx, cyc, &j, judge_wake_time(&c, &j, &w, err), err);
}

static int run_suspend(struct engine_ctx *ctx, const struct step_suspend *st,
		       struct results_cycle *cyc, struct rig_err *err)
{
	struct agent_reply reply;
	struct ev_sleep sleep;
	struct ev_wake woke;
	/* t0 times the phases; since is when events (stamped by the console and by QEMU with the
	 * wall clock) start to count for this step */
	double t0 = monotonic_seconds(), since = wall_clock_seconds();
	struct rtc_wake rtc = { .armed_after = t0 };
	enum wait_result r;
	bool slept;
	int rc;

	const char *verb = sleep_via_verb(st->via, false);
	/* hybrid-sleep writes a hibernation image before it suspends */
	unsigned suspend_s = ctx->t.suspend + (st->via == VIA_HYBRID_SLEEP ? ctx->t.hibernate : 0);

	session_watch(ctx->s, st->mode == SLEEP_S2IDLE ? "PM: suspend-to-idle" : NULL);
	if (dut_send_suspend(ctx->s, st->mode, st->wake == WAKE_RTC, st->seconds, verb, &reply,
			     err) < 0)
		return -1;
	session_say(ctx->s, "  phase suspend (timeout %us)", suspend_s);
	r = wait_board_writing(ctx, st->mode == SLEEP_S2IDLE ? WAIT_FOR_WATCH : WAIT_FOR_SUSPENDED,
			       since, ms(suspend_s), &reply, err);
	note_extension(ctx, cyc, "suspend", err);
	slept = r == WAIT_DONE;
	if (r != WAIT_DONE && r != WAIT_REPLIED) {
		agent_reply_free(&reply);
		return wait_failed(ctx, r, cyc, "suspend", err);
	}
	if (slept) {
		rtc.asleep_at = monotonic_seconds();
		results_cycle_add_measurement(cyc, "enter_sleep_ms", NULL, (rtc.asleep_at - t0) * 1e3, "ms", err);
		if (st->wake != WAKE_RTC) {
			r = wait_idle(ctx, ms(st->seconds), &reply, err);
			if (r != WAIT_DONE && r != WAIT_REPLIED)
				goto failed_wait_resume;
			if (r == WAIT_DONE && wake_board(ctx, st->wake, err) < 0)
				goto fail;
		}
		/* inject: early-wake wakes the board the way the plan did not ask, long before its
		 * RTC alarm: a premature wake, which the wake-time verdict must fail. */
		if (st->inject == INJECT_EARLY_WAKE) {
			r = wait_idle(ctx, ms(EARLY_WAKE_S), &reply, err);
			if (r != WAIT_DONE && r != WAIT_REPLIED)
				goto failed_wait_resume;
			session_say(ctx->s, "  inject early-wake: waking the board %u s into its %u s "
				    "alarm", EARLY_WAKE_S, st->seconds);
			if (r == WAIT_DONE && power_wakeup(ctx->s->power, err) < 0)
				goto fail;
		}
		/* inject: hang stops the CPUs as the board starts to resume: a resume that never
		 * finishes, which only the phase timeout can catch. */
		if (st->inject == INJECT_HANG && power_inject_hang(ctx->s->power, err) < 0)
			goto fail;
		session_say(ctx->s, "  phase resume (timeout %us)", ctx->t.resume);
		r = WAIT_TIMEOUT;
		long long budget = ms(ctx->t.resume) + (st->wake == WAKE_RTC ? ms(st->seconds) : 0);
		double waited_from = monotonic_seconds();
		if (reply.status == AGENT_PENDING && st->wake == WAKE_RTC && st->inject != INJECT_HANG)
			r = rtc_wake_wait(ctx, st, &rtc, &reply, err);
		/* A board woken by the rig gets the whole resume timeout from now; one that was not
		 * asleep any more (resuming, or hung resuming) only what is left of it. */
		if (!rtc.rescued)
			budget -= (long long)((monotonic_seconds() - waited_from) * 1e3);
		if (r == WAIT_REPLIED || reply.status != AGENT_PENDING)
			r = WAIT_REPLIED;
		else if (r == WAIT_TIMEOUT)
			r = wait_board(ctx, WAIT_FOR_REPLY, since, budget > 0 ? budget : 0, &reply, err);
		if (r != WAIT_REPLIED)
			goto failed_wait_resume;
	}
	ev_parse_sleep((const char *const *)reply.lines, reply.n_lines, &sleep);
	ev_parse_wake((const char *const *)reply.lines, reply.n_lines, &woke);
	agent_reply_free(&reply);
	if (sleep.result != -1 && strstr(sleep.line, "presync_ms="))   /* else unknown, not 0 */
		ctx->presync_ms = sleep.presync_ms;
	rc = suspend_verdict(ctx, cyc, &sleep, slept || !power_has_events(ctx->s->power), err);
	if (rc == 0)
		rc = wake_verdict(ctx, cyc, st, &rtc, &sleep, err);
	/* a suspend that failed never slept: nothing to time */
	if (rc == 0 && sleep.result == 0)
		rc = wake_time_verdict(ctx, cyc, st, &rtc, slept, &sleep, &woke, err);
	return rc < 0 ? -1 : after_resume(ctx, cyc, err);

failed_wait_resume:
	agent_reply_free(&reply);
	return wait_failed(ctx, r == WAIT_DONE ? WAIT_TIMEOUT : r, cyc, "resume", err);
fail:
	agent_reply_free(&reply);
	return -1;
}

/* Verification after a forced failed resume: the acknowledgements seen before the board went
 * down against what is on the disks, then the filesystems' checkers, then fresh workloads. */
static int verify_after_failure(struct engine_ctx *ctx, struct results_cycle *cyc,
				const struct acks *acked, struct rig_err *err)
{
	if (board_prepare_base(ctx, err) < 0 || session_check_boot_health(ctx->s, err) < 0)
		return -1;
	ctx->collect_from = monotonic_seconds();   /* the collection after the reboot */
	if (collect_after_failure(ctx, cyc, acked, err) < 0)
		return -1;
	return board_start_workloads(ctx, err);
}

/* The acknowledgement gap: from each writer's last acknowledgement to the kernel's "suspend
 * entry" (the filesystems freeze right after it), both in printk time. Records completed in the
 * gap are at risk only if the freeze does not protect them. */
static void ack_gap(struct engine_ctx *ctx, struct results_cycle *cyc, const struct acks *acked,
		    struct rig_err *err)
{
	struct judgement j = { 0 };

	(void)collect_store(ctx, cyc, &j, judge_ack_gap(&j, acked, ctx->s->events, ctx->s->n_events,
							err), err);
}

static int run_power_cut(struct engine_ctx *ctx, const struct step_power_cut *st,
			 struct results_cycle *cyc, struct rig_err *err)
{
	struct agent_reply reply;
	struct drive_marks marks;
	struct acks acked;
	double since = wall_clock_seconds();
	enum wait_result r;
	int rc;

	/* s2idle enters no ACPI S-state: QEMU sends no SUSPEND event and the console has no S3
	 * line; "PM: suspend-to-idle" (rig-dut turns pm_debug_messages on) says it is asleep, as
	 * for a suspend step. Waiting for S3 instead was a hang in phase suspend every time. */
	session_watch(ctx->s, st->mode == SLEEP_S2IDLE ? "PM: suspend-to-idle" : NULL);
	if (collect_fio_checkpoint(ctx, err) < 0)
		return -1;
	drives_mark(ctx, &marks);
	if (dut_send_suspend(ctx->s, st->mode, false, 0, NULL, &reply, err) < 0)
		return -1;
	session_say(ctx->s, "  phase suspend (timeout %us)", ctx->t.suspend);
	r = wait_board_writing(ctx, st->mode == SLEEP_S2IDLE ? WAIT_FOR_WATCH : WAIT_FOR_SUSPENDED,
			       since, ms(ctx->t.suspend), &reply, err);
	note_extension(ctx, cyc, "suspend", err);
	if (r == WAIT_DONE)
		r = wait_idle(ctx, ms(st->after_seconds), &reply, err);
	agent_reply_free(&reply);
	if (r == WAIT_REPLIED) {
		/* The suspend failed or ended early: judge what the board went through, like any
		 * resume, and let fio write again. */
		struct ev_sleep back = { .replied = true, .result = -1, .successes = -1 };

		snprintf(back.line, sizeof(back.line), "the board came back before the power cut");
		if (suspend_verdict(ctx, cyc, &back, true, err) < 0 || after_resume(ctx, cyc, err) < 0)
			return -1;
		return board_resume_fio(ctx, err);
	}
	if (r != WAIT_DONE)
		return wait_failed(ctx, r, cyc, "suspend", err);
	acked = ctx->s->acks;
	ack_gap(ctx, cyc, &acked, err);
	session_say(ctx->s, "  power cut while suspended");
	if (session_power_off(ctx->s, err) < 0 || drives_collect(ctx, cyc, &marks, err) < 0)
		return -1;
	rc = board_boot_only(ctx, NULL, cyc, err);
	if (rc != 0)
		return rc;
	return verify_after_failure(ctx, cyc, &acked, err);
}

/* A hibernation's verdicts and its row (judge/hibernate_mode.h), from the path the engine
 * followed, rig-dut's reply and the console's events since the command. */
static int hibernation_verdicts(struct engine_ctx *ctx, struct results_cycle *cyc,
				struct hib_path *path, const struct ev_sleep *sleep, double since,
				struct rig_err *err)
{
	struct results_hibernation row;
	struct judge_context c;
	struct judgement j = { 0 };

	hib_path_feed(path, ctx->s->events, ctx->s->n_events, since);
	hib_path_reply(path, sleep->line);
	hib_path_record(path, &row);
	results_cycle_set_hibernation(cyc, &row);
	judge_context_of(ctx, &c);
	return collect_store(ctx, cyc, &j, judge_hibernation(&c, &j, sleep, path, err), err);
}

/* The board's old userspace answered without a boot: it never left (test_resume, or a failure),
 * or came back from RAM (a hybrid sleep woken). */
static int hibernation_replied(struct engine_ctx *ctx, struct results_cycle *cyc,
			       struct hib_path *path, struct agent_reply *reply, double since,
			       struct rig_err *err)
{
	struct ev_sleep sleep;

	ev_parse_sleep((const char *const *)reply->lines, reply->n_lines, &sleep);
	agent_reply_free(reply);
	path->back = HIB_BACK_REPLY;
	if (hibernation_verdicts(ctx, cyc, path, &sleep, since, err) < 0 ||
	    after_resume(ctx, cyc, err) < 0)
		return -1;
	return board_resume_fio(ctx, err);
}

static int hibernate_restore(struct engine_ctx *ctx, struct agent_reply *reply,
			     struct results_cycle *cyc, struct hib_path *path, double since,
			     struct rig_err *err)
{
	enum wait_result r;
	struct ev_sleep sleep = { 0 };
	int rc;

	if (session_power_on(ctx->s, NULL, err) < 0)
		return -1;
	session_say(ctx->s, "  phase restore (timeout %us)", ctx->t.restore);
	r = wait_board(ctx, WAIT_FOR_AGENT_READY, wall_clock_seconds(), ms(ctx->t.restore), reply, err);
	if (r == WAIT_DONE) {
		/* A fresh agent: the image was not restored. */
		path->back = HIB_BACK_FRESH_BOOT;
		rc = hibernation_verdicts(ctx, cyc, path, &sleep, since, err);
		return rc < 0 ? -1 : board_prepare(ctx, err);
	}
	if (r != WAIT_REPLIED)
		return wait_failed(ctx, r, cyc, "restore", err);
	ev_parse_sleep((const char *const *)reply->lines, reply->n_lines, &sleep);
	path->back = HIB_BACK_REPLY;
	rc = hibernation_verdicts(ctx, cyc, path, &sleep, since, err);
	return rc < 0 ? -1 : after_resume(ctx, cyc, err);
}

/* The S3 half of a hybrid sleep (mode suspend): asleep for the plan's seconds, then the power cut
 * or the wake it asks for (inject: the other one, a negative control). 0 when the board is back
 * from RAM (reply filled) or its power is cut (path->cut); else what wait_failed() returns. */
static int hybrid_s3(struct engine_ctx *ctx, const struct step_hibernate *st,
		     struct agent_reply *reply, struct hib_path *path, struct results_cycle *cyc,
		     struct rig_err *err)
{
	enum wait_result r = wait_idle(ctx, ms(st->seconds), reply, err);
	bool injected = st->inject != HIB_INJECT_NONE;

	if (r == WAIT_REPLIED)
		return 0;   /* back from RAM before the rig did anything */
	if (r != WAIT_DONE)
		return wait_failed(ctx, r, cyc, "resume", err);
	path->cut = st->power_cut != injected;
	if (path->cut) {
		session_say(ctx->s, "  power cut in S3%s", injected ? " (inject: the plan asked for a "
			    "resume from RAM)" : "");
		return session_power_off(ctx->s, err) < 0 ? -1 : 0;
	}
	session_say(ctx->s, "  waking the board from S3 (%s)%s", wake_source_name(st->wake),
		    injected ? " (inject: the plan asked for a power cut)" : "");
	if (wake_board(ctx, st->wake, err) < 0)
		return -1;
	session_say(ctx->s, "  phase resume (timeout %us)", ctx->t.resume);
	r = wait_board(ctx, WAIT_FOR_REPLY, 0, ms(ctx->t.resume), reply, err);
	return r == WAIT_REPLIED ? 0 : wait_failed(ctx, r, cyc, "resume", err);
}

/* The engine follows what the board does after `rig-dut hibernate MODE` -- replies, switches
 * itself off, or sleeps in S3 -- whatever the mode asked; the judge compares the two. */
static int run_hibernate(struct engine_ctx *ctx, const struct step_hibernate *st,
			 struct results_cycle *cyc, struct rig_err *err)
{
	struct hib_path path = { .asked = st->mode, .discard_asked = !st->resume,
				 .cut_asked = st->mode == HIB_MODE_SUSPEND && st->power_cut };
	struct agent_reply reply;
	struct acks acked;
	double t0 = monotonic_seconds(), since = wall_clock_seconds();
	/* test_resume writes the image and reads it back before it replies */
	unsigned timeout = ctx->t.hibernate + (st->mode == HIB_MODE_TEST_RESUME ? ctx->t.restore : 0);
	enum power_state state;
	enum wait_result r;
	int rc;

	if ((!st->resume && collect_fio_checkpoint(ctx, err) < 0) ||
	    dut_send_hibernate(ctx->s, st->mode, st->via != VIA_SYSFS, &reply, err) < 0)
		return -1;
	session_say(ctx->s, "  phase hibernate (timeout %us)", timeout);
	r = wait_board_writing(ctx, WAIT_FOR_OFF_OR_ASLEEP, since, ms(timeout), &reply, err);
	note_extension(ctx, cyc, "hibernate", err);
	if (r == WAIT_REPLIED)
		return hibernation_replied(ctx, cyc, &path, &reply, since, err);
	if (r != WAIT_DONE || power_status(ctx->s->power, &state, err) < 0) {
		agent_reply_free(&reply);
		return r != WAIT_DONE ? wait_failed(ctx, r, cyc, "hibernate", err) : -1;
	}
	results_cycle_add_measurement(cyc, "hibernate_ms", NULL, (monotonic_seconds() - t0) * 1e3,
				      "ms", err);
	acked = ctx->s->acks;
	path.left = state == POWER_SUSPENDED ? HIB_LEFT_S3 : HIB_LEFT_OFF;
	if (path.left == HIB_LEFT_S3) {
		rc = hybrid_s3(ctx, st, &reply, &path, cyc, err);
		if (rc != 0) {
			agent_reply_free(&reply);
			return rc;
		}
		if (!path.cut)
			return hibernation_replied(ctx, cyc, &path, &reply, since, err);
	}
	if (st->resume) {
		rc = hibernate_restore(ctx, &reply, cyc, &path, since, err);
		agent_reply_free(&reply);
		return rc;
	}
	agent_reply_free(&reply);
	session_say(ctx->s, "  discarding the image: boot with noresume");
	rc = board_boot_only(ctx, "noresume", cyc, err);
	if (rc != 0)
		return rc;
	path.back = HIB_BACK_FRESH_BOOT;
	if (hibernation_verdicts(ctx, cyc, &path, &(struct ev_sleep){ 0 }, since, err) < 0)
		return -1;
	return verify_after_failure(ctx, cyc, &acked, err);
}

static int run_pm_test(struct engine_ctx *ctx, const struct step_pm_test *st,
		       struct results_cycle *cyc, struct rig_err *err)
{
	struct ev_sleep sleep;
	struct judge_context c;
	struct judgement j = { 0 };
	int rc = dut_pm_test(ctx->s, ctx->t.suspend + ctx->t.resume, st->level, st->mode, &sleep, err);

	if (rc != 0)
		return rc < 0 ? -1 : hang_record(ctx, cyc, "pm_test", err);
	judge_context_of(ctx, &c);
	rc = collect_store(ctx, cyc, &j, judge_suspend(&c, &j, "pm-test", &sleep, JUDGE_SEEN_UNKNOWN,
						       err), err);
	return rc < 0 ? -1 : after_resume(ctx, cyc, err);
}

int step_run(struct engine_ctx *ctx, const struct step *step, struct results_cycle *cyc,
	     struct rig_err *err)
{
	switch (step->kind) {
	case STEP_SUSPEND:
		return run_suspend(ctx, &step->u.suspend, cyc, err);
	case STEP_POWER_CUT:
		return run_power_cut(ctx, &step->u.power_cut, cyc, err);
	case STEP_HIBERNATE:
		return run_hibernate(ctx, &step->u.hibernate, cyc, err);
	case STEP_PM_TEST:
		return run_pm_test(ctx, &step->u.pm_test, cyc, err);
	case STEP_KNOB:
	case STEP_FSFREEZE:
		break;  /* modifiers: applied by the run loop, never a cycle of their own */
	}
	return 0;
}
