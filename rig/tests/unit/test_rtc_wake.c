/* Judging an RTC wake the rig had to stand in for (engine/rtc_wake.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "engine/rtc_wake.h"

/* Asked to suspend at 100 s, a 5 s alarm armed after a 2 s sync: it is due at 107 s. */
static void alarm_expired_before_sleep_is_explained(void **state)
{
	struct rtc_wake w = { .armed_after = 100.0, .asleep_at = 118.5, .rescued = true };
	char detail[256];

	(void)state;
	assert_int_equal(rtc_wake_judge(&w, 5, 2000, detail, sizeof(detail)), RESULTS_VERDICT_SKIP);
	assert_non_null(strstr(detail, "expired 11.5 s before the board was asleep"));
}

static void asleep_in_time_but_not_woken_fails(void **state)
{
	struct rtc_wake w = { .armed_after = 100.0, .asleep_at = 103.0, .rescued = true };
	char detail[256];

	(void)state;
	assert_int_equal(rtc_wake_judge(&w, 5, 2000, detail, sizeof(detail)), RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(detail, "asleep 4.0 s before its RTC alarm"));
	/* without rig-dut's sync time the alarm is as early as it can be: still asleep in time */
	assert_int_equal(rtc_wake_judge(&w, 5, 0, detail, sizeof(detail)), RESULTS_VERDICT_FAIL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(alarm_expired_before_sleep_is_explained),
		cmocka_unit_test(asleep_in_time_but_not_woken_fails),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
