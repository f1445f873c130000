/* Boot health: whether a boot (and the setup after it) left the board fit to be tested. A lost
 * interrupt line the kernel disabled ("irq 10: nobody cared ... Disabling IRQ #10"), a soft or
 * hard lockup, an RCU stall, an oops or a panic before the first cycle means every verdict after
 * it would judge the host or the emulator, not the kernel's suspend: the engine records such a
 * cycle as an infrastructure error with these lines as its evidence. Pure: no I/O. */
#ifndef RIG_JUDGE_BOOT_HEALTH_H
#define RIG_JUDGE_BOOT_HEALTH_H

#include <stdbool.h>
#include <stddef.h>

#include "judge/judge.h"

#define BOOT_HEALTH_MAX_LINES 6

struct boot_health {
	size_t n_bad;                               /* every unhealthy line seen */
	const char *lines[BOOT_HEALTH_MAX_LINES];   /* the first of them (point into the events) */
};

/* The events of the last boot (from its last "Linux version" on, or all when there is none).
 * True when healthy; h lists the lines otherwise. */
bool judge_boot_health(const struct judge_event *ev, size_t n, struct boot_health *h);

/* "boot unhealthy (2 lines): irq 10: nobody cared (...) | Disabling IRQ #10" */
void boot_health_describe(const struct boot_health *h, char *buf, size_t size);

#endif
