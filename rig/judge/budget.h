/*
 * A cycle's time budget: where its seconds went, phase by phase, from evidence the rig already
 * has: the console's kernel events (printk time and the host time each line arrived), rig-dut's
 * sleep reply (its pre-suspend sync), the frozen window of the rig's kprobes, and the engine's
 * own clock (its collection after the resume). A phase the evidence does not show is unknown,
 * never 0. Pure: no board, no I/O. Fed incrementally (a cycle's events are drained in pieces).
 *
 * Phases, in the order a suspend goes through them:
 *   presync         rig-dut's userspace sync before it arms the RTC (its reply's presync_ms)
 *   kernel_sync     "Filesystems sync: X seconds"; older kernels: "PM: Syncing filesystems ..."
 *                   to the freezer's first line
 *   freeze_tasks    the task freezer's "(elapsed X seconds)", user space plus the rest
 *   freeze_fs       filesystems_freeze() in the frozen window (knob or not: unknown untraced)
 *   device_suspend  the freezer done -> the platform's sleep entry ("Preparing to enter system
 *                   sleep state S3", or s2idle's "PM: suspend-to-idle"), printk time
 *   asleep          deep: the host time between the sleep entry and "Waking up from system sleep
 *                   state S3" less the printk time between them (the kernel's clock stops in
 *                   S3); s2idle: the host time between "suspend-to-idle" and "resume from
 *                   suspend-to-idle" (the kernel's clock runs)
 *   resume          the printk time the kernel counted from the sleep entry (deep: CPUs off and
 *                   on again, noirq and early resume) or from s2idle's wake to "Restarting tasks"
 *   thaw            "Restarting tasks" -> "PM: suspend exit" (or hibernation exit): tasks and
 *                   filesystems thawed
 *   collect         the rig's collection after the resume (engine clock)
 *   reboot          a boot in the cycle (after a power cut, a hibernation): host time from
 *                   "Linux version" to the agent's ready line, or after a hibernation image
 *                   was restored to its "Restarting tasks" (firmware before it is not seen)
 */
#ifndef RIG_JUDGE_BUDGET_H
#define RIG_JUDGE_BUDGET_H

#include <stdbool.h>
#include <stddef.h>

#include "judge/judge.h"
#include "judge/window.h"

enum budget_phase {
	BUDGET_PRESYNC,
	BUDGET_KERNEL_SYNC,
	BUDGET_FREEZE_TASKS,
	BUDGET_FREEZE_FS,
	BUDGET_DEVICE_SUSPEND,
	BUDGET_ASLEEP,
	BUDGET_RESUME,
	BUDGET_THAW,
	BUDGET_COLLECT,
	BUDGET_REBOOT,
	BUDGET_N
};

struct budget_mark {              /* the last event of one kind */
	bool seen, has_ktime;
	double ktime, host;
};

struct budget_state {
	struct budget_mark sync_begin, freeze_begin, freeze_done, restart, exit;
	struct budget_mark s3_sleep, s3_wake, s2idle_enter, s2idle_exit, boot, ready;
	bool fs_sync;
	double fs_sync_s;
	bool restoring;               /* a boot kernel restores a hibernation image */
	int elapsed_n;                /* "(elapsed X seconds)" lines of the freezer */
	double elapsed_s;
};

struct budget {
	bool known[BUDGET_N];
	double seconds[BUDGET_N];
};

/* "presync", "kernel_sync", ..., "reboot". NULL out of range. */
const char *budget_phase_name(enum budget_phase phase);

void budget_init(struct budget_state *st);
void budget_feed(struct budget_state *st, const struct judge_event *ev, size_t n);

/* presync_ms: -1 unknown; w: NULL when not traced; collect_s: < 0 unknown. */
void budget_finish(const struct budget_state *st, long presync_ms, const struct frozen_window *w,
		   double collect_s, struct budget *out);

#endif
