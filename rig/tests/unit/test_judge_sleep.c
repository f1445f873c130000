/* The judge on the transition itself: suspend, pm-test, hibernate, and an RTC wake the rig had
 * to stand in for (judge/sleep.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "judge/judge.h"

static const struct board board = { .name = "fake" };
static const struct judge_context ctx = { .board = &board, .kernel_version = "7.3.4",
					  .knob_freeze_filesystems = 1 };

static enum results_verdict_result one(const struct judgement *j, const char *name)
{
	assert_int_equal(j->n_verdicts, 1);
	assert_string_equal(j->verdicts[0].name, name);
	return j->verdicts[0].result;
}

static void suspend_needs_a_counted_success_and_a_seen_sleep(void **state)
{
	const char *ok[] = { "result=0 successes=1 slept_s=3 presync_ms=20 last_failed_step=" };
	const char *busy[] = { "sh: write error: Device or resource busy",
			       "result=1 successes=0 slept_s=0 presync_ms=0 last_failed_step=freeze" };
	const char *zero[] = { "result=0 successes=0 slept_s=0 presync_ms=0" };
	struct ev_sleep s;
	struct judgement j = { 0 };
	struct rig_err err = { 0 };

	(void)state;
	ev_parse_sleep(ok, 1, &s);
	assert_int_equal(s.presync_ms, 20);
	assert_int_equal(judge_suspend(&ctx, &j, "suspend", &s, JUDGE_SEEN_YES, &err), 0);
	assert_int_equal(one(&j, "suspend"), RESULTS_VERDICT_PASS);
	judgement_free(&j);
	/* LAVA cannot watch the board: the board's own count decides */
	assert_int_equal(judge_suspend(&ctx, &j, "suspend", &s, JUDGE_SEEN_UNKNOWN, &err), 0);
	assert_int_equal(one(&j, "suspend"), RESULTS_VERDICT_PASS);
	judgement_free(&j);
	assert_int_equal(judge_suspend(&ctx, &j, "suspend", &s, JUDGE_SEEN_NO, &err), 0);
	assert_int_equal(one(&j, "suspend"), RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(j.verdicts[0].detail, "never reported sleeping"));
	judgement_free(&j);
	/* the result line comes after the shell's complaint */
	ev_parse_sleep(busy, 2, &s);
	assert_int_equal(s.result, 1);
	assert_int_equal(judge_suspend(&ctx, &j, "suspend", &s, JUDGE_SEEN_YES, &err), 0);
	assert_int_equal(one(&j, "suspend"), RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(j.verdicts[0].detail, "last_failed_step=freeze"));
	judgement_free(&j);
	/* a suspend that returned 0 without the kernel counting one (the LAVA definitions used to
	 * pass it) */
	ev_parse_sleep(zero, 1, &s);
	assert_int_equal(judge_suspend(&ctx, &j, "suspend", &s, JUDGE_SEEN_UNKNOWN, &err), 0);
	assert_int_equal(one(&j, "suspend"), RESULTS_VERDICT_FAIL);
	judgement_free(&j);
	/* pm_test stops short of a real suspend: no success is counted */
	assert_int_equal(judge_suspend(&ctx, &j, "pm-test", &s, JUDGE_SEEN_UNKNOWN, &err), 0);
	assert_int_equal(one(&j, "pm-test"), RESULTS_VERDICT_PASS);
	judgement_free(&j);
}

static void hibernate_restored_or_how_not(void **state)
{
	const char *restored[] = { "result=0 restored=1 boot_id=x" };
	const char *refused[] = { "result=1 restored=1 boot_id=x" };
	struct ev_sleep s;
	struct judgement j = { 0 };
	struct rig_err err = { 0 };

	(void)state;
	ev_parse_sleep(restored, 1, &s);
	assert_int_equal(judge_hibernate(&ctx, &j, &s, JUDGE_HIB_RESTORED, &err), 0);
	assert_int_equal(one(&j, "hibernate"), RESULTS_VERDICT_PASS);
	judgement_free(&j);
	assert_int_equal(judge_hibernate(&ctx, &j, &s, JUDGE_HIB_STAYED, &err), 0);
	assert_int_equal(one(&j, "hibernate"), RESULTS_VERDICT_FAIL);
	judgement_free(&j);
	assert_int_equal(judge_hibernate(&ctx, &j, &s, JUDGE_HIB_NOT_RESTORED, &err), 0);
	assert_int_equal(one(&j, "hibernate"), RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(j.verdicts[0].detail, "booted afresh"));
	judgement_free(&j);
	ev_parse_sleep(refused, 1, &s);
	assert_int_equal(judge_hibernate(&ctx, &j, &s, JUDGE_HIB_RESTORED, &err), 0);
	assert_int_equal(one(&j, "hibernate"), RESULTS_VERDICT_FAIL);
	judgement_free(&j);
}

/* Asked to suspend at 100 s, a 5 s alarm armed after a 2 s sync: it is due at 107 s. */
static void alarm_expired_before_sleep_is_explained(void **state)
{
	struct judge_rtc r = { .armed_after = 100.0, .asleep_at = 118.5, .seconds = 5,
			       .presync_ms = 2000 };
	struct judgement j = { 0 };
	struct rig_err err = { 0 };
	char detail[256];

	(void)state;
	assert_int_equal(judge_rtc_wake(&r, detail, sizeof(detail)), RESULTS_VERDICT_SKIP);
	assert_non_null(strstr(detail, "expired 11.5 s before the board was asleep"));
	assert_int_equal(judge_wake(&ctx, &j, &r, &err), 0);
	assert_int_equal(one(&j, "wake"), RESULTS_VERDICT_SKIP);
	assert_int_equal(j.n_measurements, 1);
	assert_string_equal(j.measurements[0].name, "rtc_alarm_missed");
	judgement_free(&j);
}

static void asleep_in_time_but_not_woken_fails(void **state)
{
	struct judge_rtc r = { .armed_after = 100.0, .asleep_at = 103.0, .seconds = 5,
			       .presync_ms = 2000 };
	char detail[256];

	(void)state;
	assert_int_equal(judge_rtc_wake(&r, detail, sizeof(detail)), RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(detail, "asleep 4.0 s before its RTC alarm"));
	/* without rig-dut's sync time the alarm is as early as it can be: still asleep in time */
	r.presync_ms = 0;
	assert_int_equal(judge_rtc_wake(&r, detail, sizeof(detail)), RESULTS_VERDICT_FAIL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(suspend_needs_a_counted_success_and_a_seen_sleep),
		cmocka_unit_test(hibernate_restored_or_how_not),
		cmocka_unit_test(alarm_expired_before_sleep_is_explained),
		cmocka_unit_test(asleep_in_time_but_not_woken_fails),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
