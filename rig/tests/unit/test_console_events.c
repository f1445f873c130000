/* The kernel event parser over recorded console logs (rig/tests/data/console/). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console/agent_reply.h"
#include "console/events.h"
#include "console/replay.h"

#define MAX_EVENTS 128

struct replayed {
	struct kevent_parser *parser;
	struct kevent events[MAX_EVENTS];
	size_t n;
	unsigned count[KEV_COUNT];
	unsigned lines;
	struct agent_reply *reply;    /* optional: also parse one agent reply */
};

static int on_line(void *ctx, const char *line, const struct timespec *host_time)
{
	struct replayed *r = ctx;
	struct kevent ev;

	r->lines++;
	if (r->reply)
		assert_true(agent_reply_feed(r->reply, "@@RIG@@", line, NULL) >= 0);
	if (kevent_parse(r->parser, line, &ev) == 0)
		return 0;
	assert_true(r->n < MAX_EVENTS);
	ev.host_time = *host_time;
	ev.message = NULL;     /* only valid during the call */
	r->events[r->n++] = ev;
	r->count[ev.kind]++;
	return 0;
}

static void replay(const char *name, struct replayed *r, struct agent_reply *reply)
{
	const char *top = getenv("RIG_TOP");
	char path[1024];
	struct rig_err err = { 0 };

	memset(r, 0, sizeof(*r));
	r->reply = reply;
	snprintf(path, sizeof(path), "%s/rig/tests/data/console/%s", top ? top : ".", name);
	assert_int_equal(kevent_parser_new("@@RIG@@", &r->parser, &err), 0);
	if (console_replay_file(path, "@@RIG@@", on_line, r, &err) != 0)
		fail_msg("%s", err.msg);
	kevent_parser_free(r->parser);
	r->parser = NULL;
}

static const struct kevent *nth(const struct replayed *r, enum kevent_kind kind, unsigned n)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->events[i].kind == kind && n-- == 0)
			return &r->events[i];
	fail_msg("no %s event #%u", kevent_kind_name(kind), n);
	return NULL;
}

static unsigned failures(const struct replayed *r)
{
	unsigned n = 0;

	for (size_t i = 0; i < r->n; i++)
		n += kevent_is_failure(r->events[i].kind);
	return n;
}

static void test_suspend_cycle(void **state)
{
	struct replayed r;
	const struct kevent *ev;

	(void)state;
	replay("suspend-deep.log", &r, NULL);
	assert_int_equal(r.count[KEV_SUSPEND_ENTRY], 1);
	assert_int_equal(r.count[KEV_SUSPEND_EXIT], 1);
	assert_int_equal(r.count[KEV_FS_SYNC], 1);
	assert_int_equal(r.count[KEV_FREEZE_USER_BEGIN], 1);
	assert_int_equal(r.count[KEV_FREEZE_USER_DONE], 1);
	assert_int_equal(r.count[KEV_FREEZE_REMAINING_BEGIN], 1);
	assert_int_equal(r.count[KEV_FREEZE_REMAINING_DONE], 1);
	assert_int_equal(r.count[KEV_ACPI_SLEEP], 1);
	assert_int_equal(r.count[KEV_ACPI_WAKE], 1);
	assert_int_equal(r.count[KEV_RESTART_TASKS_BEGIN], 1);
	assert_int_equal(r.count[KEV_RESTART_TASKS_DONE], 1);
	assert_int_equal(r.count[KEV_AGENT_READY], 1);
	assert_int_equal(r.count[KEV_AGENT_BEGIN], 3);
	assert_int_equal(r.count[KEV_AGENT_END], 3);
	assert_int_equal(failures(&r), 0);
	ev = nth(&r, KEV_SUSPEND_ENTRY, 0);
	assert_string_equal(ev->arg, "deep");
	assert_true(ev->has_ktime);
	assert_true(ev->ktime > 41.530124 && ev->ktime < 41.530126);
	assert_int_equal(ev->host_time.tv_sec, 1764768000);
	assert_int_equal(ev->host_time.tv_nsec, 201004000);
	assert_int_equal(nth(&r, KEV_ACPI_SLEEP, 0)->num, 3);
	assert_true(nth(&r, KEV_FS_SYNC, 0)->value > 0.012 && nth(&r, KEV_FS_SYNC, 0)->value < 0.014);
	assert_int_equal(nth(&r, KEV_AGENT_END, 2)->num, 6);
}

static void test_injected_record_heals_reply(void **state)
{
	struct replayed r;
	struct agent_reply reply;

	(void)state;
	/* Request 6's second line had a kernel record in its middle. */
	agent_reply_init(&reply, 6);
	replay("suspend-deep.log", &r, &reply);
	assert_int_equal(reply.status, AGENT_OK);
	assert_int_equal(reply.n_lines, 2);
	assert_string_equal(reply.lines[1], "/dev/nvme0n1p2 /mnt/nvme-btrfs btrfs rw,relatime 0 0");
	agent_reply_free(&reply);
}

static void test_dmesg_payload_is_not_an_event(void **state)
{
	struct replayed r;
	struct agent_reply reply;

	(void)state;
	/* Request 5 ran dmesg: its output looks like kernel records and must stay a payload. */
	agent_reply_init(&reply, 5);
	replay("suspend-deep.log", &r, &reply);
	assert_int_equal(reply.status, AGENT_OK);
	assert_string_equal(reply.lines[1], "[   41.718902] PM: suspend exit");
	assert_int_equal(r.count[KEV_SUSPEND_EXIT], 1);
	agent_reply_free(&reply);
}

static void test_hibernate_cycle(void **state)
{
	struct replayed r;

	(void)state;
	replay("hibernate.log", &r, NULL);
	assert_int_equal(r.count[KEV_HIBERNATE_ENTRY], 1);
	assert_int_equal(r.count[KEV_HIBERNATE_EXIT], 1);
	assert_int_equal(r.count[KEV_HIBERNATE_RESUME], 1);
	assert_int_equal(r.count[KEV_IMAGE_SAVE_PROGRESS], 11);
	assert_int_equal(r.count[KEV_IMAGE_SAVED], 1);
	assert_int_equal(r.count[KEV_IMAGE_LOAD_PROGRESS], 11);
	assert_int_equal(r.count[KEV_IMAGE_LOADED], 1);
	assert_int_equal(r.count[KEV_KERNEL_BOOT], 1);
	assert_int_equal(r.count[KEV_ACPI_SLEEP], 2);
	assert_int_equal(r.count[KEV_ACPI_WAKE], 1);
	assert_int_equal(r.count[KEV_FREEZE_USER_DONE], 2);
	assert_int_equal(failures(&r), 0);
	assert_int_equal(nth(&r, KEV_IMAGE_SAVE_PROGRESS, 10)->num, 100);
	assert_int_equal(nth(&r, KEV_ACPI_SLEEP, 0)->num, 4);
	assert_string_equal(nth(&r, KEV_KERNEL_BOOT, 0)->arg, "7.3.4-rig");
}

static void test_freeze_failure(void **state)
{
	struct replayed r;
	const struct kevent *ev;

	(void)state;
	replay("freeze-failure.log", &r, NULL);
	assert_int_equal(r.count[KEV_FREEZE_FAILED], 1);
	ev = nth(&r, KEV_FREEZE_FAILED, 0);
	assert_string_equal(ev->arg, "user space processes");
	assert_int_equal(ev->num, 2);
	assert_true(ev->value > 20.0 && ev->value < 20.01);
	assert_int_equal(r.count[KEV_FREEZE_STUCK_TASK], 2);
	assert_string_equal(nth(&r, KEV_FREEZE_STUCK_TASK, 0)->arg, "fio");
	assert_string_equal(nth(&r, KEV_FREEZE_STUCK_TASK, 1)->arg, "kworker/u8:3");
	assert_int_equal(r.count[KEV_WARNING], 1);
	ev = nth(&r, KEV_WARNING, 0);
	assert_string_equal(ev->file, "kernel/freezer.c");
	assert_int_equal(ev->line, 139);
	assert_string_equal(ev->arg, "__set_task_frozen+0x8b/0x90");
	assert_int_equal(ev->num, 1);
	assert_int_equal(r.count[KEV_SUSPEND_ENTRY], 1);
	assert_string_equal(nth(&r, KEV_SUSPEND_ENTRY, 0)->arg, "s2idle");
	assert_int_equal(r.count[KEV_SUSPEND_EXIT], 1);
	assert_int_equal(r.count[KEV_TASK_DUMP], 0);
}

static void test_splats(void **state)
{
	struct replayed r;
	const struct kevent *ev;

	(void)state;
	replay("splats.log", &r, NULL);
	assert_int_equal(r.count[KEV_SPLAT_BANNER], 1);
	assert_int_equal(r.count[KEV_LOCKDEP], 1);
	assert_string_equal(nth(&r, KEV_LOCKDEP, 0)->arg,
			    "possible circular locking dependency detected");
	ev = nth(&r, KEV_WARNING, 0);             /* the format before 7.x */
	assert_string_equal(ev->file, "kernel/freezer.c");
	assert_int_equal(ev->line, 139);
	assert_int_equal(r.count[KEV_BUG], 2);
	assert_string_equal(nth(&r, KEV_BUG, 0)->arg,
			    "kernel NULL pointer dereference, address: 0000000000000010");
	assert_string_equal(nth(&r, KEV_BUG, 1)->file, "fs/btrfs/extent_io.c");
	assert_int_equal(nth(&r, KEV_BUG, 1)->line, 1234);
	assert_int_equal(r.count[KEV_OOPS], 1);
	assert_int_equal(r.count[KEV_GPF], 1);
	ev = nth(&r, KEV_HUNG_TASK, 0);
	assert_string_equal(ev->arg, "fio");
	assert_int_equal(ev->num, 231);
	assert_true(ev->value > 121 && ev->value < 123);
	assert_int_equal(r.count[KEV_TASK_DUMP], 1);   /* not a freeze failure's stuck task */
	assert_int_equal(r.count[KEV_FREEZE_STUCK_TASK], 0);
	ev = nth(&r, KEV_SOFT_LOCKUP, 0);
	assert_string_equal(ev->arg, "kworker/1:2");
	assert_int_equal(ev->num, 1);
	assert_int_equal(r.count[KEV_PANIC], 1);
	assert_string_equal(nth(&r, KEV_PANIC, 0)->arg, "softlockup: hung tasks");
	assert_string_equal(nth(&r, KEV_PM_TRACE_MAGIC, 0)->arg, "4:911:542");
	assert_int_equal(r.count[KEV_PM_TRACE_HASH], 2);
	assert_string_equal(nth(&r, KEV_PM_TRACE_HASH, 0)->file, "drivers/base/power/main.c");
	assert_string_equal(nth(&r, KEV_PM_TRACE_HASH, 1)->arg, "serial 00:04");
	assert_int_equal(r.count[KEV_KERNEL_BOOT], 1);
}

/* Captured from the QEMU board: s2idle with freeze_filesystems=1, woken by console input. */
static void test_captured_qemu_s2idle(void **state)
{
	struct replayed r;
	struct agent_reply reply;

	(void)state;
	agent_reply_init(&reply, 3);
	replay("qemu-s2idle.log", &r, &reply);
	assert_int_equal(r.count[KEV_KERNEL_BOOT], 1);
	assert_int_equal(r.count[KEV_AGENT_READY], 1);
	assert_int_equal(r.count[KEV_SUSPEND_ENTRY], 1);
	assert_string_equal(nth(&r, KEV_SUSPEND_ENTRY, 0)->arg, "s2idle");
	assert_int_equal(r.count[KEV_SUSPEND_EXIT], 1);
	assert_int_equal(r.count[KEV_FREEZE_REMAINING_DONE], 1);
	assert_int_equal(r.count[KEV_RESTART_TASKS_DONE], 1);
	assert_int_equal(r.count[KEV_ACPI_SLEEP], 0);        /* s2idle does not go through ACPI S3 */
	assert_int_equal(failures(&r), 0);
	assert_true(nth(&r, KEV_SUSPEND_EXIT, 0)->ktime > nth(&r, KEV_SUSPEND_ENTRY, 0)->ktime);
	assert_int_equal(reply.status, AGENT_OK);
	assert_string_equal(reply.lines[0], "woke 0");
	agent_reply_free(&reply);
}

/* Captured from the QEMU board: S3 entered, and the wake-up rebooted the board instead of
 * resuming it. The event stream must show it: a second boot, no suspend exit, no reply. */
static void test_captured_qemu_deep_reboot(void **state)
{
	struct replayed r;
	struct agent_reply reply;

	(void)state;
	agent_reply_init(&reply, 3);
	replay("qemu-deep-reboot.log", &r, &reply);
	assert_int_equal(r.count[KEV_KERNEL_BOOT], 2);
	assert_int_equal(r.count[KEV_AGENT_READY], 2);
	assert_int_equal(r.count[KEV_SUSPEND_ENTRY], 1);
	assert_string_equal(nth(&r, KEV_SUSPEND_ENTRY, 0)->arg, "deep");
	assert_int_equal(r.count[KEV_ACPI_SLEEP], 1);
	assert_int_equal(nth(&r, KEV_ACPI_SLEEP, 0)->num, 3);
	assert_int_equal(r.count[KEV_SUSPEND_EXIT], 0);
	assert_int_equal(reply.status, AGENT_PENDING);
	agent_reply_free(&reply);
}

/* SysRq-w then SysRq-z after a suspend that hung in filesystems_freeze() (QEMU board, fault
 * kernel with rig_fault=forward-freeze-order): the rig's kprobe events from the trace dump. */
static void test_trace_dump_after_hang(void **state)
{
	struct replayed r;
	const struct kevent *ev;

	(void)state;
	replay("freeze-order-hang.log", &r, NULL);
	assert_int_equal(r.count[KEV_RIG_TRACE], 8);
	ev = nth(&r, KEV_RIG_TRACE, 0);
	assert_string_equal(ev->arg, "fs_freeze");
	assert_int_equal(ev->num, 2560166);             /* us since the buffer's start */
	assert_string_equal(nth(&r, KEV_RIG_TRACE, 2)->arg, "freeze_super_ret");
	assert_string_equal(nth(&r, KEV_RIG_TRACE, 7)->arg, "freeze_super");
	assert_int_equal(nth(&r, KEV_RIG_TRACE, 7)->num, 2722389);
	assert_int_equal(r.count[KEV_TASK_DUMP], 1);   /* SysRq-w's rig-dut, not a freeze failure */
	assert_int_equal(failures(&r), 0);
}

static void test_single_lines(void **state)
{
	struct kevent_parser *p;
	struct kevent ev;
	struct rig_err err = { 0 };

	(void)state;
	assert_int_equal(kevent_parser_new(NULL, &p, &err), 0);
	assert_int_equal(kevent_parse(p, "PM: suspend entry (s2idle)", &ev), 1);
	assert_false(ev.has_ktime);                 /* printk.time=0 consoles */
	assert_int_equal(ev.kind, KEV_SUSPEND_ENTRY);
	assert_int_equal(kevent_parse(p, "[    1.000000][    T1] WARNING: at foo+0x1/0x2, CPU#0: sh/1",
				      &ev), 1);
	assert_int_equal(ev.kind, KEV_WARNING);
	assert_string_equal(ev.arg, "foo+0x1/0x2");
	assert_int_equal(kevent_parse(p, "nvme 0000:00:04.0: PM: failed to suspend async: error -16",
				      &ev), 1);
	assert_int_equal(ev.kind, KEV_DEVICE_PM_FAILED);
	assert_string_equal(ev.arg, "nvme 0000:00:04.0");
	assert_int_equal(ev.num, -16);
	assert_int_equal(kevent_parse(p, "@@RIG@@ 3 | PM: suspend exit", &ev), 0);
	assert_int_equal(kevent_parse(p, "[    2.000000] random: crng init done", &ev), 0);
	assert_string_equal(kevent_kind_name(KEV_FREEZE_STUCK_TASK), "freeze-stuck-task");
	/* the trace file's own format (not latency), and a trace event that is not the rig's */
	assert_int_equal(kevent_parse(p, "[ 40.2] <...>-280     [001] d..1.    12.345678: fs_thaw: "
				      "(filesystems_thaw+0x4/0x30)", &ev), 1);
	assert_int_equal(ev.kind, KEV_RIG_TRACE);
	assert_string_equal(ev.arg, "fs_thaw");
	assert_true(ev.value > 12.3456 && ev.value < 12.3457);
	assert_int_equal(kevent_parse(p, "[ 40.2]  sh-280  0..... 2560166us : sched_switch: prev=sh",
				      &ev), 0);
	assert_string_equal(kevent_kind_name(KEV_RIG_TRACE), "rig-trace");
	kevent_parser_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_suspend_cycle),
		cmocka_unit_test(test_injected_record_heals_reply),
		cmocka_unit_test(test_dmesg_payload_is_not_an_event),
		cmocka_unit_test(test_hibernate_cycle),
		cmocka_unit_test(test_freeze_failure),
		cmocka_unit_test(test_splats),
		cmocka_unit_test(test_captured_qemu_s2idle),
		cmocka_unit_test(test_captured_qemu_deep_reboot),
		cmocka_unit_test(test_trace_dump_after_hang),
		cmocka_unit_test(test_single_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
