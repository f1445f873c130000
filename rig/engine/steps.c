/* One plan step on the board: trigger, wait phase by phase (each with its timeout: a phase that
 * outlives it is a hang), wake, then collect verdicts. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/collect.h"
#include "engine/ctx.h"
#include "engine/hang.h"
#include "engine/rtc_wake.h"
#include "engine/wait.h"
#include "util/kv.h"

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

static double event_ktime(const struct session *s, enum kevent_kind kind)
{
	for (size_t i = s->n_events; i-- > 0;)
		if (s->events[i].ev.kind == kind && s->events[i].ev.has_ktime)
			return s->events[i].ev.ktime;
	return NAN;
}

static void kernel_phase_measurements(struct engine_ctx *ctx, struct results_cycle *cyc,
				      struct rig_err *err)
{
	double entry = event_ktime(ctx->s, KEV_SUSPEND_ENTRY);
	double sleep = event_ktime(ctx->s, KEV_ACPI_SLEEP);
	double wake = event_ktime(ctx->s, KEV_ACPI_WAKE);
	double exit = event_ktime(ctx->s, KEV_SUSPEND_EXIT);
	double frozen = event_ktime(ctx->s, KEV_FREEZE_USER_DONE);
	double freezing = event_ktime(ctx->s, KEV_FREEZE_USER_BEGIN);

	if (!isnan(entry) && !isnan(sleep) && sleep >= entry)
		results_cycle_add_measurement(cyc, "suspend_ms", NULL, (sleep - entry) * 1e3, "ms", err);
	if (!isnan(wake) && !isnan(exit) && exit >= wake)
		results_cycle_add_measurement(cyc, "resume_ms", NULL, (exit - wake) * 1e3, "ms", err);
	if (!isnan(freezing) && !isnan(frozen) && frozen >= freezing)
		results_cycle_add_measurement(cyc, "freeze_tasks_ms", NULL, (frozen - freezing) * 1e3,
					      "ms", err);
}

/* After the board is back from sleep with its old userspace: every verdict a resume has. */
static int after_resume(struct engine_ctx *ctx, struct results_cycle *cyc, struct rig_err *err)
{
	struct frozen_window w;
	struct session_event *ev;
	size_t n;
	char dead[256];
	int rc;

	if (collect_trace(ctx, &w, err) < 0 || collect_writers_alive(ctx, dead, sizeof(dead), err) < 0)
		return -1;
	collect_window_measurements(cyc, &w, err);
	kernel_phase_measurements(ctx, cyc, err);
	if (collect_stall(ctx, cyc, &w, err) < 0 || collect_order(ctx, cyc, &w, err) < 0 ||
	    collect_owner(ctx, cyc, err) < 0)
		return -1;
	ev = session_events_drain(ctx->s, &n);
	rc = cycle_store_events(cyc, ev, n, err);
	if (rc == 0)
		rc = verdict_clean_resume(ctx, cyc, ev, n, err);
	session_events_free(ev, n);
	if (rc == 0 && *dead) {
		char detail[320];

		snprintf(detail, sizeof(detail), "writers died across the cycle: %s", dead);
		rc = verdict_add(ctx, cyc, "writers-alive", NULL, RESULTS_VERDICT_FAIL, detail,
				 (const char *const[]){ detail }, 1, err);
	}
	return rc;
}

static const char *dut_wake_arg(enum wake_source wake)
{
	return wake == WAKE_RTC ? "rtc" : "external";
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

/* rig-dut's report line ("result=..."): the shell's own complaints (a failed write to
 * /sys/power/state: "sh: write error: Device or resource busy") come before it. */
static const char *result_line(const struct agent_reply *reply)
{
	for (size_t i = 0; i < reply->n_lines; i++)
		if (kv_long(reply->lines[i], "result", -1) >= 0)
			return reply->lines[i];
	return reply->n_lines ? reply->lines[0] : "";
}

static int suspend_verdict(struct engine_ctx *ctx, struct results_cycle *cyc,
			   const struct agent_reply *reply, bool slept, struct rig_err *err)
{
	const char *line = result_line(reply);
	long result = kv_long(line, "result", -1), successes = kv_long(line, "successes", 0);
	char detail[384];

	snprintf(detail, sizeof(detail), "%s%s", line, slept ? "" : " (the board never reported sleeping)");
	if (result == 0 && successes >= 1 && slept)
		return verdict_add(ctx, cyc, "suspend", NULL, RESULTS_VERDICT_PASS, detail, NULL, 0, err);
	return verdict_add(ctx, cyc, "suspend", NULL, RESULTS_VERDICT_FAIL, detail,
			   (const char *const[]){ detail }, 1, err);
}

static int run_suspend(struct engine_ctx *ctx, const struct step_suspend *st,
		       struct results_cycle *cyc, struct rig_err *err)
{
	struct agent_reply reply;
	char cmd[128];
	double t0 = power_now();
	struct rtc_wake rtc = { .armed_after = t0 };
	enum wait_result r;
	bool slept;
	int rc;

	const char *verb = sleep_via_verb(st->via, false);
	/* hybrid-sleep writes a hibernation image before it suspends */
	unsigned suspend_s = ctx->t.suspend + (st->via == VIA_HYBRID_SLEEP ? ctx->t.hibernate : 0);

	snprintf(cmd, sizeof(cmd), "rig-dut suspend %s %s %u%s%s", sleep_mode_name(st->mode),
		 dut_wake_arg(st->wake), st->seconds, verb ? " " : "", verb ? verb : "");
	session_watch(ctx->s, st->mode == SLEEP_S2IDLE ? "PM: suspend-to-idle" : NULL);
	if (session_send(ctx->s, cmd, &reply, err) < 0)
		return -1;
	session_say(ctx->s, "  phase suspend (timeout %us)", suspend_s);
	r = wait_board(ctx, st->mode == SLEEP_S2IDLE ? WAIT_FOR_WATCH : WAIT_FOR_SUSPENDED, t0,
		       ms(suspend_s), &reply, err);
	slept = r == WAIT_DONE;
	if (r != WAIT_DONE && r != WAIT_REPLIED) {
		agent_reply_free(&reply);
		return wait_failed(ctx, r, cyc, "suspend", err);
	}
	if (slept) {
		rtc.asleep_at = power_now();
		results_cycle_add_measurement(cyc, "enter_sleep_ms", NULL, (power_now() - t0) * 1e3, "ms", err);
		if (st->wake != WAKE_RTC) {
			r = wait_idle(ctx, ms(st->seconds), &reply, err);
			if (r != WAIT_DONE && r != WAIT_REPLIED)
				goto failed_wait_resume;
			if (r == WAIT_DONE && wake_board(ctx, st->wake, err) < 0)
				goto fail;
		}
		/* inject: hang stops the CPUs as the board starts to resume: a resume that never
		 * finishes, which only the phase timeout can catch. */
		if (st->inject == INJECT_HANG && power_inject_hang(ctx->s->power, err) < 0)
			goto fail;
		session_say(ctx->s, "  phase resume (timeout %us)", ctx->t.resume);
		r = WAIT_TIMEOUT;
		long long budget = ms(ctx->t.resume) + (st->wake == WAKE_RTC ? ms(st->seconds) : 0);
		double waited_from = power_now();
		if (reply.status == AGENT_PENDING && st->wake == WAKE_RTC && st->inject != INJECT_HANG)
			r = rtc_wake_wait(ctx, st, &rtc, &reply, err);
		/* A board woken by the rig gets the whole resume timeout from now; one that was not
		 * asleep any more (resuming, or hung resuming) only what is left of it. */
		if (!rtc.rescued)
			budget -= (long long)((power_now() - waited_from) * 1e3);
		if (r == WAIT_REPLIED || reply.status != AGENT_PENDING)
			r = WAIT_REPLIED;
		else if (r == WAIT_TIMEOUT)
			r = wait_board(ctx, WAIT_FOR_REPLY, t0, budget > 0 ? budget : 0, &reply, err);
		if (r != WAIT_REPLIED)
			goto failed_wait_resume;
	}
	rc = suspend_verdict(ctx, cyc, &reply, slept || !power_has_events(ctx->s->power), err);
	if (rc == 0)
		rc = rtc_wake_verdict(ctx, cyc, st, &rtc, result_line(&reply), err);
	if (rc == 0 && verb)
		rc = collect_systemd_sleep(ctx, cyc, result_line(&reply), err);
	agent_reply_free(&reply);
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
	struct session_event *ev;
	size_t n;
	int rc;

	/* Without journal writers there is no journal acknowledgement to miss. */
	bool journal = acked->n > 0 || ctx->fio_acked.n == 0;

	if (board_prepare_base(ctx, err) < 0 || (journal && collect_verify(ctx, cyc, acked, err) < 0) ||
	    collect_journald(ctx, cyc, err) < 0 || collect_fio_verify(ctx, cyc, err) < 0 ||
	    collect_fsck(ctx, cyc, err) < 0)
		return -1;
	ev = session_events_drain(ctx->s, &n);
	rc = cycle_store_events(cyc, ev, n, err);
	if (rc == 0)
		rc = verdict_clean_resume(ctx, cyc, ev, n, err);
	session_events_free(ev, n);
	if (rc < 0)
		return -1;
	return board_start_workloads(ctx, err);
}

/* The acknowledgement gap: from each writer's last acknowledgement to the kernel's "suspend
 * entry" (the filesystems freeze right after it), both in printk time. Records completed in the
 * gap are at risk only if the freeze does not protect them. */
static void ack_gap(struct engine_ctx *ctx, struct results_cycle *cyc, const struct acks *acked,
		    struct rig_err *err)
{
	double entry = event_ktime(ctx->s, KEV_SUSPEND_ENTRY);

	if (isnan(entry))
		return;
	for (size_t i = 0; i < acked->n; i++)
		if (acked->writers[i].kernel_ts >= 0 && acked->writers[i].kernel_ts <= entry)
			results_cycle_add_measurement(cyc, "ack_gap_ms", acked->writers[i].id,
						      (entry - acked->writers[i].kernel_ts) * 1e3, "ms",
						      err);
}

static int run_power_cut(struct engine_ctx *ctx, const struct step_power_cut *st,
			 struct results_cycle *cyc, struct rig_err *err)
{
	struct agent_reply reply;
	struct acks acked;
	char cmd[128];
	double t0 = power_now();
	enum wait_result r;
	int rc;

	snprintf(cmd, sizeof(cmd), "rig-dut suspend %s external 0", sleep_mode_name(st->mode));
	if (collect_fio_checkpoint(ctx, err) < 0 || session_send(ctx->s, cmd, &reply, err) < 0)
		return -1;
	session_say(ctx->s, "  phase suspend (timeout %us)", ctx->t.suspend);
	r = wait_board(ctx, WAIT_FOR_SUSPENDED, t0, ms(ctx->t.suspend), &reply, err);
	if (r == WAIT_DONE)
		r = wait_idle(ctx, ms(st->after_seconds), &reply, err);
	agent_reply_free(&reply);
	if (r == WAIT_REPLIED) {
		/* The suspend failed or ended early: judge what the board went through, like any
		 * resume, and let fio write again. */
		if (verdict_add(ctx, cyc, "suspend", NULL, RESULTS_VERDICT_FAIL,
				"the board came back before the power cut",
				(const char *const[]){ "the board came back before the power cut" }, 1,
				err) < 0 ||
		    after_resume(ctx, cyc, err) < 0)
			return -1;
		return board_resume_fio(ctx, err);
	}
	if (r != WAIT_DONE)
		return wait_failed(ctx, r, cyc, "suspend", err);
	acked = ctx->s->acks;
	ack_gap(ctx, cyc, &acked, err);
	session_say(ctx->s, "  power cut while suspended");
	if (session_power_off(ctx->s, err) < 0)
		return -1;
	rc = board_boot_only(ctx, NULL, cyc, err);
	if (rc != 0)
		return rc;
	return verify_after_failure(ctx, cyc, &acked, err);
}

static int hibernate_restore(struct engine_ctx *ctx, struct agent_reply *reply, bool systemd,
			     struct results_cycle *cyc, struct rig_err *err)
{
	enum wait_result r;
	const char *line;
	int rc;

	if (session_power_on(ctx->s, NULL, err) < 0)
		return -1;
	session_say(ctx->s, "  phase restore (timeout %us)", ctx->t.restore);
	r = wait_board(ctx, WAIT_FOR_AGENT_READY, power_now(), ms(ctx->t.restore), reply, err);
	if (r == WAIT_DONE) {
		/* A fresh agent: the image was not restored. */
		rc = verdict_add(ctx, cyc, "hibernate", NULL, RESULTS_VERDICT_FAIL,
				 "the board booted afresh instead of restoring its image",
				 (const char *const[]){ "hibernation image not restored" }, 1, err);
		return rc < 0 ? -1 : board_prepare(ctx, err);
	}
	if (r != WAIT_REPLIED)
		return wait_failed(ctx, r, cyc, "restore", err);
	line = result_line(reply);
	rc = verdict_add(ctx, cyc, "hibernate", NULL,
			 kv_long(line, "result", -1) == 0 ? RESULTS_VERDICT_PASS : RESULTS_VERDICT_FAIL,
			 line, (const char *const[]){ line }, 1, err);
	if (rc == 0 && systemd)
		rc = collect_systemd_sleep(ctx, cyc, line, err);
	return rc < 0 ? -1 : after_resume(ctx, cyc, err);
}

static int run_hibernate(struct engine_ctx *ctx, const struct step_hibernate *st,
			 struct results_cycle *cyc, struct rig_err *err)
{
	struct agent_reply reply;
	struct acks acked;
	double t0 = power_now();
	enum wait_result r;
	int rc;

	if ((!st->resume && collect_fio_checkpoint(ctx, err) < 0) ||
	    session_send(ctx->s, st->via == VIA_SYSFS ? "rig-dut hibernate" : "rig-dut hibernate systemctl",
			 &reply, err) < 0)
		return -1;
	session_say(ctx->s, "  phase hibernate (timeout %us)", ctx->t.hibernate);
	r = wait_board(ctx, WAIT_FOR_POWER_OFF, t0, ms(ctx->t.hibernate), &reply, err);
	if (r == WAIT_REPLIED) {
		const char *line = reply.n_lines ? reply.lines[0] : "";

		rc = verdict_add(ctx, cyc, "hibernate", NULL, RESULTS_VERDICT_FAIL, line,
				 (const char *const[]){ line }, 1, err);
		agent_reply_free(&reply);
		if (rc < 0 || after_resume(ctx, cyc, err) < 0)
			return -1;
		return board_resume_fio(ctx, err);
	}
	if (r != WAIT_DONE) {
		agent_reply_free(&reply);
		return wait_failed(ctx, r, cyc, "hibernate", err);
	}
	results_cycle_add_measurement(cyc, "hibernate_ms", NULL, (power_now() - t0) * 1e3, "ms", err);
	acked = ctx->s->acks;
	if (st->resume) {
		rc = hibernate_restore(ctx, &reply, st->via != VIA_SYSFS, cyc, err);
		agent_reply_free(&reply);
		return rc;
	}
	agent_reply_free(&reply);
	session_say(ctx->s, "  discarding the image: boot with noresume");
	rc = board_boot_only(ctx, "noresume", cyc, err);
	if (rc != 0)
		return rc;
	return verify_after_failure(ctx, cyc, &acked, err);
}

static int run_pm_test(struct engine_ctx *ctx, const struct step_pm_test *st,
		       struct results_cycle *cyc, struct rig_err *err)
{
	struct agent_reply reply;
	char cmd[128];
	const char *line;
	int rc;

	snprintf(cmd, sizeof(cmd), "rig-dut pm-test %s %s", pm_test_level_name(st->level),
		 sleep_mode_name(st->mode));
	rc = session_exec(ctx->s, cmd, ctx->t.suspend + ctx->t.resume, &reply, err);
	if (rc != 0) {
		agent_reply_free(&reply);
		return rc < 0 ? -1 : hang_record(ctx, cyc, "pm_test", err);
	}
	line = reply.n_lines ? reply.lines[0] : "";
	rc = verdict_add(ctx, cyc, "pm-test", NULL,
			 kv_long(line, "result", -1) == 0 ? RESULTS_VERDICT_PASS : RESULTS_VERDICT_FAIL,
			 line, (const char *const[]){ line }, 1, err);
	agent_reply_free(&reply);
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
