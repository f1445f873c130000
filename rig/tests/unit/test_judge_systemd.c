/* The verdicts a systemd board adds (rig/judge/): systemd-sleep from rig-dut's result line after
 * a sleep entered through systemctl, journald from rig-dut journald-check after a forced failed
 * resume. Lines as the Debian board prints them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "judge/journald.h"
#include "judge/systemd_sleep.h"

static char detail[512];

static void test_systemd_sleep_pass(void **state)
{
	(void)state;
	assert_int_equal(systemd_sleep_judge("result=0 successes=1 slept_s=6 presync_ms=0 "
					     "last_failed_step= via=systemctl systemd_result=success "
					     "user_freeze=froze user_thaw=thawed sleep_pre_ms=412 sleep_post_ms=95",
					     detail, sizeof(detail)),
			 RESULTS_VERDICT_PASS);
	assert_non_null(strstr(detail, "412 ms before"));
	assert_non_null(strstr(detail, "95 ms after"));
}

static void test_systemd_sleep_failed_unit(void **state)
{
	(void)state;
	assert_int_equal(systemd_sleep_judge("result=1 successes=0 via=systemctl systemd_result=exit-code "
					     "user_freeze=froze user_thaw=thawed sleep_pre_ms=-1 sleep_post_ms=-1 "
					     "systemd_said=\"Failed to put system to sleep. System resumed again: Device or resource busy\"",
					     detail, sizeof(detail)),
			 RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(detail, "Result=exit-code"));
	assert_non_null(strstr(detail, "Device or resource busy"));
}

static void test_systemd_sleep_refused(void **state)
{
	(void)state;
	assert_int_equal(systemd_sleep_judge("result=1 successes=0 via=systemctl systemd_result=refused "
					     "systemd_said=\"Call to Hibernate failed: Not enough suitable swap space\"",
					     detail, sizeof(detail)),
			 RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(detail, "swap space"));
}

static void test_systemd_sleep_sessions_not_frozen(void **state)
{
	(void)state;
	assert_int_equal(systemd_sleep_judge("result=0 successes=1 via=systemctl systemd_result=success "
					     "user_freeze=none user_thaw=none sleep_pre_ms=10 sleep_post_ms=10",
					     detail, sizeof(detail)),
			 RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(detail, "freeze=none"));
	assert_int_equal(systemd_sleep_judge("result=0 successes=1 via=systemctl systemd_result=success "
					     "user_freeze=froze user_thaw=failed sleep_pre_ms=10 sleep_post_ms=10",
					     detail, sizeof(detail)),
			 RESULTS_VERDICT_FAIL);
}

static void test_systemd_sleep_no_report(void **state)
{
	(void)state;
	assert_int_equal(systemd_sleep_judge("result=0 successes=1 slept_s=5", detail, sizeof(detail)),
			 RESULTS_VERDICT_ERROR);
	assert_int_equal(systemd_sleep_judge("", detail, sizeof(detail)), RESULTS_VERDICT_ERROR);
}

static void test_journald_clean(void **state)
{
	(void)state;
	assert_int_equal(journald_judge("journald verify=pass verify_rc=0 files=3 bad_files=0 renamed=1 "
					"complaints=1 corrupt_complaints=0",
					detail, sizeof(detail)),
			 RESULTS_VERDICT_PASS);
	assert_non_null(strstr(detail, "1 uncleanly closed"));
}

static void test_journald_verify_fails(void **state)
{
	(void)state;
	assert_int_equal(journald_judge("journald verify=fail verify_rc=1 files=3 bad_files=1 renamed=0 "
					"complaints=0 corrupt_complaints=0",
					detail, sizeof(detail)),
			 RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(detail, "1 of 3 files bad"));
}

static void test_journald_damage_from_before_this_boot_is_not_judged(void **state)
{
	(void)state;
	/* rig boot's power-off left a damaged *.journal~ behind before the cycle: reported only */
	assert_int_equal(journald_judge("journald verify=pass files=3 bad_files=0 bad_earlier=1 "
					"renamed=1 complaints=1 corrupt_complaints=0",
					detail, sizeof(detail)),
			 RESULTS_VERDICT_PASS);
	assert_non_null(strstr(detail, "1 set aside before this boot fail --verify"));
	/* the same files with the damaged one set aside this boot: this cycle's damage */
	assert_int_equal(journald_judge("journald verify=fail files=3 bad_files=1 bad_earlier=0 "
					"renamed=2 complaints=1 corrupt_complaints=0",
					detail, sizeof(detail)),
			 RESULTS_VERDICT_FAIL);
}

static void test_journald_corruption_complaint_fails(void **state)
{
	(void)state;
	/* journalctl --verify passes on the files left, but journald said it found one corrupted */
	assert_int_equal(journald_judge("journald verify=pass verify_rc=0 files=2 bad_files=0 renamed=1 "
					"complaints=2 corrupt_complaints=1",
					detail, sizeof(detail)),
			 RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(detail, "1 complaints of corruption"));
}

static void test_journald_not_a_report(void **state)
{
	(void)state;
	assert_int_equal(journald_judge("error=no-journald", detail, sizeof(detail)), RESULTS_VERDICT_ERROR);
	assert_int_equal(journald_judge("journald verify=pass files=3", detail, sizeof(detail)),
			 RESULTS_VERDICT_ERROR);
	assert_int_equal(journald_judge("", detail, sizeof(detail)), RESULTS_VERDICT_ERROR);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_systemd_sleep_pass),
		cmocka_unit_test(test_systemd_sleep_failed_unit),
		cmocka_unit_test(test_systemd_sleep_refused),
		cmocka_unit_test(test_systemd_sleep_sessions_not_frozen),
		cmocka_unit_test(test_systemd_sleep_no_report),
		cmocka_unit_test(test_journald_clean),
		cmocka_unit_test(test_journald_verify_fails),
		cmocka_unit_test(test_journald_damage_from_before_this_boot_is_not_judged),
		cmocka_unit_test(test_journald_corruption_complaint_fails),
		cmocka_unit_test(test_journald_not_a_report),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
