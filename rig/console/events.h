/* Classifies console lines into kernel and agent events. The message formats come from the
 * kernel under test (kernel/power/{suspend,hibernate,process,swap,main}.c, kernel/panic.c,
 * kernel/reboot.c, lib/bug.c, kernel/hung_task.c, kernel/locking/lockdep.c, kernel/watchdog.c,
 * drivers/acpi/sleep.c, drivers/base/power/{main,trace}.c, arch/x86/kernel/dumpstack.c);
 * older spellings are accepted where they differ. */
#ifndef RIG_CONSOLE_EVENTS_H
#define RIG_CONSOLE_EVENTS_H

#include <stdbool.h>
#include <time.h>

#include "util/err.h"

enum kevent_kind {
	KEV_NONE = 0,
	KEV_KERNEL_BOOT,            /* "Linux version": arg = release; the board (re)booted */
	KEV_SUSPEND_ENTRY,          /* arg = deep | s2idle | shallow */
	KEV_SUSPEND_EXIT,
	KEV_SLEEP_FAILED,           /* devices failed to suspend / power down: arg = message */
	KEV_DEVICE_PM_FAILED,       /* "<dev>: PM: failed to suspend: error -16": arg = dev, num */
	KEV_HIBERNATE_ENTRY,
	KEV_HIBERNATE_EXIT,
	KEV_HIBERNATE_RESUME,       /* the boot kernel found an image and restores it */
	KEV_HIBERNATE_RESUME_FAILED,/* num = error */
	KEV_IMAGE_SAVE_PROGRESS,    /* num = percent */
	KEV_IMAGE_SAVED,
	KEV_IMAGE_SAVE_FAILED,      /* num = error */
	KEV_IMAGE_LOAD_PROGRESS,    /* num = percent */
	KEV_IMAGE_LOADED,
	KEV_IMAGE_LOAD_FAILED,
	KEV_IMAGE_RESTORED,
	KEV_FS_SYNC,                /* value = seconds */
	KEV_FS_SYNC_BEGIN,          /* "PM: Syncing filesystems ... done.": older kernels, no time */
	KEV_S2IDLE_ENTER,           /* "PM: suspend-to-idle" (pm_debug_messages): asleep from here */
	KEV_S2IDLE_EXIT,            /* "PM: resume from suspend-to-idle" (pm_debug_messages) */
	KEV_FREEZE_USER_BEGIN,
	KEV_FREEZE_USER_DONE,
	KEV_FREEZE_REMAINING_BEGIN,
	KEV_FREEZE_REMAINING_DONE,
	KEV_FREEZE_FAILED,          /* arg = what; num = tasks refusing; value = seconds */
	KEV_FREEZE_STUCK_TASK,      /* arg = task name, from the task dump after a freeze failure */
	KEV_TASK_DUMP,              /* arg = task name, a task dump in another context */
	KEV_ACPI_SLEEP,             /* num = S state */
	KEV_ACPI_WAKE,              /* num = S state */
	KEV_POWER_DOWN,             /* "reboot: Power down": the kernel switches the board off */
	KEV_RESTART,                /* "reboot: Restarting system": the kernel resets the board */
	KEV_RESTART_TASKS_BEGIN,
	KEV_RESTART_TASKS_DONE,
	KEV_WARNING,                /* file:line when known, arg = function, num = CPU */
	KEV_BUG,                    /* arg = text; file:line for "kernel BUG at" */
	KEV_GPF,
	KEV_OOPS,
	KEV_LOCKDEP,                /* arg = the splat's title */
	KEV_SPLAT_BANNER,           /* a "=====" line opening a lockdep/KASAN report */
	KEV_HUNG_TASK,              /* arg = task, num = pid, value = seconds */
	KEV_PANIC,                  /* arg = reason */
	KEV_SOFT_LOCKUP,            /* arg = task, num = CPU, value = seconds */
	KEV_HARD_LOCKUP,            /* num = CPU */
	KEV_IRQ_NOBODY_CARED,       /* num = IRQ: no handler took its interrupts (a lost line) */
	KEV_IRQ_DISABLED,           /* num = IRQ the kernel disabled after "nobody cared" */
	KEV_RCU_STALL,              /* arg = the RCU flavour that reported a CPU or task stall */
	KEV_PM_TRACE_MAGIC,         /* arg = "user:file:dev" */
	KEV_PM_TRACE_HASH,          /* file:line, or arg = device */
	KEV_RIG_TRACE,              /* one of the rig's kprobe events in a SysRq-z trace dump
				     * (workloads/agent/rig-dut.sh trace-setup): arg = event; the
				     * stamp in num (latency format: us since the buffer's start) or
				     * value (default format: seconds) */
	KEV_AGENT_READY,
	KEV_AGENT_BEGIN,            /* num = seq */
	KEV_AGENT_END,              /* num = seq, value = rc */
	KEV_COUNT
};

struct kevent {
	enum kevent_kind kind;
	bool has_ktime;
	double ktime;               /* kernel timestamp, seconds since boot */
	struct timespec host_time;  /* filled in by the console; zero from kevent_parse */
	char arg[128];
	char file[128];
	unsigned line;
	long num;
	double value;
	const char *message;        /* the line without its kernel prefix; valid during callback */
};

struct kevent_parser;

int kevent_parser_new(const char *agent_marker, struct kevent_parser **out,
		      struct rig_err *err);
void kevent_parser_free(struct kevent_parser *p);
/* 1 and *ev filled when the line is an event, 0 when not. Stateful: a "task:" line after a
 * freeze failure is a stuck task. */
int kevent_parse(struct kevent_parser *p, const char *line, struct kevent *ev);

const char *kevent_kind_name(enum kevent_kind kind);
/* Events that mean the kernel misbehaved (WARNING, BUG, lockdep, hung task, panic, ...). */
bool kevent_is_failure(enum kevent_kind kind);

#endif
