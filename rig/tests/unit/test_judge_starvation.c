/* Host CPU starvation (judge/host_cpu.h, judge/starvation.h): the /proc parsers on good, cut
 * short and foreign text; the window of two samples; the thresholds; and the reclassification's
 * positive and negative controls: a starved soft lockup or hang is infra, the same failure on a
 * host that was not starved is the kernel's, and a failure starvation cannot explain (lost data,
 * fsck, a WARN) stays the kernel's however starved the host was. The guest lines are the ones the
 * QEMU board printed (rig/tests/data/console/boot-soft-lockup.log, splats.log, issue 13). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "console/events.h"
#include "judge/host_cpu.h"
#include "judge/starvation.h"

#define SOFT_LOCKUP "watchdog: BUG: soft lockup - CPU#0 stuck for 31s! [rcu_preempt:16]"
#define RCU_STALL "rcu: INFO: rcu_preempt self-detected stall on CPU"
#define HUNG_TASK "INFO: task fio:231 blocked for more than 122 seconds."
#define A_WARNING "WARNING: kernel/freezer.c:139 at __set_task_frozen+0x8b/0x90, CPU#0: sh/1"
#define HPET_TIMEOUT "clocksource: Watchdog hpet read timed out"

/* ---- parsers ------------------------------------------------------------------------------ */

static void test_schedstat_parses(void **state)
{
	uint64_t run = 0, wait = 0;

	(void)state;
	assert_int_equal(host_schedstat_parse("41234567890 9876543210 12345\n", &run, &wait), 0);
	assert_true(run == 41234567890ull);
	assert_true(wait == 9876543210ull);
	assert_int_equal(host_schedstat_parse("0 0 0\n", &run, &wait), 0);
	assert_true(run == 0 && wait == 0);
	/* the largest counter the kernel can print */
	assert_int_equal(host_schedstat_parse("18446744073709551615 1 1\n", &run, &wait), 0);
	assert_true(run == UINT64_MAX && wait == 1);
}

static void test_schedstat_refuses_truncated_and_foreign(void **state)
{
	static const char *const bad[] = {
		"",                                  /* the file was empty (the thread just ended) */
		"41234567890 9876543210 12345",      /* cut before its newline */
		"41234567890 98765",                 /* cut inside the second figure */
		"41234567890\n",
		"41234567890 9876543210 12345 7\n",  /* another file's format */
		"41234567890 -5 12345\n",
		"4123456789x 9876543210 12345\n",
		"18446744073709551616 1 1\n",        /* out of range: refused, never wrapped */
		"  \n",
	};
	uint64_t run = 7, wait = 8;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(host_schedstat_parse(bad[i], &run, &wait), -1);
		assert_true(run == 7 && wait == 8);   /* untouched */
	}
}

static void test_psi_parses_some_total(void **state)
{
	uint64_t some = 0;

	(void)state;
	/* this host's own file, as it read during the soak this was written beside */
	assert_int_equal(host_psi_some_parse("some avg10=73.04 avg60=34.96 avg300=11.48 total=43732946\n"
					     "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
					     &some), 0);
	assert_true(some == 43732946ull);
	/* kernels before 5.13 have no "full" line for the CPU */
	assert_int_equal(host_psi_some_parse("some avg10=0.00 avg60=0.00 avg300=0.00 total=17\n",
					     &some), 0);
	assert_true(some == 17);
}

static void test_psi_refuses_truncated_and_missing(void **state)
{
	static const char *const bad[] = {
		"",
		"some avg10=73.04 avg60=34.96 avg300=11.48 total=43732946",    /* no newline: cut */
		"some avg10=73.04 avg60=34.96 avg300=11.48\n",                  /* no total= */
		"some avg10=73.04 avg60=34.96 avg300=11.48 total=\n",
		"some avg10=73.04 avg60=34.96 avg300=11.48 total=12ab\n",
		"full avg10=0.00 avg60=0.00 avg300=0.00 total=99\n",            /* no some line */
		"cpu  2255 34 2290 22625563 6290 127 456\n",                    /* another file */
	};
	uint64_t some = 5;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(host_psi_some_parse(bad[i], &some), -1);
		assert_true(some == 5);
	}
}

/* ---- the window ------------------------------------------------------------------------- */

static struct host_cpu_sample qemu_at(double at, long pid, double run_s, double wait_s,
				      double psi_s)
{
	return (struct host_cpu_sample){
		.taken = true, .at = at, .on_host = true, .pid = pid, .qemu_known = pid > 0,
		.qemu_run_s = run_s, .qemu_wait_s = wait_s, .psi_known = psi_s >= 0,
		.psi_some_s = psi_s >= 0 ? psi_s : 0,
	};
}

static void test_window_of_the_same_qemu(void **state)
{
	struct host_cpu_sample from = qemu_at(100, 4242, 10, 1, 50),
			       to = qemu_at(163, 4242, 50, 42.2, 100.4);
	struct starve_window w;
	char buf[256];

	(void)state;
	starve_window_of(&from, &to, &w);
	assert_true(w.applicable && w.qemu_known && w.psi_known && !w.qemu_partial);
	assert_float_equal(w.wall_s, 63, 1e-9);
	assert_float_equal(w.qemu_run_s, 40, 1e-9);
	assert_float_equal(w.qemu_wait_s, 41.2, 1e-9);
	assert_float_equal(starve_qemu_wait_share(&w), 41.2 / 63, 1e-9);
	assert_float_equal(starve_psi_some_share(&w), 0.8, 1e-9);
	assert_true(starve_is_starved(&w));
	starve_describe(&w, buf, sizeof(buf));
	assert_string_equal(buf, "QEMU's threads waited 41.2 s of 63.0 s on the host run queue "
			    "(65 %); host CPU pressure 80 %");
}

static void test_window_thresholds(void **state)
{
	struct host_cpu_sample from = qemu_at(0, 7, 0, 0, 0), to;
	struct starve_window w;

	(void)state;
	to = qemu_at(100, 7, 80, 19.9, 90);   /* just under QEMU's bar: PSI does not override */
	starve_window_of(&from, &to, &w);
	assert_false(starve_is_starved(&w));
	to = qemu_at(100, 7, 80, 20, 0);      /* at QEMU's bar */
	starve_window_of(&from, &to, &w);
	assert_true(starve_is_starved(&w));
	/* an idle host: the soak machine's QEMU waits a few per cent */
	to = qemu_at(100, 7, 95, 2.5, 1);
	starve_window_of(&from, &to, &w);
	assert_false(starve_is_starved(&w));
}

/* A board command past its timeout gets more time only while the host starves QEMU, and never
 * past four times its timeout. */
static void test_more_time_only_when_starved_and_bounded(void **state)
{
	struct host_cpu_sample from = qemu_at(0, 7, 0, 0, 0), to;
	struct starve_window w;

	(void)state;
	to = qemu_at(70, 7, 40, 28, 50);      /* 40 % of 70 s waited */
	starve_window_of(&from, &to, &w);
	assert_true(starve_more_time(&w, 70000, 60000));
	assert_true(starve_more_time(&w, 239999, 60000));
	assert_false(starve_more_time(&w, 240000, 60000));
	to = qemu_at(70, 7, 68, 1.5, 2);      /* the idle host: the timeout is final */
	starve_window_of(&from, &to, &w);
	assert_false(starve_more_time(&w, 70000, 60000));
	to = (struct host_cpu_sample){ .taken = true, .at = 70 };   /* a real board */
	from = (struct host_cpu_sample){ .taken = true, .at = 0 };
	starve_window_of(&from, &to, &w);
	assert_false(starve_more_time(&w, 70000, 60000));
}

/* An infrastructure error is the host's doing only when a command timed out in a starved window;
 * a refused command or a calm host keeps it unexplained. */
static void test_infra_explained_only_by_a_starved_timeout(void **state)
{
	struct host_cpu_sample from = qemu_at(0, 7, 0, 0, 0), to = qemu_at(300, 7, 180, 120, 200);
	struct starve_window w;
	char detail[512] = "";
	const char *error = "board command 'rig-dut start-workloads journal': no reply in 240 s "
			    "(its timeout 60 s, extended)";

	(void)state;
	starve_window_of(&from, &to, &w);
	assert_int_equal(starve_judge_infra(&w, error, true, detail, sizeof(detail)), 1);
	assert_string_equal(detail, "host CPU starvation, not a kernel verdict: board command "
			    "'rig-dut start-workloads journal': no reply in 240 s (its timeout 60 s, "
			    "extended); QEMU's threads waited 120.0 s of 300.0 s on the host run queue "
			    "(40 %); host CPU pressure 67 %");
	assert_int_equal(starve_judge_infra(&w, "board command 'x' refused", false, detail,
					    sizeof(detail)), 0);
	to = qemu_at(300, 7, 290, 6, 10);
	starve_window_of(&from, &to, &w);
	assert_int_equal(starve_judge_infra(&w, error, true, detail, sizeof(detail)), 0);
}

static void test_window_qemu_restarted_counts_the_new_one(void **state)
{
	/* a power cut in the cycle: QEMU 7 killed, QEMU 9 booted; all of 9's time is inside */
	struct host_cpu_sample from = qemu_at(0, 7, 500, 300, 0), to = qemu_at(100, 9, 30, 25, 10);
	struct starve_window w;
	char buf[256];

	(void)state;
	starve_window_of(&from, &to, &w);
	assert_true(w.qemu_known && w.qemu_partial);
	assert_float_equal(w.qemu_wait_s, 25, 1e-9);
	assert_true(starve_is_starved(&w));
	starve_describe(&w, buf, sizeof(buf));
	assert_string_equal(buf, "QEMU's threads waited 25.0 s of 100.0 s on the host run queue "
			    "(25 %, at least: QEMU restarted in the window); host CPU pressure 10 %");
	/* no QEMU at the start (the board was down after a hang): the same */
	from = qemu_at(0, 0, 0, 0, 0);
	starve_window_of(&from, &to, &w);
	assert_true(w.qemu_known && w.qemu_partial);
}

static void test_window_unknown_qemu_falls_back_to_psi(void **state)
{
	struct host_cpu_sample from = qemu_at(0, 7, 50, 40, 0), to = qemu_at(100, 7, 60, 10, 55);
	struct starve_window w;
	char buf[256];

	(void)state;
	starve_window_of(&from, &to, &w);    /* counters went back: a thread ended */
	assert_false(w.qemu_known);
	assert_true(isnan(starve_qemu_wait_share(&w)));
	assert_true(starve_is_starved(&w));  /* PSI 55 % >= 50 % */
	starve_describe(&w, buf, sizeof(buf));
	assert_string_equal(buf, "QEMU's run-queue wait over 100.0 s unknown (QEMU's counters went "
			    "back (a thread ended)); host CPU pressure 55 %");
	to = qemu_at(100, 7, 60, 10, 45);
	starve_window_of(&from, &to, &w);
	assert_false(starve_is_starved(&w));
	/* neither known (no PSI on this kernel, schedstat unreadable): never starved */
	to = qemu_at(100, 7, 60, 10, -1);
	to.qemu_known = false;
	starve_window_of(&from, &to, &w);
	assert_false(w.qemu_known || w.psi_known);
	assert_false(starve_is_starved(&w));
	starve_describe(&w, buf, sizeof(buf));
	assert_string_equal(buf, "QEMU's run-queue wait over 100.0 s unknown (QEMU's schedstat "
			    "unreadable); host CPU pressure unavailable");
}

static void test_window_real_hardware_not_applicable(void **state)
{
	struct host_cpu_sample from = { .taken = true, .at = 0 }, to = { .taken = true, .at = 60 };
	struct host_cpu_sample none = { 0 };
	struct starve_window w;
	char buf[128];

	(void)state;
	starve_window_of(&from, &to, &w);
	assert_false(w.applicable);
	assert_false(starve_is_starved(&w));
	starve_describe(&w, buf, sizeof(buf));
	assert_string_equal(buf, "not applicable (no host process runs the board)");
	starve_window_of(&none, &to, &w);
	assert_false(w.applicable);
	assert_false(starve_is_starved(&w));
}

/* ---- the cycle ------------------------------------------------------------------------- */

static struct starve_window window(double wait_s)
{
	struct host_cpu_sample from = qemu_at(1000, 4242, 0, 0, 0),
			       to = qemu_at(1063, 4242, 40, wait_s, 50.4);
	struct starve_window w;

	starve_window_of(&from, &to, &w);
	return w;
}

#define STARVED() window(41.2)
#define NOT_STARVED() window(1.5)

static struct results_event event(enum kevent_kind kind, const char *text)
{
	return (struct results_event){ .kind = (char *)kevent_kind_name(kind), .text = (char *)text };
}

static struct results_verdict verdict(const char *name, enum results_verdict_result r,
				      const char *detail)
{
	return (struct results_verdict){ .name = (char *)name, .result = r, .detail = (char *)detail };
}

static void test_starved_soft_lockup_is_infra(void **state)
{
	struct results_event ev[] = {
		event(KEV_SUSPEND_ENTRY, "PM: suspend entry (deep)"),
		event(KEV_SOFT_LOCKUP, SOFT_LOCKUP),
		event(KEV_RCU_STALL, RCU_STALL),
	};
	struct results_verdict v[] = {
		verdict("suspend", RESULTS_VERDICT_PASS, "ok"),
		verdict("clean-resume", RESULTS_VERDICT_FAIL, SOFT_LOCKUP),
		verdict("no-loss", RESULTS_VERDICT_PASS, "0 lost"),
	};
	struct starve_cycle c = { .verdicts = v, .n_verdicts = 3, .events = ev, .n_events = 3 };
	struct starve_window w = STARVED();
	char detail[1024];

	(void)state;
	assert_true(starve_timing_failure(&v[1], ev, 3));
	assert_false(starve_timing_failure(&v[0], ev, 3));
	assert_int_equal(starve_judge(&w, &c, detail, sizeof(detail)), 1);
	assert_string_equal(detail, "host CPU starvation, not a kernel verdict: QEMU's threads "
			    "waited 41.2 s of 63.0 s on the host run queue (65 %); host CPU pressure "
			    "80 %; guest: " SOFT_LOCKUP " | " RCU_STALL);
}

/* The negative control: the same soft lockup on a host that gave QEMU its CPUs is the kernel's. */
static void test_soft_lockup_not_starved_stays_a_failure(void **state)
{
	struct results_event ev[] = { event(KEV_SOFT_LOCKUP, SOFT_LOCKUP) };
	struct results_verdict v[] = { verdict("clean-resume", RESULTS_VERDICT_FAIL, SOFT_LOCKUP) };
	struct starve_cycle c = { .verdicts = v, .n_verdicts = 1, .events = ev, .n_events = 1 };
	struct starve_window w = NOT_STARVED();
	char detail[512] = "untouched";

	(void)state;
	assert_int_equal(starve_judge(&w, &c, detail, sizeof(detail)), 0);
	assert_string_equal(detail, "untouched");
}

/* Never hide a real failure: lost data, fsck errors, a thawed owner filesystem, a WARN beside
 * the soft lockup all stay the kernel's on the most starved host. */
static void test_starved_real_failures_stay_failures(void **state)
{
	struct results_event lockup[] = { event(KEV_SOFT_LOCKUP, SOFT_LOCKUP) };
	struct results_event lockup_and_warn[] = {
		event(KEV_SOFT_LOCKUP, SOFT_LOCKUP), event(KEV_WARNING, A_WARNING),
	};
	struct results_verdict data_loss[] = {
		verdict("clean-resume", RESULTS_VERDICT_FAIL, SOFT_LOCKUP),
		verdict("no-loss", RESULTS_VERDICT_FAIL, "writer=ext4-w1 acked=812 found=790: 22 lost"),
	};
	struct results_verdict fsck[] = { verdict("fsck", RESULTS_VERDICT_FAIL, "ext4 rc=4") };
	struct results_verdict owner[] = {
		verdict("owner", RESULTS_VERDICT_FAIL, "frozen by userspace before suspend, but NOT frozen"),
	};
	struct results_verdict order[] = {
		verdict("order", RESULTS_VERDICT_FAIL, "filesystems_freeze() froze loop0 first"),
	};
	struct results_verdict warn[] = {
		verdict("clean-resume", RESULTS_VERDICT_FAIL, SOFT_LOCKUP " | " A_WARNING),
	};
	struct starve_window w = window(60);   /* 95 % */
	struct starve_cycle c;
	char detail[512];

	(void)state;
	c = (struct starve_cycle){ .verdicts = data_loss, .n_verdicts = 2, .events = lockup,
				   .n_events = 1 };
	assert_int_equal(starve_judge(&w, &c, detail, sizeof(detail)), 0);
	c = (struct starve_cycle){ .verdicts = fsck, .n_verdicts = 1, .events = lockup,
				   .n_events = 1 };
	assert_int_equal(starve_judge(&w, &c, detail, sizeof(detail)), 0);
	c = (struct starve_cycle){ .verdicts = owner, .n_verdicts = 1 };
	assert_int_equal(starve_judge(&w, &c, detail, sizeof(detail)), 0);
	c = (struct starve_cycle){ .verdicts = warn, .n_verdicts = 1, .events = lockup_and_warn,
				   .n_events = 2 };
	assert_false(starve_timing_failure(&warn[0], lockup_and_warn, 2));
	assert_int_equal(starve_judge(&w, &c, detail, sizeof(detail)), 0);
	/* a hang whose SysRq-z dump showed a freeze-order failure: the order verdict stands */
	c = (struct starve_cycle){ .hang_phase = "suspend", .verdicts = order, .n_verdicts = 1 };
	assert_int_equal(starve_judge(&w, &c, detail, sizeof(detail)), 0);
}

static void test_starved_hang_is_infra(void **state)
{
	static const char tail[] =
		"ACPI: PM: Restoring platform NVS memory\n"
		HPET_TIMEOUT "\n"
		"clocksource: Watchdog remote CPU 1 read timed out\n"
		"Enabling non-boot CPUs ...";
	struct results_event ev[] = { event(KEV_SUSPEND_ENTRY, "PM: suspend entry (deep)") };
	struct starve_cycle c = { .hang_phase = "resume", .events = ev, .n_events = 1,
				  .console_tail = tail };
	struct starve_window w = STARVED();
	char detail[1024];

	(void)state;
	assert_int_equal(starve_judge(&w, &c, detail, sizeof(detail)), 1);
	assert_string_equal(detail, "host CPU starvation, not a kernel verdict: hang in phase resume; "
			    "QEMU's threads waited 41.2 s of 63.0 s on the host run queue (65 %); "
			    "host CPU pressure 80 %; guest: " HPET_TIMEOUT
			    " | clocksource: Watchdog remote CPU 1 read timed out");
	/* the negative control: the same hang on a host that was not starved is a hang */
	w = NOT_STARVED();
	assert_int_equal(starve_judge(&w, &c, detail, sizeof(detail)), 0);
}

static void test_hung_task_and_known_issues(void **state)
{
	struct results_event ev[] = { event(KEV_HUNG_TASK, HUNG_TASK) };
	struct results_verdict v[] = {
		verdict("clean-resume", RESULTS_VERDICT_FAIL, HUNG_TASK),
		verdict("clean-resume", RESULTS_VERDICT_FAIL, A_WARNING),
	};
	struct starve_cycle c = { .verdicts = v, .n_verdicts = 2, .events = ev, .n_events = 1 };
	struct starve_window w = STARVED();
	char detail[512];

	(void)state;
	v[1].known_issue = "warn-in-freezer";   /* a known issue is not a failure of the cycle */
	assert_false(starve_timing_failure(&v[1], ev, 1));
	assert_int_equal(starve_judge(&w, &c, detail, sizeof(detail)), 1);
	assert_non_null(strstr(detail, "; guest: " HUNG_TASK));
	/* but an error verdict (the rig could not judge) is not starvation's to explain */
	v[1] = verdict("no-loss", RESULTS_VERDICT_ERROR, "no journal file to verify");
	assert_int_equal(starve_judge(&w, &c, detail, sizeof(detail)), 0);
}

/* No evidence, no change: a passing cycle, a window never sampled, a real board. */
static void test_no_evidence_leaves_the_cycle_alone(void **state)
{
	struct results_event ev[] = { event(KEV_SOFT_LOCKUP, SOFT_LOCKUP) };
	struct results_verdict fail[] = { verdict("clean-resume", RESULTS_VERDICT_FAIL, SOFT_LOCKUP) };
	struct results_verdict pass[] = { verdict("clean-resume", RESULTS_VERDICT_PASS, "clean") };
	struct host_cpu_sample none = { 0 }, real_from = { .taken = true, .at = 0 },
			       real_to = { .taken = true, .at = 63 }, to = qemu_at(63, 5, 1, 60, 60);
	struct starve_cycle c = { .verdicts = fail, .n_verdicts = 1, .events = ev, .n_events = 1 };
	struct starve_window w;
	char detail[512];

	(void)state;
	starve_window_of(&none, &to, &w);
	assert_int_equal(starve_judge(&w, &c, detail, sizeof(detail)), 0);
	starve_window_of(&real_from, &real_to, &w);
	assert_int_equal(starve_judge(&w, &c, detail, sizeof(detail)), 0);
	c.verdicts = pass;
	w = STARVED();
	assert_int_equal(starve_judge(&w, &c, detail, sizeof(detail)), 0);
	/* a clean-resume failure with no kernel failure event at all is not explained either */
	c = (struct starve_cycle){ .verdicts = fail, .n_verdicts = 1 };
	assert_int_equal(starve_judge(&w, &c, detail, sizeof(detail)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_schedstat_parses),
		cmocka_unit_test(test_schedstat_refuses_truncated_and_foreign),
		cmocka_unit_test(test_psi_parses_some_total),
		cmocka_unit_test(test_psi_refuses_truncated_and_missing),
		cmocka_unit_test(test_window_of_the_same_qemu),
		cmocka_unit_test(test_window_thresholds),
		cmocka_unit_test(test_more_time_only_when_starved_and_bounded),
		cmocka_unit_test(test_infra_explained_only_by_a_starved_timeout),
		cmocka_unit_test(test_window_qemu_restarted_counts_the_new_one),
		cmocka_unit_test(test_window_unknown_qemu_falls_back_to_psi),
		cmocka_unit_test(test_window_real_hardware_not_applicable),
		cmocka_unit_test(test_starved_soft_lockup_is_infra),
		cmocka_unit_test(test_soft_lockup_not_starved_stays_a_failure),
		cmocka_unit_test(test_starved_real_failures_stay_failures),
		cmocka_unit_test(test_starved_hang_is_infra),
		cmocka_unit_test(test_hung_task_and_known_issues),
		cmocka_unit_test(test_no_evidence_leaves_the_cycle_alone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
