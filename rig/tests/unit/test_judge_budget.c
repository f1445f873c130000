/* A cycle's time budget (judge/budget.h) from recorded console logs of the QEMU board
 * (rig/tests/data/console/): qemu-s2idle.log and qemu-deep-reboot.log are real recordings (an
 * s2idle suspend before rig-dut turned pm_debug_messages on; a power cut in deep sleep and the
 * reboot), suspend-deep.log and hibernate.log the project's deep-suspend and hibernation
 * fixtures. Every phase the log cannot show is unknown, never 0. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/budget.h"
#include "replay_events.h"

#define NO_PRESYNC (-1L)
#define NO_COLLECT (-1.0)

static void budget_of(const struct replayed *r, long presync_ms, const struct frozen_window *w,
		      double collect_s, struct budget *b)
{
	struct budget_state st;

	budget_init(&st);
	budget_feed(&st, r->ev, r->n);
	budget_finish(&st, presync_ms, w, collect_s, b);
}

static void assert_phase(const struct budget *b, enum budget_phase p, double want)
{
	if (!b->known[p])
		fail_msg("%s unknown, wanted %.6f s", budget_phase_name(p), want);
	if (fabs(b->seconds[p] - want) > 1e-6)
		fail_msg("%s %.6f s, wanted %.6f s", budget_phase_name(p), b->seconds[p], want);
}

static void assert_unknown(const struct budget *b, enum budget_phase p)
{
	if (b->known[p])
		fail_msg("%s is %.6f s, wanted unknown", budget_phase_name(p), b->seconds[p]);
}

/* Insert one console line (as the console would have parsed it) before event index at. */
static void splice(struct replayed *r, size_t at, const char *line, double host)
{
	struct kevent_parser *p;
	struct judge_event e = { .host_ts = host };
	struct rig_err err = { 0 };

	assert_int_equal(kevent_parser_new("@@RIG@@", &p, &err), 0);
	assert_int_equal(kevent_parse(p, line, &e.ev), 1);
	e.text = strdup(e.ev.message ? e.ev.message : line);
	e.ev.message = NULL;
	kevent_parser_free(p);
	assert_true(r->n + 1 < REPLAY_MAX_EVENTS && at <= r->n);
	memmove(&r->ev[at + 1], &r->ev[at], (r->n - at) * sizeof(r->ev[0]));
	r->ev[at] = e;
	r->n++;
}

static size_t find(const struct replayed *r, enum kevent_kind kind)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->ev[i].ev.kind == kind)
			return i;
	fail_msg("no %s event", kevent_kind_name(kind));
	return 0;
}

/* Deep: the kernel's clock stops in S3, so asleep is the host time it did not count. */
static void test_deep_suspend(void **state)
{
	struct replayed r = { 0 };
	struct budget b;

	(void)state;
	replay(&r, "suspend-deep.log");
	budget_of(&r, 1234, NULL, 0.5, &b);
	assert_phase(&b, BUDGET_PRESYNC, 1.234);
	assert_phase(&b, BUDGET_KERNEL_SYNC, 0.013);
	assert_phase(&b, BUDGET_FREEZE_TASKS, 0.002);
	assert_unknown(&b, BUDGET_FREEZE_FS);                /* not traced */
	assert_phase(&b, BUDGET_DEVICE_SUSPEND, 41.569220 - 41.562110);
	assert_phase(&b, BUDGET_ASLEEP, (1764768005.431500 - 1764768000.240001) -
					(41.619874 - 41.569220));
	assert_phase(&b, BUDGET_RESUME, 41.708470 - 41.569220);
	assert_phase(&b, BUDGET_THAW, 41.718902 - 41.708470);
	assert_phase(&b, BUDGET_COLLECT, 0.5);
	assert_unknown(&b, BUDGET_REBOOT);                   /* no boot in the cycle */
	release(&r);
}

/* Negative control: without the wake line the sleep and the resume are unknown, not 0, and what
 * the log still shows is unchanged. */
static void test_deep_without_wake_line(void **state)
{
	struct replayed r = { 0 };
	struct budget b;
	size_t wake;

	(void)state;
	replay(&r, "suspend-deep.log");
	wake = find(&r, KEV_ACPI_WAKE);
	free(r.ev[wake].text);
	memmove(&r.ev[wake], &r.ev[wake + 1], (r.n - wake - 1) * sizeof(r.ev[0]));
	r.n--;
	budget_of(&r, NO_PRESYNC, NULL, NO_COLLECT, &b);
	assert_unknown(&b, BUDGET_ASLEEP);
	assert_unknown(&b, BUDGET_RESUME);
	assert_unknown(&b, BUDGET_PRESYNC);
	assert_unknown(&b, BUDGET_COLLECT);
	assert_phase(&b, BUDGET_DEVICE_SUSPEND, 41.569220 - 41.562110);
	assert_phase(&b, BUDGET_THAW, 41.718902 - 41.708470);
	release(&r);
}

/* A real s2idle cycle recorded before rig-dut turned pm_debug_messages on: nothing marks the
 * sleep, so device suspend, asleep and resume are unknown; the boot before it is its reboot. */
static void test_s2idle_without_debug_lines(void **state)
{
	struct replayed r = { 0 };
	struct budget b;

	(void)state;
	replay(&r, "qemu-s2idle.log");
	budget_of(&r, NO_PRESYNC, NULL, NO_COLLECT, &b);
	assert_phase(&b, BUDGET_KERNEL_SYNC, 0.007);
	assert_phase(&b, BUDGET_FREEZE_TASKS, 0.004);
	assert_unknown(&b, BUDGET_DEVICE_SUSPEND);
	assert_unknown(&b, BUDGET_ASLEEP);
	assert_unknown(&b, BUDGET_RESUME);
	assert_phase(&b, BUDGET_THAW, 9.041116 - 9.038770);
	assert_phase(&b, BUDGET_REBOOT, 1796305506.041743 - 1796305502.674567);
	release(&r);
}

/* The same cycle with the two KERN_DEBUG lines pm_debug_messages adds spliced in where the
 * kernel prints them (s2idle_loop()): the kernel's clock runs through s2idle, so asleep is the
 * host time between them. */
static void test_s2idle_with_debug_lines(void **state)
{
	struct replayed r = { 0 };
	struct frozen_window w = { .seen = true, .freeze_done = true, .freeze_ns = 3820000000u,
				   .freeze_done_ns = 3826500000u };
	struct budget b;
	size_t at;

	(void)state;
	replay(&r, "qemu-s2idle.log");
	at = find(&r, KEV_FREEZE_REMAINING_DONE) + 1;
	splice(&r, at, "[    3.845000] PM: suspend-to-idle", 1796305506.480000);
	at = find(&r, KEV_RESTART_TASKS_BEGIN);
	splice(&r, at, "[    9.030000] PM: resume from suspend-to-idle", 1796305511.662000);
	budget_of(&r, 0, &w, NO_COLLECT, &b);
	assert_phase(&b, BUDGET_PRESYNC, 0.0);               /* measured as 0 ms: known */
	assert_phase(&b, BUDGET_FREEZE_FS, 0.0065);
	assert_phase(&b, BUDGET_DEVICE_SUSPEND, 3.845 - 3.841403);
	assert_phase(&b, BUDGET_ASLEEP, 1796305511.662 - 1796305506.480);
	assert_phase(&b, BUDGET_RESUME, 9.038770 - 9.030);
	/* a freeze of filesystems that never finished has no time */
	w.freeze_done = false;
	budget_of(&r, 0, &w, NO_COLLECT, &b);
	assert_unknown(&b, BUDGET_FREEZE_FS);
	release(&r);
}

/* A power cut in deep sleep: no wake, no thaw; the reboot is the second boot to its agent. */
static void test_power_cut_and_reboot(void **state)
{
	struct replayed r = { 0 };
	struct budget b;

	(void)state;
	replay(&r, "qemu-deep-reboot.log");
	budget_of(&r, NO_PRESYNC, NULL, 2.0, &b);
	assert_phase(&b, BUDGET_KERNEL_SYNC, 0.009);
	assert_phase(&b, BUDGET_FREEZE_TASKS, 0.004);
	assert_phase(&b, BUDGET_DEVICE_SUSPEND, 5.698948 - 5.601543);
	assert_unknown(&b, BUDGET_ASLEEP);
	assert_unknown(&b, BUDGET_RESUME);
	assert_unknown(&b, BUDGET_THAW);
	assert_phase(&b, BUDGET_REBOOT, 1796305264.186062 - 1796305259.483245);
	release(&r);
}

/* Hibernation: the boot kernel's own freezer is not the sleeping kernel's; the reboot runs until
 * the restored image's tasks restart; S4 is no suspend's sleep. */
static void test_hibernate(void **state)
{
	struct replayed r = { 0 };
	struct budget b;

	(void)state;
	replay(&r, "hibernate.log");
	budget_of(&r, NO_PRESYNC, NULL, NO_COLLECT, &b);
	assert_phase(&b, BUDGET_KERNEL_SYNC, 0.017);
	assert_phase(&b, BUDGET_FREEZE_TASKS, 0.003);
	assert_unknown(&b, BUDGET_DEVICE_SUSPEND);
	assert_unknown(&b, BUDGET_ASLEEP);
	assert_phase(&b, BUDGET_THAW, 63.490055 - 63.480140);
	assert_phase(&b, BUDGET_REBOOT, 1764770012.600100 - 1764770009.900000);
	release(&r);
}

/* Older kernels print "PM: Syncing filesystems ... done." without a time: the sync is the
 * printk time to the freezer's first line. Nothing fed: everything unknown. */
static void test_old_sync_line_and_nothing(void **state)
{
	struct replayed r = { 0 };
	struct budget b;

	(void)state;
	budget_of(&r, NO_PRESYNC, NULL, NO_COLLECT, &b);
	for (int p = 0; p < BUDGET_N; p++)
		assert_unknown(&b, (enum budget_phase)p);
	splice(&r, 0, "[   10.000000] PM: suspend entry (deep)", 100.0);
	splice(&r, 1, "[   10.100000] PM: Syncing filesystems ... done.", 100.1);
	splice(&r, 2, "[   10.350000] Freezing user space processes", 100.35);
	budget_of(&r, NO_PRESYNC, NULL, NO_COLLECT, &b);
	assert_phase(&b, BUDGET_KERNEL_SYNC, 0.25);
	assert_string_equal(budget_phase_name(BUDGET_REBOOT), "reboot");
	assert_null(budget_phase_name(BUDGET_N));
	release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deep_suspend),
		cmocka_unit_test(test_deep_without_wake_line),
		cmocka_unit_test(test_s2idle_without_debug_lines),
		cmocka_unit_test(test_s2idle_with_debug_lines),
		cmocka_unit_test(test_power_cut_and_reboot),
		cmocka_unit_test(test_hibernate),
		cmocka_unit_test(test_old_sync_line_and_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
