#include "engine/rtc_wake.h"

#include <stdio.h>

#include "power/power.h"
#include "util/kv.h"

/* How long after the alarm's nominal time a board still asleep counts as not woken. */
#define RTC_WAKE_GRACE_MS 15000

enum wait_result rtc_wake_wait(struct engine_ctx *ctx, const struct step_suspend *st,
			       struct rtc_wake *w, struct agent_reply *reply, struct rig_err *err)
{
	enum power_state state;
	struct rig_err ignored;
	enum wait_result r = wait_board(ctx, WAIT_FOR_REPLY, 0,
					(long long)st->seconds * 1000 + RTC_WAKE_GRACE_MS, reply, err);

	if (r != WAIT_TIMEOUT || power_status(ctx->s->power, &state, &ignored) < 0 ||
	    state != POWER_SUSPENDED)
		return r;
	session_say(ctx->s, "  the RTC alarm has not woken the board %u s after it fell asleep: "
		    "waking it through the %s backend", st->seconds, power_backend_name(ctx->s->power));
	if (power_wakeup(ctx->s->power, &ignored) < 0)
		return r;   /* no other way to wake it: the resume timeout decides */
	w->rescued = true;
	return r;
}

enum results_verdict_result rtc_wake_judge(const struct rtc_wake *w, unsigned seconds,
					   long presync_ms, char *detail, size_t size)
{
	double alarm_at = w->armed_after + (double)presync_ms / 1e3 + seconds;

	if (alarm_at < w->asleep_at) {
		snprintf(detail, size, "RTC alarm expired %.1f s before the board was asleep (the sync "
			 "and freeze outlasted it): woken by the rig instead", w->asleep_at - alarm_at);
		return RESULTS_VERDICT_SKIP;
	}
	snprintf(detail, size, "the board was asleep %.1f s before its RTC alarm and the alarm did "
		 "not wake it: woken by the rig", alarm_at - w->asleep_at);
	return RESULTS_VERDICT_FAIL;
}

int rtc_wake_verdict(struct engine_ctx *ctx, struct results_cycle *cyc, const struct step_suspend *st,
		     const struct rtc_wake *w, const char *result_line, struct rig_err *err)
{
	char detail[256];
	enum results_verdict_result r;

	if (!w->rescued)
		return 0;
	if (results_cycle_add_measurement(cyc, "rtc_alarm_missed", NULL, 1, "count", err) < 0)
		return -1;
	r = rtc_wake_judge(w, st->seconds, kv_long(result_line, "presync_ms", 0), detail,
			   sizeof(detail));
	return verdict_add(ctx, cyc, "wake", NULL, r, detail,
			   r == RESULTS_VERDICT_FAIL ? (const char *const[]){ detail } : NULL,
			   r == RESULTS_VERDICT_FAIL, err);
}
