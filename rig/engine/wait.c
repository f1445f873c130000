#include "engine/wait.h"

#include "console/console.h"
#include "util/clock.h"

#define SLICE_MS 100

static bool saw_event(struct session *s, enum kevent_kind kind, double since)
{
	for (size_t i = 0; i < s->n_events; i++)
		if (s->events[i].ev.kind == kind && s->events[i].host_ts >= since)
			return true;
	return false;
}

static int condition_met(struct engine_ctx *ctx, enum wait_for what, double since,
			 struct rig_err *err)
{
	struct session *s = ctx->s;
	enum power_state state;

	switch (what) {
	case WAIT_FOR_REPLY:
		return 0;
	case WAIT_FOR_SUSPENDED:
		if (power_has_events(s->power))
			return power_wait_event(s->power, "SUSPEND", since, 0, err);
		return saw_event(s, KEV_ACPI_SLEEP, since);
	case WAIT_FOR_WATCH:
		return s->watch_hit_at >= since;
	case WAIT_FOR_POWER_OFF:
		if (power_status(s->power, &state, err) < 0)
			return -1;
		return state == POWER_OFF;
	case WAIT_FOR_AGENT_READY:
		return s->agent_ready;
	}
	return 0;
}

enum wait_result wait_board(struct engine_ctx *ctx, enum wait_for what, double since,
			    long long timeout_ms, struct agent_reply *reply, struct rig_err *err)
{
	long long deadline = monotonic_ms() + timeout_ms;

	for (;;) {
		long long left = deadline - monotonic_ms();
		int rc;

		if (ctx->opts->stop && *ctx->opts->stop)
			return WAIT_STOPPED;
		/* A power controller gone mid-wait (rig powerd killed) is no hang of the board. */
		if (power_check(ctx->s->power, err) < 0)
			return WAIT_ERROR;
		rc = condition_met(ctx, what, since, err);
		if (rc < 0)
			return WAIT_ERROR;
		if (rc > 0)
			return WAIT_DONE;
		if (left <= 0) {
			ctx->last_timeout_overrun_ms = (double)-left;
			return WAIT_TIMEOUT;
		}
		if (!ctx->s->console) {
			/* Nothing to read while the board is off: just let the time pass. */
			clock_sleep_ms(SLICE_MS);
			continue;
		}
		rc = session_pump(ctx->s, left < SLICE_MS ? (int)left : SLICE_MS, reply, err);
		if (rc < 0) {
			/* The console ends when a QEMU board powers itself off. */
			if (what == WAIT_FOR_POWER_OFF) {
				session_detach_console(ctx->s);
				continue;
			}
			return WAIT_ERROR;
		}
		if (rc == 1)
			return WAIT_REPLIED;
	}
}

enum wait_result wait_idle(struct engine_ctx *ctx, long long ms, struct agent_reply *reply,
			   struct rig_err *err)
{
	enum wait_result r = wait_board(ctx, WAIT_FOR_REPLY, 0, ms, reply, err);

	return r == WAIT_TIMEOUT ? WAIT_DONE : r;
}
