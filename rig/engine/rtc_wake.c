#include "engine/rtc_wake.h"

#include <stdio.h>

#include "power/power.h"

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
