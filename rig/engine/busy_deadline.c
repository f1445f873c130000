/* A phase deadline a writing board may overrun (engine/busy_deadline.h). */
#include "engine/busy_deadline.h"

void busy_deadline_start(struct busy_deadline *d, long long now_ms, long long timeout_ms)
{
	*d = (struct busy_deadline){ .start_ms = now_ms, .timeout_ms = timeout_ms,
				     .cap_ms = timeout_ms * BUSY_CAP_FACTOR, .last_busy_ms = -1 };
}

void busy_deadline_sample(struct busy_deadline *d, long long now_ms, unsigned long long ops)
{
	/* The first reading is the baseline: activity before the phase proves nothing. */
	if (d->have_ops && ops != d->last_ops)
		d->last_busy_ms = now_ms;
	d->last_ops = ops;
	d->have_ops = true;
}

static bool busy_recently(const struct busy_deadline *d, long long now_ms)
{
	return d->last_busy_ms >= 0 && now_ms - d->last_busy_ms < BUSY_QUIET_MS;
}

bool busy_deadline_extending(const struct busy_deadline *d, long long now_ms)
{
	long long ran = now_ms - d->start_ms;

	return ran >= d->timeout_ms && ran < d->cap_ms && busy_recently(d, now_ms);
}

bool busy_deadline_expired(struct busy_deadline *d, long long now_ms)
{
	long long ran = now_ms - d->start_ms;

	if (ran < d->timeout_ms)
		return false;
	if (busy_deadline_extending(d, now_ms)) {
		d->extended_ms = ran - d->timeout_ms;
		return false;
	}
	return true;
}
