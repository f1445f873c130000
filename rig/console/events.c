#include "console/events.h"

#include <float.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console/kstamp.h"
#include "util/number.h"

/* One recognised message. Capture group numbers say where each field comes from; 0 = none. */
struct event_rule {
	enum kevent_kind kind;
	const char *regex;        /* POSIX ERE on the message (kernel prefix removed) */
	int arg, file, line, num, value;
};

#define PM_OPT "^(PM: )?"
/* The rig's kprobe events (rig-dut trace-setup) */
#define RIG_TRACE_EVENTS \
	"(fs_freeze|fs_freeze_done|fs_thaw|fs_thaw_done|freeze_super|freeze_super_ret|thaw_super)"

/* Order matters: the first rule that matches wins (lockdep before generic WARNING, GPF
 * before Oops, failures before completions). */
static const struct event_rule kernel_rules[] = {
	{ KEV_KERNEL_BOOT, "^Linux version ([^ ]+)", 1, 0, 0, 0, 0 },
	{ KEV_SUSPEND_ENTRY, "^PM: suspend entry \\(([a-z0-9]+)\\)", 1, 0, 0, 0, 0 },
	{ KEV_SUSPEND_EXIT, "^PM: suspend exit", 0, 0, 0, 0, 0 },
	{ KEV_SLEEP_FAILED,
	  "^PM: (hibernation: )?(Some (system )?devices failed to (suspend|power down).*"
	  "|(late|noirq) suspend of devices failed|Error -?[0-9]+ creating image)", 2, 0, 0, 0, 0 },
	{ KEV_DEVICE_PM_FAILED, "^(.+): PM: failed to [a-z ]+: error (-?[0-9]+)", 1, 0, 0, 2, 0 },
	{ KEV_HIBERNATE_ENTRY, "^PM: hibernation: hibernation entry", 0, 0, 0, 0, 0 },
	{ KEV_HIBERNATE_EXIT, "^PM: hibernation: hibernation exit", 0, 0, 0, 0, 0 },
	{ KEV_HIBERNATE_RESUME_FAILED, "^PM: hibernation: resume failed \\((-?[0-9]+)\\)",
	  0, 0, 0, 1, 0 },
	{ KEV_HIBERNATE_RESUME, "^PM: hibernation: resume from hibernation", 0, 0, 0, 0, 0 },
	{ KEV_IMAGE_SAVE_PROGRESS, "^PM: Image saving progress: *([0-9]+)%", 0, 0, 0, 1, 0 },
	{ KEV_IMAGE_SAVED, "^PM: (hibernation: )?Image saving done", 0, 0, 0, 0, 0 },
	{ KEV_IMAGE_SAVE_FAILED, "^PM: Image saving failed: (-?[0-9]+)", 0, 0, 0, 1, 0 },
	{ KEV_IMAGE_LOAD_PROGRESS, "^PM: Image loading progress: *([0-9]+)%", 0, 0, 0, 1, 0 },
	{ KEV_IMAGE_LOADED, "^PM: Image loading done", 0, 0, 0, 0, 0 },
	{ KEV_IMAGE_LOAD_FAILED,
	  "^PM: (hibernation: )?(Failed to load image, recovering|Invalid image CRC32!)",
	  2, 0, 0, 0, 0 },
	{ KEV_IMAGE_RESTORED,
	  "^PM: (hibernation: )?(Hibernation image restored successfully|Image restored)",
	  0, 0, 0, 0, 0 },
	{ KEV_FS_SYNC, PM_OPT "Filesystems sync: ([0-9.]+) seconds", 0, 0, 0, 0, 2 },
	{ KEV_FS_SYNC_BEGIN, PM_OPT "Syncing filesystems \\.\\.\\.", 0, 0, 0, 0, 0 },
	/* KERN_DEBUG lines rig-dut's s2idle suspend turns on (pm_debug_messages, loglevel 8) */
	{ KEV_S2IDLE_ENTER, "^PM: suspend-to-idle$", 0, 0, 0, 0, 0 },
	{ KEV_S2IDLE_EXIT, "^PM: resume from suspend-to-idle", 0, 0, 0, 0, 0 },
	{ KEV_FREEZE_FAILED,
	  PM_OPT "Freezing (.+) (failed|aborted) after ([0-9.]+) seconds "
	  "\\(([0-9]+) tasks refusing to freeze", 2, 0, 0, 5, 4 },
	{ KEV_FREEZE_USER_DONE, PM_OPT "Freezing user space processes (completed|\\.\\.\\..*done)",
	  0, 0, 0, 0, 0 },
	{ KEV_FREEZE_USER_BEGIN, PM_OPT "Freezing user space processes( \\.\\.\\.)? *$",
	  0, 0, 0, 0, 0 },
	{ KEV_FREEZE_REMAINING_DONE,
	  PM_OPT "Freezing remaining freezable tasks (completed|\\.\\.\\..*done)", 0, 0, 0, 0, 0 },
	{ KEV_FREEZE_REMAINING_BEGIN, PM_OPT "Freezing remaining freezable tasks( \\.\\.\\.)? *$",
	  0, 0, 0, 0, 0 },
	{ KEV_TASK_DUMP, "^task:(.*[^ ]) +state:[A-Za-z]", 1, 0, 0, 0, 0 },
	{ KEV_ACPI_SLEEP, "^ACPI: PM: Preparing to enter system sleep state S([0-9])",
	  0, 0, 0, 1, 0 },
	{ KEV_ACPI_WAKE, "^ACPI: PM: Waking up from system sleep state S([0-9])", 0, 0, 0, 1, 0 },
	{ KEV_POWER_DOWN, "^reboot: Power down", 0, 0, 0, 0, 0 },
	{ KEV_RESTART, "^reboot: Restarting system", 0, 0, 0, 0, 0 },
	{ KEV_RESTART_TASKS_DONE, PM_OPT "Restarting tasks(: Done| \\.\\.\\. done)",
	  0, 0, 0, 0, 0 },
	{ KEV_RESTART_TASKS_BEGIN, PM_OPT "Restarting tasks", 0, 0, 0, 0, 0 },
	{ KEV_LOCKDEP,
	  "^WARNING: (possible .*|inconsistent lock state|.* lock order detected"
	  "|bad unlock balance detected!|held lock freed!|.* still has locks held!"
	  "|Nested lock was not taken|chain_key collision|bad contention detected!"
	  "|suspicious RCU usage\\.?)$", 1, 0, 0, 0, 0 },
	{ KEV_LOCKDEP, "^\\[ BUG: (.*) \\]$", 1, 0, 0, 0, 0 },
	/* 7.x: "WARNING: kernel/freezer.c:139 at __set_task_frozen+0x8b/0x90, CPU#0: sh/1" */
	{ KEV_WARNING, "^WARNING: ([^ ]+):([0-9]+) at ([^ ,]+), CPU#([0-9]+)", 3, 1, 2, 4, 0 },
	/* before 7.x: "WARNING: CPU: 0 PID: 1 at kernel/freezer.c:139 __set_task_frozen+0x..." */
	{ KEV_WARNING, "^WARNING: CPU: ([0-9]+) PID: [0-9]+ at ([^ ]+):([0-9]+) ([^ ]+)",
	  4, 2, 3, 1, 0 },
	{ KEV_WARNING, "^WARNING: at ([^ ,]+), CPU#([0-9]+)", 1, 0, 0, 2, 0 },
	{ KEV_WARNING, "^WARNING: CPU: ([0-9]+) PID: [0-9]+ at ([^ ]+)", 2, 0, 0, 1, 0 },
	{ KEV_BUG, "^kernel BUG at ([^ ]+):([0-9]+)!", 0, 1, 2, 0, 0 },
	{ KEV_SOFT_LOCKUP,
	  "^(watchdog: )?BUG: soft lockup - CPU#([0-9]+) stuck for ([0-9]+)s! \\[(.+):[0-9]+\\]",
	  4, 0, 0, 2, 3 },
	{ KEV_BUG, "^BUG: (.*)$", 1, 0, 0, 0, 0 },
	{ KEV_HARD_LOCKUP, "Watchdog detected hard LOCKUP on cpu ([0-9]+)", 0, 0, 0, 1, 0 },
	{ KEV_GPF, "^(Oops: )?(general protection fault.*)$", 2, 0, 0, 0, 0 },
	{ KEV_OOPS, "^(Oops|Internal error: Oops): (.*)$", 2, 0, 0, 0, 0 },
	{ KEV_HUNG_TASK,
	  "^INFO: task (.+):([0-9]+) blocked( in I/O wait)? for more than ([0-9]+) seconds",
	  1, 0, 0, 2, 4 },
	{ KEV_PANIC, "^Kernel panic - not syncing: (.*)$", 1, 0, 0, 0, 0 },
	/* kernel/irq/spurious.c, kernel/rcu/tree_stall.h */
	{ KEV_IRQ_NOBODY_CARED, "^irq ([0-9]+): nobody cared", 0, 0, 0, 1, 0 },
	{ KEV_IRQ_DISABLED, "^Disabling IRQ #([0-9]+)", 0, 0, 0, 1, 0 },
	{ KEV_RCU_STALL,
	  "^(rcu: )?INFO: ([a-z_]+) (self-detected stall|detected (expedited )?stalls?)", 2, 0, 0, 0, 0 },
	{ KEV_PM_TRACE_MAGIC, "^PM: +Magic number: ([0-9]+:[0-9]+:[0-9]+)", 1, 0, 0, 0, 0 },
	{ KEV_PM_TRACE_HASH, "^PM: +hash matches ([^ ]+):([0-9]+)", 0, 1, 2, 0, 0 },
	{ KEV_PM_TRACE_HASH, "^(.+): hash matches$", 1, 0, 0, 0, 0 },
	{ KEV_SPLAT_BANNER, "^={20,}$", 0, 0, 0, 0, 0 },
	/* ftrace_dump() (SysRq-z) prints the latency format, "rig-dut-280  1..... 2722389us :
	 * freeze_super: (freeze_super+0x4/0x360) who=9 dev=\"loop0\""; the trace file's own format
	 * has "[001] ..... 12.345678: " instead. */
	{ KEV_RIG_TRACE, "^ *[^ ].*-[0-9]+ +[0-9][^ ]* +([0-9]+)us : " RIG_TRACE_EVENTS ": ",
	  2, 0, 0, 1, 0 },
	{ KEV_RIG_TRACE,
	  "^ *[^ ].*-[0-9]+ +\\[[0-9]+\\] +[^ ]+ +([0-9]+\\.[0-9]+): " RIG_TRACE_EVENTS ": ",
	  2, 0, 0, 0, 1 },
};

static const struct event_rule agent_rules[] = {
	{ KEV_AGENT_READY, " agent ready", 0, 0, 0, 0, 0 },
	{ KEV_AGENT_BEGIN, " ([0-9]+) begin$", 0, 0, 0, 1, 0 },
	{ KEV_AGENT_END, " ([0-9]+) end rc=([0-9]+)", 0, 0, 0, 1, 2 },
};

#define N_KERNEL (sizeof(kernel_rules) / sizeof(kernel_rules[0]))
#define N_AGENT (sizeof(agent_rules) / sizeof(agent_rules[0]))
#define MAX_GROUPS 8

struct kevent_parser {
	char *marker;
	regex_t kernel[N_KERNEL];
	regex_t agent[N_AGENT];
	size_t n_kernel, n_agent;   /* compiled so far, for cleanup */
	bool after_freeze_failure;
};

static const char *const kind_names[KEV_COUNT] = {
	[KEV_NONE] = "none", [KEV_KERNEL_BOOT] = "kernel-boot",
	[KEV_SUSPEND_ENTRY] = "suspend-entry", [KEV_SUSPEND_EXIT] = "suspend-exit",
	[KEV_SLEEP_FAILED] = "sleep-failed", [KEV_DEVICE_PM_FAILED] = "device-pm-failed",
	[KEV_HIBERNATE_ENTRY] = "hibernate-entry", [KEV_HIBERNATE_EXIT] = "hibernate-exit",
	[KEV_HIBERNATE_RESUME] = "hibernate-resume",
	[KEV_HIBERNATE_RESUME_FAILED] = "hibernate-resume-failed",
	[KEV_IMAGE_SAVE_PROGRESS] = "image-save-progress", [KEV_IMAGE_SAVED] = "image-saved",
	[KEV_IMAGE_SAVE_FAILED] = "image-save-failed",
	[KEV_IMAGE_LOAD_PROGRESS] = "image-load-progress", [KEV_IMAGE_LOADED] = "image-loaded",
	[KEV_IMAGE_LOAD_FAILED] = "image-load-failed", [KEV_IMAGE_RESTORED] = "image-restored",
	[KEV_FS_SYNC] = "fs-sync", [KEV_FS_SYNC_BEGIN] = "fs-sync-begin",
	[KEV_S2IDLE_ENTER] = "s2idle-enter", [KEV_S2IDLE_EXIT] = "s2idle-exit",
	[KEV_FREEZE_USER_BEGIN] = "freeze-user-begin",
	[KEV_FREEZE_USER_DONE] = "freeze-user-done",
	[KEV_FREEZE_REMAINING_BEGIN] = "freeze-remaining-begin",
	[KEV_FREEZE_REMAINING_DONE] = "freeze-remaining-done",
	[KEV_FREEZE_FAILED] = "freeze-failed", [KEV_FREEZE_STUCK_TASK] = "freeze-stuck-task",
	[KEV_TASK_DUMP] = "task-dump", [KEV_ACPI_SLEEP] = "acpi-sleep",
	[KEV_ACPI_WAKE] = "acpi-wake", [KEV_POWER_DOWN] = "power-down", [KEV_RESTART] = "restart",
	[KEV_RESTART_TASKS_BEGIN] = "restart-tasks-begin",
	[KEV_RESTART_TASKS_DONE] = "restart-tasks-done", [KEV_WARNING] = "warning",
	[KEV_BUG] = "bug", [KEV_GPF] = "gpf", [KEV_OOPS] = "oops", [KEV_LOCKDEP] = "lockdep",
	[KEV_SPLAT_BANNER] = "splat-banner", [KEV_HUNG_TASK] = "hung-task",
	[KEV_PANIC] = "panic", [KEV_SOFT_LOCKUP] = "soft-lockup",
	[KEV_HARD_LOCKUP] = "hard-lockup", [KEV_IRQ_NOBODY_CARED] = "irq-nobody-cared",
	[KEV_IRQ_DISABLED] = "irq-disabled", [KEV_RCU_STALL] = "rcu-stall",
	[KEV_PM_TRACE_MAGIC] = "pm-trace-magic",
	[KEV_PM_TRACE_HASH] = "pm-trace-hash", [KEV_RIG_TRACE] = "rig-trace",
	[KEV_AGENT_READY] = "agent-ready",
	[KEV_AGENT_BEGIN] = "agent-begin", [KEV_AGENT_END] = "agent-end",
};

const char *kevent_kind_name(enum kevent_kind kind)
{
	if ((unsigned)kind >= KEV_COUNT || !kind_names[kind])
		return "unknown";
	return kind_names[kind];
}

bool kevent_is_failure(enum kevent_kind kind)
{
	switch (kind) {
	case KEV_SLEEP_FAILED: case KEV_DEVICE_PM_FAILED: case KEV_HIBERNATE_RESUME_FAILED:
	case KEV_IMAGE_SAVE_FAILED: case KEV_IMAGE_LOAD_FAILED: case KEV_FREEZE_FAILED:
	case KEV_FREEZE_STUCK_TASK: case KEV_WARNING: case KEV_BUG: case KEV_GPF:
	case KEV_OOPS: case KEV_LOCKDEP: case KEV_HUNG_TASK: case KEV_PANIC:
	case KEV_SOFT_LOCKUP: case KEV_HARD_LOCKUP:
		return true;
	default:
		return false;
	}
}

static int compile_rule(regex_t *re, const char *prefix, const char *regex,
			struct rig_err *err)
{
	char buf[512];
	int rc;

	snprintf(buf, sizeof(buf), "%s%s", prefix, regex);
	rc = regcomp(re, buf, REG_EXTENDED);
	if (rc != 0) {
		char msg[128];

		regerror(rc, re, msg, sizeof(msg));
		return rig_err_set(err, RIG_EXIT_INFRA, "event rule /%s/: %s", buf, msg);
	}
	return 0;
}

/* ERE-quoted "^<marker>" so agent rules match only at the marker. */
static void marker_prefix(const char *marker, char *out, size_t size)
{
	size_t o = 0;

	out[o++] = '^';
	for (const char *m = marker; *m && o + 3 < size; m++) {
		if (strchr("\\^$.|?*+()[]{}", *m))
			out[o++] = '\\';
		out[o++] = *m;
	}
	out[o] = '\0';
}

static int compile_all(struct kevent_parser *p, struct rig_err *err)
{
	char prefix[128];

	for (; p->n_kernel < N_KERNEL; p->n_kernel++)
		if (compile_rule(&p->kernel[p->n_kernel], "", kernel_rules[p->n_kernel].regex,
				 err) < 0)
			return -1;
	marker_prefix(p->marker, prefix, sizeof(prefix));
	for (; p->n_agent < N_AGENT; p->n_agent++)
		if (compile_rule(&p->agent[p->n_agent], prefix, agent_rules[p->n_agent].regex,
				 err) < 0)
			return -1;
	return 0;
}

int kevent_parser_new(const char *agent_marker, struct kevent_parser **out,
		      struct rig_err *err)
{
	struct kevent_parser *p = calloc(1, sizeof(*p));

	if (!p || !(p->marker = strdup(agent_marker ? agent_marker : "@@RIG@@"))) {
		free(p);
		return rig_err_set(err, RIG_EXIT_INFRA, "event parser: out of memory");
	}
	if (compile_all(p, err) < 0) {
		kevent_parser_free(p);
		return -1;
	}
	*out = p;
	return 0;
}

void kevent_parser_free(struct kevent_parser *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n_kernel; i++)
		regfree(&p->kernel[i]);
	for (size_t i = 0; i < p->n_agent; i++)
		regfree(&p->agent[i]);
	free(p->marker);
	free(p);
}

static void copy_group(const char *s, const regmatch_t *m, int group, char *out, size_t size)
{
	size_t len;

	if (group <= 0 || m[group].rm_so < 0)
		return;
	len = (size_t)(m[group].rm_eo - m[group].rm_so);
	if (len >= size)
		len = size - 1;
	memcpy(out, s + m[group].rm_so, len);
	out[len] = '\0';
}

static void fill_fields(const struct event_rule *rule, const char *msg, const regmatch_t *m,
			struct kevent *ev)
{
	char num[32] = "";
	long long n = 0;

	ev->kind = rule->kind;
	copy_group(msg, m, rule->arg, ev->arg, sizeof(ev->arg));
	copy_group(msg, m, rule->file, ev->file, sizeof(ev->file));
	/* a field the line does not have, or one out of range, reads as 0 */
	copy_group(msg, m, rule->line, num, sizeof(num));
	if (parse_uint(num, 0, UINT_MAX, &ev->line) < 0)
		ev->line = 0;
	num[0] = '\0';
	copy_group(msg, m, rule->num, num, sizeof(num));
	ev->num = parse_number(num, LONG_MIN, LONG_MAX, &n) < 0 ? 0 : (long)n;
	num[0] = '\0';
	copy_group(msg, m, rule->value, num, sizeof(num));
	if (parse_real(num, -DBL_MAX, DBL_MAX, &ev->value) < 0)
		ev->value = 0;
}

static bool match_rules(const struct event_rule *rules, const regex_t *res, size_t n,
			const char *msg, struct kevent *ev)
{
	regmatch_t m[MAX_GROUPS];

	for (size_t i = 0; i < n; i++) {
		if (regexec(&res[i], msg, MAX_GROUPS, m, 0) == 0) {
			fill_fields(&rules[i], msg, m, ev);
			return true;
		}
	}
	return false;
}

/* A task dump right after a freeze failure names a task that refused to freeze; any other
 * event ends that context. */
static void apply_context(struct kevent_parser *p, struct kevent *ev)
{
	if (ev->kind == KEV_TASK_DUMP && p->after_freeze_failure)
		ev->kind = KEV_FREEZE_STUCK_TASK;
	else if (ev->kind != KEV_TASK_DUMP)
		p->after_freeze_failure = ev->kind == KEV_FREEZE_FAILED;
}

int kevent_parse(struct kevent_parser *p, const char *line, struct kevent *ev)
{
	struct kstamp ks;
	bool found;

	memset(ev, 0, sizeof(*ev));
	if (kstamp_parse(line, &ks)) {
		ev->has_ktime = true;
		ev->ktime = ks.secs;
		line += ks.len;
	}
	ev->message = line;
	/* Agent lines carry command output (dmesg, say) that must not pass for the kernel's. */
	if (!ev->has_ktime && strncmp(line, p->marker, strlen(p->marker)) == 0)
		found = match_rules(agent_rules, p->agent, N_AGENT, line, ev);
	else
		found = match_rules(kernel_rules, p->kernel, N_KERNEL, line, ev);
	if (!found) {
		ev->kind = KEV_NONE;
		return 0;
	}
	apply_context(p, ev);
	return 1;
}
