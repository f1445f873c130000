/* rig bisect-step: run exit status -> git bisect run verdict (0 good, 1 bad, 125 skip). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bisect/step.h"
#include "cli/bisect.h"
#include "util/err.h"

static void test_rig_exit_codes(void **state)
{
	(void)state;
	assert_int_equal(bisect_step_exit_code(RIG_EXIT_PASS, 0, 0), BISECT_STEP_GOOD);
	assert_int_equal(bisect_step_exit_code(RIG_EXIT_FAIL, 0, 0), BISECT_STEP_BAD);
	assert_int_equal(bisect_step_exit_code(RIG_EXIT_USAGE, 0, 0), BISECT_STEP_SKIP);
	assert_int_equal(bisect_step_exit_code(RIG_EXIT_INFRA, 0, 0), BISECT_STEP_SKIP);
}

/* Nothing may come out above 127 (git bisect aborts) or as another "bad" code. */
static void test_every_status_maps_into_bisect_range(void **state)
{
	(void)state;
	for (int status = 0; status < 256; status++) {
		int code = bisect_step_exit_code(status, 0, 0);
		assert_true(code == 0 || code == 1 || code == 125);
		if (status >= 2)
			assert_int_equal(code, BISECT_STEP_SKIP);
	}
}

static void test_signal_and_timeout_skip(void **state)
{
	(void)state;
	assert_int_equal(bisect_step_exit_code(0, SIGKILL, 0), BISECT_STEP_SKIP);
	assert_int_equal(bisect_step_exit_code(0, SIGSEGV, 0), BISECT_STEP_SKIP);
	/* A timeout outranks whatever the killed run reported. */
	assert_int_equal(bisect_step_exit_code(RIG_EXIT_FAIL, 0, 1), BISECT_STEP_SKIP);
	assert_int_equal(bisect_step_exit_code(128 + SIGTERM, 0, 0), BISECT_STEP_SKIP);
}

/* Real wait statuses from real children: the macros, not our guess of their encoding. */
static int wait_status_of(int exit_code, int sig)
{
	pid_t child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		if (sig)
			raise(sig);
		_exit(exit_code);
	}
	int status = 0;
	assert_int_equal(waitpid(child, &status, 0), child);
	return status;
}

static void test_from_wait_status(void **state)
{
	(void)state;
	assert_int_equal(bisect_step_exit_code_from_wait(wait_status_of(0, 0), 0), BISECT_STEP_GOOD);
	assert_int_equal(bisect_step_exit_code_from_wait(wait_status_of(1, 0), 0), BISECT_STEP_BAD);
	assert_int_equal(bisect_step_exit_code_from_wait(wait_status_of(3, 0), 0), BISECT_STEP_SKIP);
	assert_int_equal(bisect_step_exit_code_from_wait(wait_status_of(0, SIGKILL), 0),
			 BISECT_STEP_SKIP);
	assert_int_equal(bisect_step_exit_code_from_wait(wait_status_of(1, 0), 1), BISECT_STEP_SKIP);
}

static int run_step(const char *script, const char *timeout)
{
	char *with_timeout[] = { "bisect-step", "--timeout", (char *)timeout, "--", "/bin/sh", "-c",
				 (char *)script, NULL };
	char *plain[] = { "bisect-step", "--", "/bin/sh", "-c", (char *)script, NULL };
	if (timeout)
		return cmd_bisect_step(7, with_timeout);
	return cmd_bisect_step(5, plain);
}

static void test_cmd_runs_and_maps(void **state)
{
	(void)state;
	assert_int_equal(run_step("exit 0", NULL), 0);
	assert_int_equal(run_step("exit 1", NULL), 1);
	assert_int_equal(run_step("exit 3", NULL), 125);
	assert_int_equal(run_step("kill -9 $$", NULL), 125);
	assert_int_equal(run_step("exec sleep 5", "0.2"), 125);
	char *missing[] = { "bisect-step", "--", "/nonexistent/rig", NULL };
	assert_int_equal(cmd_bisect_step(3, missing), 125);
}

static void test_cmd_usage_aborts_bisect(void **state)
{
	(void)state;
	char *none[] = { "bisect-step", NULL };
	char *unknown[] = { "bisect-step", "--bogus", "--", "true", NULL };
	char *bad_timeout[] = { "bisect-step", "--timeout", "x", "--", "true", NULL };
	/* Not 0/1/125: a broken step must stop git bisect, not label commits. */
	assert_true(cmd_bisect_step(1, none) > 127);
	assert_true(cmd_bisect_step(4, unknown) > 127);
	assert_true(cmd_bisect_step(5, bad_timeout) > 127);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rig_exit_codes),
		cmocka_unit_test(test_every_status_maps_into_bisect_range),
		cmocka_unit_test(test_signal_and_timeout_skip),
		cmocka_unit_test(test_from_wait_status),
		cmocka_unit_test(test_cmd_runs_and_maps),
		cmocka_unit_test(test_cmd_usage_aborts_bisect),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
