/* A cycle's time budget from the evidence the rig already has (budget.h). */
#include "judge/budget.h"

#include <stdlib.h>
#include <string.h>

static const char *const phase_names[BUDGET_N] = {
	[BUDGET_PRESYNC] = "presync", [BUDGET_KERNEL_SYNC] = "kernel_sync",
	[BUDGET_FREEZE_TASKS] = "freeze_tasks", [BUDGET_FREEZE_FS] = "freeze_fs",
	[BUDGET_DEVICE_SUSPEND] = "device_suspend", [BUDGET_ASLEEP] = "asleep",
	[BUDGET_RESUME] = "resume", [BUDGET_THAW] = "thaw", [BUDGET_COLLECT] = "collect",
	[BUDGET_REBOOT] = "reboot",
};

const char *budget_phase_name(enum budget_phase phase)
{
	return (unsigned)phase < BUDGET_N ? phase_names[phase] : NULL;
}

void budget_init(struct budget_state *st)
{
	memset(st, 0, sizeof(*st));
}

static void mark(struct budget_mark *m, const struct judge_event *e)
{
	m->seen = true;
	m->has_ktime = e->ev.has_ktime;
	m->ktime = e->ev.ktime;
	m->host = e->host_ts;
}

/* "... (elapsed 0.004 seconds)": the freezer's own figure, where the kernel prints one. */
static void add_elapsed(struct budget_state *st, const char *text)
{
	const char *p = text ? strstr(text, "(elapsed ") : NULL;
	char *end;
	double s;

	if (!p)
		return;
	s = strtod(p + 9, &end);
	if (end == p + 9 || strncmp(end, " seconds", 8) != 0 || s < 0)
		return;
	st->elapsed_s += s;
	st->elapsed_n++;
}

/* A sleep that begins again (a retry, the next suspend of a multi-sleep step) starts its
 * evidence afresh: only the last sleep of a cycle is budgeted. */
static void new_sleep(struct budget_state *st)
{
	struct budget_mark boot = st->boot, ready = st->ready;

	budget_init(st);   /* restoring too: a new sleep is the running kernel's */
	st->boot = boot;
	st->ready = ready;
}

static bool is_freezer(enum kevent_kind kind)
{
	return kind == KEV_FREEZE_USER_BEGIN || kind == KEV_FREEZE_USER_DONE ||
	       kind == KEV_FREEZE_REMAINING_DONE;
}

static void feed_one(struct budget_state *st, const struct judge_event *e)
{
	/* the boot kernel that restores a hibernation image freezes its own tasks: not the
	 * sleeping kernel's freeze */
	if (st->restoring && is_freezer(e->ev.kind))
		return;
	switch (e->ev.kind) {
	case KEV_SUSPEND_ENTRY: case KEV_HIBERNATE_ENTRY: new_sleep(st); break;
	case KEV_FS_SYNC: st->fs_sync = true; st->fs_sync_s = e->ev.value; break;
	case KEV_FS_SYNC_BEGIN: mark(&st->sync_begin, e); break;
	case KEV_FREEZE_USER_BEGIN: mark(&st->freeze_begin, e); break;
	case KEV_FREEZE_USER_DONE: add_elapsed(st, e->text); mark(&st->freeze_done, e); break;
	case KEV_FREEZE_REMAINING_DONE: add_elapsed(st, e->text); mark(&st->freeze_done, e); break;
	case KEV_ACPI_SLEEP: if (e->ev.num == 3) mark(&st->s3_sleep, e); break;
	case KEV_ACPI_WAKE: if (e->ev.num == 3) mark(&st->s3_wake, e); break;
	case KEV_S2IDLE_ENTER: mark(&st->s2idle_enter, e); break;
	case KEV_S2IDLE_EXIT: mark(&st->s2idle_exit, e); break;
	case KEV_RESTART_TASKS_BEGIN:
		mark(&st->restart, e);
		/* a restored image's userspace runs again: the boot that restored it is over */
		if (st->restoring && st->boot.seen && !st->ready.seen)
			mark(&st->ready, e);
		break;
	case KEV_RESTART_TASKS_DONE:
		if (!st->restart.seen)   /* older kernels: one "Restarting tasks ... done." line */
			mark(&st->restart, e);
		break;
	case KEV_SUSPEND_EXIT: case KEV_HIBERNATE_EXIT: mark(&st->exit, e); break;
	case KEV_HIBERNATE_RESUME: st->restoring = true; break;
	case KEV_KERNEL_BOOT: mark(&st->boot, e); st->ready.seen = false; break;
	case KEV_AGENT_READY: if (st->boot.seen && !st->ready.seen) mark(&st->ready, e); break;
	default: break;
	}
}

void budget_feed(struct budget_state *st, const struct judge_event *ev, size_t n)
{
	for (size_t i = 0; i < n; i++)
		feed_one(st, &ev[i]);
}

static void set(struct budget *b, enum budget_phase p, double s)
{
	if (s < 0)       /* evidence out of order (a line from before a reboot): not a time */
		return;
	b->known[p] = true;
	b->seconds[p] = s;
}

/* Printk time from a to b, both seen with a printk stamp, in one boot. */
static bool kdelta(const struct budget_mark *a, const struct budget_mark *b, double *s)
{
	if (!a->seen || !b->seen || !a->has_ktime || !b->has_ktime || b->ktime < a->ktime)
		return false;
	*s = b->ktime - a->ktime;
	return true;
}

static bool hdelta(const struct budget_mark *a, const struct budget_mark *b, double *s)
{
	if (!a->seen || !b->seen || a->host <= 0 || b->host < a->host)
		return false;
	*s = b->host - a->host;
	return true;
}

/* device_suspend, asleep and resume: from the platform's own sleep and wake lines. A power cut
 * while asleep has a sleep line and no wake: its device suspend is still known. */
static void sleep_phases(const struct budget_state *st, struct budget *b)
{
	const struct budget_mark *woke = NULL;
	double s, k, h;

	if (kdelta(&st->freeze_done, &st->s3_sleep, &s) ||
	    kdelta(&st->freeze_done, &st->s2idle_enter, &s))
		set(b, BUDGET_DEVICE_SUSPEND, s);
	if (kdelta(&st->s3_sleep, &st->s3_wake, &k) && hdelta(&st->s3_sleep, &st->s3_wake, &h) &&
	    h >= k) {
		/* the kernel's clock stopped in S3: the sleep is the time it did not count, and what
		 * it did count (CPUs off and on, noirq and early resume) is resume */
		set(b, BUDGET_ASLEEP, h - k);
		woke = &st->s3_sleep;
	} else if (hdelta(&st->s2idle_enter, &st->s2idle_exit, &h)) {
		set(b, BUDGET_ASLEEP, h);     /* the kernel's clock ran through the sleep */
		woke = &st->s2idle_exit;
	}
	if (woke && kdelta(woke, &st->restart, &s))
		set(b, BUDGET_RESUME, s);
}

void budget_finish(const struct budget_state *st, long presync_ms, const struct frozen_window *w,
		   double collect_s, struct budget *out)
{
	double s;

	memset(out, 0, sizeof(*out));
	if (presync_ms >= 0)
		set(out, BUDGET_PRESYNC, (double)presync_ms / 1e3);
	if (st->fs_sync)
		set(out, BUDGET_KERNEL_SYNC, st->fs_sync_s);
	else if (kdelta(&st->sync_begin, &st->freeze_begin, &s))
		set(out, BUDGET_KERNEL_SYNC, s);
	if (st->elapsed_n == 2)
		set(out, BUDGET_FREEZE_TASKS, st->elapsed_s);
	else if (kdelta(&st->freeze_begin, &st->freeze_done, &s))
		set(out, BUDGET_FREEZE_TASKS, s);
	if (w && w->seen && w->freeze_done && w->freeze_done_ns >= w->freeze_ns)
		set(out, BUDGET_FREEZE_FS, (double)(w->freeze_done_ns - w->freeze_ns) / 1e9);
	sleep_phases(st, out);
	if (kdelta(&st->restart, &st->exit, &s))
		set(out, BUDGET_THAW, s);
	if (collect_s >= 0)
		set(out, BUDGET_COLLECT, collect_s);
	if (hdelta(&st->boot, &st->ready, &s))
		set(out, BUDGET_REBOOT, s);
}
