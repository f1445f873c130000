/* More time for board commands on a starved host (engine/command_patience.h). */
#include "engine/command_patience.h"

#include "judge/starvation.h"

#define PROC_ROOT "/proc"
#define DECIDE_EVERY_MS 1000

static void sample(struct power *power, struct host_cpu_sample *out)
{
	host_cpu_sample(PROC_ROOT, power_runs_on_host(power), power_host_pid(power), out);
}

static bool more_time(void *ctx, long long started_ms, long long now_ms, long long timeout_ms)
{
	struct command_patience *p = ctx;
	struct host_cpu_sample to;
	struct starve_window w;

	if (!p->from.taken || !p->from.on_host)
		return false;
	if (p->decided_at_ms && now_ms - p->decided_at_ms < DECIDE_EVERY_MS)
		return p->more && now_ms - started_ms < STARVE_PATIENCE_FACTOR * timeout_ms;
	sample(p->power, &to);
	starve_window_of(&p->from, &to, &w);
	p->decided_at_ms = now_ms;
	p->more = starve_more_time(&w, now_ms - started_ms, timeout_ms);
	p->extended |= p->more;
	return p->more;
}

void command_patience_begin(struct command_patience *p, struct power *power)
{
	*p = (struct command_patience){ .agent = { .more_time = more_time, .ctx = p },
					.power = power };
	if (power)
		sample(power, &p->from);
}
