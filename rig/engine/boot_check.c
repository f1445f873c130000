/* The boot-health check after a boot and its setup (judge/boot_health.h), for rig run and rig boot. */
#include <stdio.h>

#include "engine/session.h"
#include "judge/boot_health.h"

int session_check_boot_health(struct session *s, struct rig_err *err)
{
	struct boot_health h;
	char detail[1536];

	if (judge_boot_health(s->events, s->n_events, &h))
		return 0;
	boot_health_describe(&h, detail, sizeof(detail));
	return rig_err_set(err, RIG_EXIT_INFRA, "board %s: %s (console log %s)", s->board->name,
			   detail, s->console_log);
}
