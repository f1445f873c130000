/* Wake accounting: rig-dut suspend's wake line parsed (ev_parse_wake: the lines
 * workloads/tests/rig-dut-wake.sh makes rig-dut print), and the wake-time verdict
 * (judge/wake_time.h) with its negative controls: a premature wake (too early, or the RTC's
 * wakeup source quiet), a late one, one whose source the board could not name, and the cycles
 * it cannot judge (missing data, no alarm, rescued). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "judge/wake_time.h"

/* rig-dut's reply to "rig-dut suspend deep rtc 5": the result line, then the wake line (the
 * first case of workloads/tests/rig-dut-wake.sh, verbatim). */
static const char *const reply[] = {
	"result=0 successes=1 slept_s=6 presync_ms=20 last_failed_step=",
	"wake irq=8 irq_name=rtc0 asleep_ms=5200 awake_ms=1300 sources=00_01:1:1,alarmtimer.0.auto:1:0",
};

static void parses_the_wake_line(void **state)
{
	struct ev_wake w;

	(void)state;
	ev_parse_wake(reply, 2, &w);
	assert_true(w.reported);
	assert_int_equal(w.irq, 8);
	assert_string_equal(w.irq_name, "rtc0");
	assert_int_equal(w.asleep_ms, 5200);
	assert_int_equal(w.awake_ms, 1300);
	assert_true(w.sources_known);
	assert_string_equal(w.sources, "00_01:1:1,alarmtimer.0.auto:1:0");
	/* a rig-dut before rtc= and hw_sleep_ms=: unknown, not "none" */
	assert_false(w.rtc_known);
	assert_string_equal(w.rtc, "");
	assert_int_equal(w.hw_sleep_ms, -1);
}

static void parses_the_rtc_and_the_hardware_sleep(void **state)
{
	const char *now[] = { "wake irq=9 irq_name=acpi asleep_ms=5200 awake_ms=1300 "
			      "sources=LNXPWRBN_00:1:1 rtc=00_01,rtc0 hw_sleep_ms=4731" };
	const char *none[] = { "wake irq=9 irq_name=acpi asleep_ms=5 awake_ms=1 sources=none "
			       "rtc=none hw_sleep_ms=unavailable" };
	const char *lacking[] = { "wake irq=9 irq_name=acpi asleep_ms=5 awake_ms=1 "
				  "sources=unavailable rtc=unavailable hw_sleep_ms=-4" };
	struct ev_wake w;

	(void)state;
	ev_parse_wake(now, 1, &w);
	assert_true(w.rtc_known);
	assert_string_equal(w.rtc, "00_01,rtc0");
	assert_int_equal(w.hw_sleep_ms, 4731);
	/* the board told: its RTC has no wakeup source */
	ev_parse_wake(none, 1, &w);
	assert_true(w.rtc_known);
	assert_string_equal(w.rtc, "");
	assert_int_equal(w.hw_sleep_ms, -1);
	ev_parse_wake(lacking, 1, &w);
	assert_false(w.rtc_known);
	assert_string_equal(w.rtc, "");
	assert_int_equal(w.hw_sleep_ms, -1);
}

static void parses_what_the_board_lacks(void **state)
{
	const char *unavailable[] = { "wake irq=unavailable irq_name=unavailable asleep_ms=unavailable "
				      "awake_ms=unavailable sources=unavailable" };
	const char *none[] = { "wake irq=41 irq_name=unavailable asleep_ms=0 awake_ms=0 sources=none" };
	const char *garbled[] = { "wake irq=-3 irq_name=x asleep_ms=12x awake_ms=-40 sources=" };
	const char *older[] = { "result=0 successes=1 slept_s=6 presync_ms=20 last_failed_step=",
				"wakeful asleep_ms=5" };
	struct ev_wake w;

	(void)state;
	ev_parse_wake(unavailable, 1, &w);
	assert_true(w.reported);
	assert_int_equal(w.irq, -1);
	assert_string_equal(w.irq_name, "");
	assert_int_equal(w.asleep_ms, -1);
	assert_int_equal(w.awake_ms, -1);
	assert_false(w.sources_known);
	/* "none": the board has wakeup sources and none counted */
	ev_parse_wake(none, 1, &w);
	assert_int_equal(w.irq, 41);
	assert_string_equal(w.irq_name, "");
	assert_int_equal(w.asleep_ms, 0);
	assert_true(w.sources_known);
	assert_string_equal(w.sources, "");
	/* no number is made up from a bad one */
	ev_parse_wake(garbled, 1, &w);
	assert_int_equal(w.irq, -1);
	assert_string_equal(w.irq_name, "");
	assert_int_equal(w.asleep_ms, -1);
	assert_int_equal(w.awake_ms, -1);
	assert_false(w.sources_known);
	/* a rig-dut without the line (or a line that only looks like it) */
	ev_parse_wake(older, 2, &w);
	assert_false(w.reported);
	assert_int_equal(w.asleep_ms, -1);
	ev_parse_wake(NULL, 0, &w);
	assert_false(w.reported);
}

/* An RTC-woken sleep of the QEMU board: alarm 5 s after arming, asleep 300 ms after it. */
static struct judge_wake_time rtc(const struct ev_wake *board, long entry_ms)
{
	return (struct judge_wake_time){ .wake = "rtc", .requested_ms = 5000, .entry_ms = entry_ms,
					 .board = board, .early_ms = 2500, .late_ms = 5000,
					 .rtc_source = true };
}

static struct ev_wake slept(long asleep_ms, long awake_ms)
{
	struct ev_wake b = { .reported = true, .irq = 8, .asleep_ms = asleep_ms, .awake_ms = awake_ms,
			     .sources_known = true };

	strcpy(b.irq_name, "rtc0");
	strcpy(b.sources, "00_01:1:1");
	b.rtc_known = true;
	strcpy(b.rtc, "00_01");
	b.hw_sleep_ms = -1;
	return b;
}

static enum results_verdict_result judged(const struct judge_wake_time *w, char *detail)
{
	return wake_time_judge(w, detail, 1024);
}

static void on_time_passes(void **state)
{
	struct ev_wake b = slept(4650, 1300);
	struct judge_wake_time w = rtc(&b, 300);
	char d[1024];

	(void)state;
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_PASS);
	assert_non_null(strstr(d, "asleep 4650 ms of the 4700 ms its alarm left it (alarm 5000 ms "
				  "after arming, asleep 300 ms after it), back 5950 ms after arming"));
	assert_non_null(strstr(d, "irq 8 (rtc0), wakeup sources 00_01:1:1"));
	/* the edges of the window still pass: back exactly early_ms before the alarm, asleep
	 * exactly late_ms longer than the alarm left it */
	b.asleep_ms = 5000 - 2500 - 1300;
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_PASS);
	b.asleep_ms = 4700 + 5000;
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_PASS);
}

static void premature_wake_fails(void **state)
{
	struct ev_wake b = slept(1000, 1300);
	struct judge_wake_time w = rtc(&b, 300);
	char d[1024];

	(void)state;
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(d, "premature wake: back 2300 ms after arming, 2700 ms before its "
				  "alarm (more than 2500 ms early): asleep 1000 ms, awake 1300 ms"));
	assert_non_null(strstr(d, "irq 8 (rtc0)"));
	/* one millisecond past the tolerance */
	b.asleep_ms = 5000 - 2500 - 1300 - 1;
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_FAIL);
	/* the host's view of the entry does not change it: the span is the board's own */
	w.entry_ms = -1;
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(d, "when the board fell asleep unknown"));
}

static void late_wake_fails(void **state)
{
	struct ev_wake b = slept(11000, 1300);
	struct judge_wake_time w = rtc(&b, 300);
	char d[1024];

	(void)state;
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(d, "late wake: asleep 11000 ms, 6300 ms more than its alarm left it "
				  "(4700 ms; alarm 5000 ms after arming, asleep 300 ms after it; more "
				  "than 5000 ms late)"));
	b.asleep_ms = 4700 + 5000 + 1;
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_FAIL);
}

/* The board names no source (nor which are the RTC's: a rig-dut before rtc=): the timing still
 * decides, and the detail says it is unknown. */
static void unknown_source_is_said(void **state)
{
	struct ev_wake b = slept(1000, 1300);
	struct judge_wake_time w = rtc(&b, 300);
	char d[1024];

	(void)state;
	b.rtc_known = false;
	b.rtc[0] = '\0';
	b.irq = -1;
	b.irq_name[0] = '\0';
	b.sources[0] = '\0';
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(d, "premature wake"));
	assert_non_null(strstr(d, "source unknown (no wakeup irq recorded, no wakeup source counted)"));
	b.asleep_ms = 4700;
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_PASS);
	assert_non_null(strstr(d, "source unknown"));
	/* a kernel without /sys/class/wakeup, with a wakeup irq */
	b.irq = 9;
	b.sources_known = false;
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_PASS);
	assert_non_null(strstr(d, "irq 9 (unnamed), wakeup sources unavailable"));
}

/* An RTC wake was planned and the RTC's wakeup source stayed quiet: premature, however long the
 * board slept, whether another source counted or none did (QEMU's system_wakeup from S3 leaves
 * no trace, measured). Its positive controls: the RTC's source counted, alone or with another;
 * the wakeup IRQ was the RTC's. No evidence (no RTC source on the board, an older rig-dut, no
 * /sys/class/wakeup) or a board file that says its RTC does not count (rtc_source: false) leaves
 * the timing to decide. */
static void quiet_rtc_source_is_premature(void **state)
{
	struct ev_wake b = slept(4650, 1300);
	struct judge_wake_time w = rtc(&b, 300);
	char d[1024];

	(void)state;
	strcpy(b.irq_name, "acpi");
	b.irq = 9;
	strcpy(b.sources, "LNXPWRBN_00:1:1");
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(d, "premature wake: not the RTC (its wakeup source 00_01 did not "
				  "count; woken by LNXPWRBN_00:1:1) with its alarm 5000 ms after "
				  "arming, back 5950 ms after arming; asleep 4650 ms; irq 9 (acpi), "
				  "wakeup sources LNXPWRBN_00:1:1, the RTC's: 00_01"));
	/* nothing counted at all */
	b.sources[0] = '\0';
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(d, "premature wake: not the RTC (its wakeup source 00_01 did not "
				  "count; no other source counted either)"));
	/* several sources, none the RTC's, and several RTC sources: all named */
	strcpy(b.sources, "LNXPWRBN_00:1:1,serial8250:2:0");
	strcpy(b.rtc, "rtc0,00_01");
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(d, "its wakeup source rtc0,00_01 did not count; woken by "
				  "LNXPWRBN_00:1:1,serial8250:2:0)"));
	/* a name that only starts like the RTC's is another source */
	strcpy(b.sources, "00_011:1:1");
	strcpy(b.rtc, "00_01");
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_FAIL);
	/* the RTC's source counted, alone (its event count only, as on the QEMU board) or with
	 * another: the RTC woke it */
	strcpy(b.sources, "00_01:1:0");
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_PASS);
	strcpy(b.sources, "LNXPWRBN_00:1:1,00_01:1:1");
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_PASS);
	/* the wakeup IRQ is the RTC's */
	strcpy(b.sources, "LNXPWRBN_00:1:1");
	strcpy(b.irq_name, "rtc0");
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_PASS);
	strcpy(b.irq_name, "acpi");
	/* the board file says this RTC does not count its wakes: the timing decides */
	w.rtc_source = false;
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_PASS);
	w.rtc_source = true;
	/* no evidence either way: the timing decides, and says what the board lacked */
	b.rtc[0] = '\0';
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_PASS);
	assert_non_null(strstr(d, "the RTC has none"));
	strcpy(b.rtc, "00_01");
	b.rtc_known = false;
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_PASS);
	b.rtc_known = true;
	b.sources_known = false;
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_PASS);
	assert_non_null(strstr(d, "wakeup sources unavailable"));
	b.sources_known = true;
	/* ...and the timing still fails an early one */
	b.rtc_known = false;
	b.asleep_ms = 1000;
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(d, "premature wake: back 2300 ms after arming"));
	/* a planned QMP wake or a rescue by the rig is no RTC wake: the source is recorded only */
	b.rtc_known = true;
	w.rescued = true;
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_SKIP);
	w = rtc(&b, 300);
	w.wake = "qmp";
	w.requested_ms = -1;
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_SKIP);
	assert_non_null(strstr(d, "wakeup sources LNXPWRBN_00:1:1"));
}

/* Entry unknown (no power events, LAVA): the whole alarm bounds what it left the sleep. */
static void unknown_entry_bounds_the_late_wake(void **state)
{
	struct ev_wake b = slept(9000, 1300);
	struct judge_wake_time w = rtc(&b, -1);
	char d[1024];

	(void)state;
	/* 4000 ms longer than the 5000 of the whole alarm: within late_ms */
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_PASS);
	assert_non_null(strstr(d, "asleep 9000 ms of the 5000 ms its alarm left it (alarm 5000 ms "
				  "after arming, when the board fell asleep unknown)"));
	/* the same sleep with a 300 ms entry seen is late */
	w.entry_ms = 300;
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_PASS);   /* 9000 <= 4700 + 5000 */
	b.asleep_ms = 9800;
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_FAIL);
	w.entry_ms = -1;
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_PASS);   /* 9800 <= 5000 + 5000 */
	b.asleep_ms = 10001;
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(d, "late wake: asleep 10001 ms, 5001 ms more than its alarm left it"));
}

/* The kernel's entry outlasted the alarm (and the board still woke by itself): nothing left to
 * sleep, so only a late wake can fail, and the detail says the alarm had expired. */
static void alarm_expired_before_the_sleep(void **state)
{
	struct ev_wake b = slept(3000, 8000);
	struct judge_wake_time w = rtc(&b, 7000);
	char d[1024];

	(void)state;
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_PASS);
	assert_non_null(strstr(d, "expired 2000 ms before the board was asleep"));
	b.asleep_ms = 5001;
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(d, "late wake"));
}

/* s2idle on a kernel without a cpuidle driver never suspends timekeeping: the monotonic clock
 * runs through the sleep and asleep_ms stays near 0. The span from arming to the return is still
 * the alarm's: not a premature wake. */
static void monotonic_running_through_s2idle_is_not_premature(void **state)
{
	struct ev_wake b = slept(0, 5400);
	struct judge_wake_time w = rtc(&b, 300);
	char d[1024];

	(void)state;
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_PASS);
	assert_non_null(strstr(d, "back 5400 ms after arming"));
	/* its negative control: the same board back after 2 s */
	b.awake_ms = 2000;
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_FAIL);
}

static void what_it_cannot_judge_is_a_skip(void **state)
{
	struct ev_wake b = slept(4650, 1300), older = { 0 };
	struct judge_wake_time w = rtc(&b, 300);
	char d[1024];

	(void)state;
	/* QMP wake: recorded, nothing to time */
	w.wake = "qmp";
	w.requested_ms = -1;
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_SKIP);
	assert_non_null(strstr(d, "woken by qmp: no alarm to time it against; asleep 4650 ms; irq 8 (rtc0)"));
	/* the rig stood in for an alarm that never came: the wake verdict's */
	w = rtc(&b, 300);
	w.rescued = true;
	b.asleep_ms = 21000;
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_SKIP);
	assert_non_null(strstr(d, "the rig did (the wake verdict judges that); asleep 21000 ms"));
	/* missing data: the board's clocks, its whole line, its reply */
	w.rescued = false;
	b.asleep_ms = b.awake_ms = -1;
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_SKIP);
	assert_non_null(strstr(d, "time asleep unavailable on the board"));
	w.board = &older;
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_SKIP);
	assert_non_null(strstr(d, "no wake accounting"));
	w.board = NULL;
	assert_int_equal(judged(&w, d), RESULTS_VERDICT_SKIP);
}

/* judge_wake_time takes the board file's thresholds, whatever the caller put in, and measures. */
static void the_board_file_sets_the_thresholds(void **state)
{
	struct board board = { .name = "tight", .wake_timing = { .early_ms = 0, .late_ms = 100,
								 .rtc_source = false } };
	const struct judge_context ctx = { .board = &board, .kernel_version = "7.3.4",
					   .knob_freeze_filesystems = 1 };
	struct ev_wake b = slept(3600, 1300);
	struct judge_wake_time w = rtc(&b, 300);
	struct judgement j = { 0 };
	struct rig_err err = { 0 };

	(void)state;
	/* back 100 ms before the alarm: inside the default 2500, outside this board's 0; the RTC's
	 * source quiet, which this board does not judge */
	strcpy(b.irq_name, "acpi");
	b.sources[0] = '\0';
	assert_int_equal(judge_wake_time(&ctx, &j, &w, &err), 0);
	assert_int_equal(j.n_verdicts, 1);
	assert_string_equal(j.verdicts[0].name, "wake-time");
	assert_null(j.verdicts[0].filesystem);
	assert_int_equal(j.verdicts[0].result, RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(j.verdicts[0].detail, "more than 0 ms early"));
	assert_int_equal(j.n_measurements, 1);
	assert_string_equal(j.measurements[0].name, "wake_asleep_ms");
	assert_true(j.measurements[0].value == 3600.0);
	judgement_free(&j);
	/* the hardware's own record, where the board has one, is measured beside it */
	b.hw_sleep_ms = 3400;
	assert_int_equal(judge_wake_time(&ctx, &j, &w, &err), 0);
	assert_int_equal(j.n_measurements, 2);
	assert_string_equal(j.measurements[1].name, "wake_hw_sleep_ms");
	assert_true(j.measurements[1].value == 3400.0);
	assert_non_null(strstr(j.verdicts[0].detail, "hardware asleep 3400 ms"));
	judgement_free(&j);
	b.hw_sleep_ms = -1;
	board.wake_timing.early_ms = 100;
	assert_int_equal(judge_wake_time(&ctx, &j, &w, &err), 0);
	assert_int_equal(j.verdicts[0].result, RESULTS_VERDICT_PASS);
	judgement_free(&j);
	/* the same sleep on a board whose RTC counts its wakes */
	board.wake_timing.rtc_source = true;
	assert_int_equal(judge_wake_time(&ctx, &j, &w, &err), 0);
	assert_int_equal(j.verdicts[0].result, RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(j.verdicts[0].detail, "not the RTC"));
	judgement_free(&j);
	board.wake_timing.rtc_source = false;
	/* nothing measured when the board could not say */
	b.asleep_ms = b.awake_ms = -1;
	assert_int_equal(judge_wake_time(&ctx, &j, &w, &err), 0);
	assert_int_equal(j.verdicts[0].result, RESULTS_VERDICT_SKIP);
	assert_int_equal(j.n_measurements, 0);
	judgement_free(&j);
}

static void the_record_keeps_unknown_apart(void **state)
{
	struct ev_wake b;
	struct judge_wake_time w;
	struct results_wake r;
	const char *none[] = { "wake irq=unavailable irq_name=unavailable asleep_ms=0 awake_ms=10 "
			       "sources=none" };

	(void)state;
	ev_parse_wake(reply, 2, &b);
	w = rtc(&b, 300);
	wake_time_record(&w, &r);
	assert_string_equal(r.wake, "rtc");
	assert_int_equal(r.requested_ms, 5000);
	assert_int_equal(r.entry_ms, 300);
	assert_int_equal(r.asleep_ms, 5200);
	assert_int_equal(r.awake_ms, 1300);
	assert_int_equal(r.irq, 8);
	assert_string_equal(r.irq_name, "rtc0");
	assert_string_equal(r.sources, "00_01:1:1,alarmtimer.0.auto:1:0");
	assert_false(r.rescued);
	ev_parse_wake(none, 1, &b);
	wake_time_record(&w, &r);
	assert_int_equal(r.irq, -1);
	assert_null(r.irq_name);
	assert_string_equal(r.sources, "");     /* none counted, not unavailable */
	b.sources_known = false;
	wake_time_record(&w, &r);
	assert_null(r.sources);
	w.board = NULL;
	w.wake = "qmp";
	w.requested_ms = -1;
	wake_time_record(&w, &r);
	assert_string_equal(r.wake, "qmp");
	assert_int_equal(r.asleep_ms, -1);
	assert_int_equal(r.awake_ms, -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_the_wake_line),
		cmocka_unit_test(parses_what_the_board_lacks),
		cmocka_unit_test(parses_the_rtc_and_the_hardware_sleep),
		cmocka_unit_test(on_time_passes),
		cmocka_unit_test(premature_wake_fails),
		cmocka_unit_test(late_wake_fails),
		cmocka_unit_test(quiet_rtc_source_is_premature),
		cmocka_unit_test(unknown_source_is_said),
		cmocka_unit_test(unknown_entry_bounds_the_late_wake),
		cmocka_unit_test(alarm_expired_before_the_sleep),
		cmocka_unit_test(monotonic_running_through_s2idle_is_not_premature),
		cmocka_unit_test(what_it_cannot_judge_is_a_skip),
		cmocka_unit_test(the_board_file_sets_the_thresholds),
		cmocka_unit_test(the_record_keeps_unknown_apart),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
