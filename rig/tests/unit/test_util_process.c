/* util/process: the one process runner (capture, environment, exit status, deadline, stop). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/process.h"

static int setup(void **state)
{
	static char dir[64];

	snprintf(dir, sizeof(dir), "/tmp/test_util_process.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	*state = dir;
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", (const char *)*state);
	return system(cmd) == 0 ? 0 : -1;
}

static void process_captures_stdout_env_and_status(void **state)
{
	char *argv[] = { "sh", "-c", "echo one; echo \"$RIG_TEST_VAR\"; echo oops >&2; exit 3", NULL };
	char *env[] = { "RIG_TEST_VAR=two words", NULL };
	struct process_spec spec = { .argv = argv, .env_add = env, .out = PROCESS_IO_CAPTURE,
		.err = PROCESS_IO_CAPTURE };
	struct process_result res;
	char last[64];
	struct rig_err err = { 0 };

	(void)state;
	assert_int_equal(process_run(&spec, 5000, 0, 1024, &res, &err), 0);
	assert_int_equal(res.exit_code, 3);
	assert_false(res.timed_out);
	assert_string_equal(res.out, "one\ntwo words\n");
	assert_string_equal(res.err, "oops\n");
	assert_int_equal(process_last_line(res.out, last, sizeof(last)), 0);
	assert_string_equal(last, "two words");
	assert_int_equal(process_last_line("\n\n", last, sizeof(last)), -1);
	assert_int_equal(process_last_line("x\nmuch too long for the buffer", last, 8), -1);
	process_result_free(&res);
	assert_null(getenv("RIG_TEST_VAR"));   /* only the child's environment changed */
}

/* Output past capture_max was dropped silently: the text now says it was cut, within max,
 * and the result flags it; output that fits is untouched (the test above). */
static void process_marks_cut_output(void **state)
{
	char *argv[] = { "sh", "-c", "i=0; while [ $i -lt 2000 ]; do echo line $i; i=$((i+1)); done",
			 NULL };
	struct process_spec spec = { .argv = argv, .out = PROCESS_IO_CAPTURE,
		.err = PROCESS_IO_CAPTURE };
	struct process_result res;
	struct rig_err err = { 0 };
	const char *mark = "\n[rig: output cut]\n";

	(void)state;
	assert_int_equal(process_run(&spec, 5000, 0, 1024, &res, &err), 0);
	assert_true(res.out_cut);
	assert_false(res.err_cut);
	assert_true(strlen(res.out) <= 1024);
	assert_string_equal(res.out + strlen(res.out) - strlen(mark), mark);
	assert_int_equal(strncmp(res.out, "line 0\nline 1\n", 14), 0);
	process_result_free(&res);
}

static void process_reports_signals_and_missing_programs(void **state)
{
	char *killed[] = { "sh", "-c", "kill -TERM $$", NULL };
	char *missing[] = { "/nonexistent/program", NULL };
	struct process_spec spec = { .argv = killed };
	struct process_result res;
	struct rig_err err = { 0 };

	(void)state;
	assert_int_equal(process_run(&spec, 0, 0, 0, &res, &err), 0);
	assert_int_equal(res.exit_code, 128 + 15);
	assert_null(res.out);
	spec.argv = missing;
	assert_int_equal(process_run(&spec, 0, 0, 0, &res, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_INFRA);
	assert_non_null(strstr(err.msg, "cannot run /nonexistent/program: No such file"));
}

static void process_writes_stdout_to_a_file(void **state)
{
	const char *dir = *state;
	char path[128], text[64] = "";
	char *argv[] = { "echo", "to file", NULL };
	struct process_spec spec = { .argv = argv, .out = PROCESS_IO_FILE, .out_path = path };
	struct process_result res;
	struct rig_err err = { 0 };
	FILE *f;

	snprintf(path, sizeof(path), "%s/out.txt", dir);
	assert_int_equal(process_run(&spec, 0, 0, 0, &res, &err), 0);
	assert_int_equal(res.exit_code, 0);
	assert_non_null(f = fopen(path, "r"));
	assert_non_null(fgets(text, sizeof(text), f));
	fclose(f);
	assert_string_equal(text, "to file\n");
}

/* The stop every runner shares: SIGTERM first, so a program that cleans up on it (rig run
 * marks its cycle aborted and powers the board off) gets to; SIGKILL only after the grace. */
static void process_stop_terms_before_it_kills(void **state)
{
	const char *dir = *state;
	char path[128], script[512], text[64] = "";
	char *argv[] = { "sh", "-c", script, NULL };
	struct process_spec spec = { .argv = argv, .own_group = true };
	struct process_result res;
	struct rig_err err = { 0 };
	long long t0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/cleaned", dir);
	snprintf(script, sizeof(script), "trap 'echo cleaned >%s; exit 9' TERM; while :; do sleep 0.05; done", path);
	t0 = monotonic_ms();
	assert_int_equal(process_run(&spec, 300, 5000, 0, &res, &err), 0);
	assert_true(res.timed_out);
	assert_int_equal(res.exit_code, 9);            /* its own exit, after its clean-up */
	assert_true(monotonic_ms() - t0 < 4000);       /* it did not need the grace */
	assert_non_null(f = fopen(path, "r"));
	assert_non_null(fgets(text, sizeof(text), f));
	fclose(f);
	assert_string_equal(text, "cleaned\n");

	/* One that ignores SIGTERM is killed when the grace is over. */
	snprintf(script, sizeof(script), "trap '' TERM; while :; do sleep 0.05; done");
	t0 = monotonic_ms();
	assert_int_equal(process_run(&spec, 200, 300, 0, &res, &err), 0);
	assert_true(res.timed_out);
	assert_int_equal(res.exit_code, 128 + 9);
	assert_true(monotonic_ms() - t0 >= 500);
}

/* A deadline that has passed by the time the program is running still stops it (a negative
 * time left once read as "no deadline": a loaded machine made rig bisect-step wait out the
 * command it should have stopped). */
static void process_deadline_already_passed(void **state)
{
	char *argv[] = { "sh", "-c", "sleep 5", NULL };
	struct process_spec spec = { .argv = argv, .own_group = true };
	struct process_result res;
	struct rig_err err = { 0 };
	long long t0 = monotonic_ms();

	(void)state;
	assert_int_equal(process_run(&spec, 1, 1000, 0, &res, &err), 0);
	assert_true(res.timed_out);
	assert_true(monotonic_ms() - t0 < 3000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(process_captures_stdout_env_and_status),
		cmocka_unit_test(process_marks_cut_output),
		cmocka_unit_test(process_reports_signals_and_missing_programs),
		cmocka_unit_test(process_writes_stdout_to_a_file),
		cmocka_unit_test(process_stop_terms_before_it_kills),
		cmocka_unit_test(process_deadline_already_passed),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
