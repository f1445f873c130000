/* Boot health (judge/boot_health.h) over console logs of the QEMU board's boot
 * (rig/tests/data/console/boot-*.log): boot-clean.log is a real boot of the default board up to
 * its agent (the first boot of qemu-deep-reboot.log); boot-int3-oops.log is a real boot of the
 * board under multi-threaded TCG (tcg_thread: multi, 1 of 11 boots) that hit the text-patching
 * race; the others are the clean boot with the lines issue 13 quotes from failed runs spliced in
 * where the kernel printed them (a lost NVMe interrupt line without CONFIG_PCI_MSI, a soft lockup
 * with an RCU stall on a starved host). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/boot_health.h"
#include "replay_events.h"

static void test_clean_boot_is_healthy(void **state)
{
	struct replayed r = { 0 };
	struct boot_health h;
	char buf[256];

	(void)state;
	replay(&r, "boot-clean.log");
	assert_true(r.n > 0);
	assert_true(judge_boot_health(r.ev, r.n, &h));
	assert_int_equal(h.n_bad, 0);
	boot_health_describe(&h, buf, sizeof(buf));
	assert_string_equal(buf, "boot unhealthy (0 console lines):");
	release(&r);
}

/* The log's boot is unhealthy through exactly these two lines, first to last. */
static void assert_unhealthy(const char *log, const char *first, const char *second)
{
	struct replayed r = { 0 };
	struct boot_health h;

	replay(&r, log);
	assert_false(judge_boot_health(r.ev, r.n, &h));
	assert_int_equal(h.n_bad, 2);
	assert_string_equal(h.lines[0], first);
	assert_string_equal(h.lines[1], second);
	release(&r);
}

static void test_lost_interrupt_line_is_unhealthy(void **state)
{
	struct boot_health h = { .n_bad = 2 };
	char buf[512];

	(void)state;
	assert_unhealthy("boot-irq-nobody-cared.log",
			 "irq 10: nobody cared (try booting with the \"irqpoll\" option)",
			 "Disabling IRQ #10");
	h.lines[0] = "irq 10: nobody cared (try booting with the \"irqpoll\" option)";
	h.lines[1] = "Disabling IRQ #10";
	boot_health_describe(&h, buf, sizeof(buf));
	assert_string_equal(buf, "boot unhealthy (2 console lines): irq 10: nobody cared (try booting "
			    "with the \"irqpoll\" option) | Disabling IRQ #10");
}

static void test_soft_lockup_and_rcu_stall_are_unhealthy(void **state)
{
	(void)state;
	assert_unhealthy("boot-soft-lockup.log",
			 "watchdog: BUG: soft lockup - CPU#0 stuck for 31s! [swapper/0:0]",
			 "rcu: INFO: rcu_preempt self-detected stall on CPU");
}

static void test_oops_and_panic_are_unhealthy(void **state)
{
	(void)state;
	assert_unhealthy("boot-int3-oops.log", "Oops: int3: 0000 [#1] SMP",
			 "Kernel panic - not syncing: Fatal exception in interrupt");
}

/* Only the last boot counts: a power cycle after an unhealthy boot starts afresh... */
static void test_only_the_last_boot_counts(void **state)
{
	struct replayed r = { 0 };
	struct boot_health h;

	(void)state;
	replay(&r, "boot-irq-nobody-cared.log");
	replay(&r, "boot-clean.log");
	assert_true(judge_boot_health(r.ev, r.n, &h));
	release(&r);
	/* ...and a clean boot does not hide the unhealthy one after it. */
	memset(&r, 0, sizeof(r));
	replay(&r, "boot-clean.log");
	replay(&r, "boot-soft-lockup.log");
	assert_false(judge_boot_health(r.ev, r.n, &h));
	assert_int_equal(h.n_bad, 2);
	release(&r);
}

/* More lines than the description holds: the count stays true and the text says it is cut. */
static void test_many_lines_are_counted_and_cut(void **state)
{
	struct judge_event ev[BOOT_HEALTH_MAX_LINES + 2];
	struct boot_health h;
	char buf[2048];

	(void)state;
	memset(ev, 0, sizeof(ev));
	for (size_t i = 0; i < sizeof(ev) / sizeof(ev[0]); i++) {
		ev[i].ev.kind = KEV_RCU_STALL;
		ev[i].text = "rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:";
	}
	assert_false(judge_boot_health(ev, sizeof(ev) / sizeof(ev[0]), &h));
	assert_int_equal(h.n_bad, BOOT_HEALTH_MAX_LINES + 2);
	boot_health_describe(&h, buf, sizeof(buf));
	assert_non_null(strstr(buf, "(8 console lines)"));
	assert_non_null(strstr(buf, "| ..."));
	/* a buffer too small is cut, never overrun */
	boot_health_describe(&h, buf, 40);
	assert_int_equal(strlen(buf), 39);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean_boot_is_healthy),
		cmocka_unit_test(test_lost_interrupt_line_is_unhealthy),
		cmocka_unit_test(test_soft_lockup_and_rcu_stall_are_unhealthy),
		cmocka_unit_test(test_oops_and_panic_are_unhealthy),
		cmocka_unit_test(test_only_the_last_boot_counts),
		cmocka_unit_test(test_many_lines_are_counted_and_cut),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
