/* More time for board commands on a starved host (engine/command_patience.h). */
#include "engine/command_patience.h"

#define DECIDE_EVERY_MS 1000

static bool more_time(void *ctx, long long started_ms, long long now_ms, long long timeout_ms)
{
	struct command_patience *p = ctx;
	struct starve_window w;

	if (!p->from.taken || !p->from.on_host || (p->stop && *p->stop))
		return false;
	if (p->decided_at_ms && now_ms - p->decided_at_ms < DECIDE_EVERY_MS)
		return p->more && now_ms - started_ms < STARVE_PATIENCE_FACTOR * timeout_ms;
	host_cpu_sample_board(p->power, &p->to);
	starve_window_of(&p->from, &p->to, &w);
	p->decided_at_ms = now_ms;
	p->more = starve_more_time(&w, now_ms - started_ms, timeout_ms);
	return p->more;
}

/* Each attempt's window starts when its request goes out. */
static void begin(void *ctx)
{
	struct command_patience *p = ctx;

	p->from = p->to = (struct host_cpu_sample){ 0 };
	p->decided_at_ms = 0;
	p->more = false;
	host_cpu_sample_board(p->power, &p->from);
}

void command_patience_init(struct command_patience *p, struct power *power,
			   const volatile sig_atomic_t *stop)
{
	*p = (struct command_patience){
		.agent = { .begin = begin, .more_time = more_time, .ctx = p },
		.power = power, .stop = stop,
	};
}

bool command_patience_window(const struct command_patience *p, struct starve_window *w)
{
	if (!p->from.taken || !p->from.on_host || !p->to.taken)
		return false;
	starve_window_of(&p->from, &p->to, w);
	return true;
}
