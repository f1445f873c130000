#include "engine/wait.h"

#include "console/console.h"
#include "engine/busy_deadline.h"
#include "util/clock.h"

#define SLICE_MS 100
/* How long the console is still read after the power controller went away (below). */
#define POWER_GONE_DRAIN_MS 2000

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
	case WAIT_FOR_OFF_OR_ASLEEP:
		if (power_status(s->power, &state, err) < 0)
			return -1;
		return state == POWER_OFF || (what == WAIT_FOR_OFF_OR_ASLEEP && state == POWER_SUSPENDED);
	case WAIT_FOR_AGENT_READY:
		return s->agent_ready;
	}
	return 0;
}

#define DISK_SAMPLE_MS 1000

/* Reads the disk counter about once a second; a failed or unsupported read leaves the plain
 * timeout in force. */
static void sample_disks(struct engine_ctx *ctx, struct busy_deadline *d, long long now,
			 long long *next_sample)
{
	unsigned long long ops;
	struct rig_err ignored;

	if (now < *next_sample)
		return;
	*next_sample = now + DISK_SAMPLE_MS;
	if (power_disk_ops(ctx->s->power, &ops, &ignored) == 1)
		busy_deadline_sample(d, now, ops);
}

static void say_extending(struct engine_ctx *ctx, const struct busy_deadline *d)
{
	session_say(ctx->s, "  past its %llds timeout the board's disks are still busy: waiting while "
		    "they are (until %llds quiet, at most %llds)", d->timeout_ms / 1000,
		    (long long)BUSY_QUIET_MS / 1000, d->cap_ms / 1000);
}

/* The power controller went away (rig powerd killed) and its lines fell to their idle levels:
 * what that did to the board shows on its console a moment later (a break as the board's TX drops
 * with its power), so the console is read a little longer and the run's log holds it beside the
 * error, not only the error. */
static void drain_after_power_gone(struct engine_ctx *ctx)
{
	long long end = monotonic_ms() + POWER_GONE_DRAIN_MS, left;
	struct rig_err ignored = { 0 };

	while (ctx->s->console && (left = end - monotonic_ms()) > 0)
		if (session_pump(ctx->s, (int)left, NULL, &ignored) < 0)
			return;
}

static enum wait_result wait_until(struct engine_ctx *ctx, enum wait_for what, double since,
				   long long timeout_ms, bool writing, struct agent_reply *reply,
				   struct rig_err *err)
{
	struct busy_deadline d;
	long long next_sample = 0;
	bool said = false;

	busy_deadline_start(&d, monotonic_ms(), timeout_ms);
	ctx->last_wait_extended_ms = 0;
	for (;;) {
		long long now = monotonic_ms(), left = d.start_ms + d.timeout_ms - now;
		int rc;

		if (ctx->opts->stop && *ctx->opts->stop)
			return WAIT_STOPPED;
		/* A power controller gone mid-wait (rig powerd killed) is no hang of the board. */
		if (power_check(ctx->s->power, err) < 0) {
			drain_after_power_gone(ctx);
			return WAIT_ERROR;
		}
		rc = condition_met(ctx, what, since, err);
		if (rc < 0)
			return WAIT_ERROR;
		if (rc > 0)
			return WAIT_DONE;
		if (writing)
			sample_disks(ctx, &d, now, &next_sample);
		if (busy_deadline_expired(&d, now)) {
			ctx->last_timeout_overrun_ms = (double)(now - d.start_ms - d.timeout_ms -
								d.extended_ms);
			ctx->last_wait_extended_ms = d.extended_ms;
			return WAIT_TIMEOUT;
		}
		if (left <= 0) {
			ctx->last_wait_extended_ms = d.extended_ms;
			if (!said)
				say_extending(ctx, &d);
			said = true;
			left = SLICE_MS;
		}
		if (!ctx->s->console) {
			/* Nothing to read while the board is off: just let the time pass. */
			clock_sleep_ms(SLICE_MS);
			continue;
		}
		rc = session_pump(ctx->s, left < SLICE_MS ? (int)left : SLICE_MS, reply, err);
		if (rc < 0) {
			/* The console ends when a QEMU board powers itself off. */
			if (what == WAIT_FOR_POWER_OFF || what == WAIT_FOR_OFF_OR_ASLEEP) {
				session_detach_console(ctx->s);
				continue;
			}
			return WAIT_ERROR;
		}
		if (rc == 1)
			return WAIT_REPLIED;
	}
}

enum wait_result wait_board(struct engine_ctx *ctx, enum wait_for what, double since,
			    long long timeout_ms, struct agent_reply *reply, struct rig_err *err)
{
	return wait_until(ctx, what, since, timeout_ms, false, reply, err);
}

enum wait_result wait_board_writing(struct engine_ctx *ctx, enum wait_for what, double since,
				    long long timeout_ms, struct agent_reply *reply,
				    struct rig_err *err)
{
	return wait_until(ctx, what, since, timeout_ms, true, reply, err);
}

enum wait_result wait_idle(struct engine_ctx *ctx, long long ms, struct agent_reply *reply,
			   struct rig_err *err)
{
	enum wait_result r = wait_board(ctx, WAIT_FOR_REPLY, 0, ms, reply, err);

	return r == WAIT_TIMEOUT ? WAIT_DONE : r;
}
