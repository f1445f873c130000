/* Boot health (judge/boot_health.h). */
#include "judge/boot_health.h"

#include <stdio.h>
#include <string.h>

static bool unhealthy(enum kevent_kind kind)
{
	switch (kind) {
	case KEV_IRQ_NOBODY_CARED: case KEV_IRQ_DISABLED: case KEV_SOFT_LOCKUP:
	case KEV_HARD_LOCKUP: case KEV_RCU_STALL: case KEV_OOPS: case KEV_GPF: case KEV_PANIC:
		return true;
	default:
		return false;
	}
}

bool judge_boot_health(const struct judge_event *ev, size_t n, struct boot_health *h)
{
	size_t from = 0;

	memset(h, 0, sizeof(*h));
	for (size_t i = 0; i < n; i++)
		if (ev[i].ev.kind == KEV_KERNEL_BOOT)
			from = i;
	for (size_t i = from; i < n; i++) {
		if (!unhealthy(ev[i].ev.kind))
			continue;
		if (h->n_bad < BOOT_HEALTH_MAX_LINES)
			h->lines[h->n_bad] = ev[i].text ? ev[i].text : "";
		h->n_bad++;
	}
	return h->n_bad == 0;
}

void boot_health_describe(const struct boot_health *h, char *buf, size_t size)
{
	size_t shown = h->n_bad < BOOT_HEALTH_MAX_LINES ? h->n_bad : BOOT_HEALTH_MAX_LINES;
	int n = snprintf(buf, size, "boot unhealthy (%zu console line%s):", h->n_bad,
			 h->n_bad == 1 ? "" : "s");

	for (size_t i = 0; i < shown && n >= 0 && (size_t)n < size; i++)
		n += snprintf(buf + n, size - (size_t)n, "%s %s", i ? " |" : "", h->lines[i]);
	if (shown < h->n_bad && n >= 0 && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, " | ...");
}
