/* The command backend with real shell commands, the registry, and `rig power` on top. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/power.h"
#include "power/power.h"
#include "power/shell.h"

struct fixture {
	char dir[64];
	char log[128];
	struct board_command cmds;
	struct board board;
	char scratch[4][256];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	strcpy(f->dir, "/tmp/rig-power-cmd-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->log, sizeof(f->log), "%s/log", f->dir);
	f->board = (struct board){ .name = "pdu-board",
				   .power = { .backend = "command", .command = &f->cmds },
				   .timeouts = { .command = 1 } };
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	unlink(f->log);
	snprintf(f->scratch[0], sizeof(f->scratch[0]), "%s/pid", f->dir);
	unlink(f->scratch[0]);
	rmdir(f->dir);
	free(f);
	return 0;
}

static struct power *open_board(struct fixture *f)
{
	struct rig_err err = { 0 };
	struct power *power;

	if (power_open(&f->board, NULL, &power, &err) < 0)
		fail_msg("power_open: %s", err.msg);
	assert_string_equal(power_backend_name(power), "command");
	return power;
}

static char *slurp(const char *path, char *buf, size_t size)
{
	FILE *fp = fopen(path, "r");
	size_t n;

	assert_non_null(fp);
	n = fread(buf, 1, size - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

/* Running or sleeping, as opposed to gone or a zombie. */
static bool process_lives(pid_t pid)
{
	char path[64], stat[256];
	const char *paren;
	FILE *fp;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fp = fopen(path, "r");
	if (!fp)
		return false;
	n = fread(stat, 1, sizeof(stat) - 1, fp);
	fclose(fp);
	stat[n] = '\0';
	paren = strrchr(stat, ')');
	return paren && paren[1] && paren[2] != 'Z' && paren[2] != 'X';
}

static void test_success_and_failure(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };
	struct power *power;

	f->cmds.on = "true";
	f->cmds.off = "echo 'relay 3: no answer' >&2; exit 3";
	power = open_board(f);
	assert_int_equal(power_on(power, &err), 0);
	assert_int_equal(power_off(power, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_INFRA);
	assert_non_null(strstr(err.msg, "exited 3"));
	assert_non_null(strstr(err.msg, "relay 3: no answer"));
	/* Operations the board file does not define are configuration errors. */
	assert_int_equal(power_reset(power, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	assert_non_null(strstr(err.msg, "power.command.reset"));
	assert_int_equal(power_wakeup(power, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	assert_int_equal(power_has_events(power), 0);
	assert_int_equal(power_resume_cpus(power, &err), 0);
	power_close(power);
}

static void test_cycle_without_cycle_command_runs_off_then_on(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };
	struct power *power;
	char out[64];

	snprintf(f->scratch[0], sizeof(f->scratch[0]), "echo off >> %s", f->log);
	snprintf(f->scratch[1], sizeof(f->scratch[1]), "echo on >> %s", f->log);
	f->cmds.off = f->scratch[0];
	f->cmds.on = f->scratch[1];
	power = open_board(f);
	assert_int_equal(power_cycle(power, &err), 0);
	assert_string_equal(slurp(f->log, out, sizeof(out)), "off\non\n");
	power_close(power);
}

/* The command and everything it started are killed at the deadline. */
static void test_timeout_kills_process_group(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };
	struct power *power;
	char pid_path[128], text[32];
	pid_t pid;

	snprintf(pid_path, sizeof(pid_path), "%s/pid", f->dir);
	snprintf(f->scratch[0], sizeof(f->scratch[0]), "sleep 5 & echo $! > %s; wait", pid_path);
	f->cmds.press = f->scratch[0];
	power = open_board(f);
	assert_int_equal(power_press(power, 0, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_INFRA);
	assert_non_null(strstr(err.msg, "timed out"));
	pid = atoi(slurp(pid_path, text, sizeof(text)));
	assert_true(pid > 0);
	/* The background sleep was in the group: gone, or a zombie its new parent will reap. */
	for (int i = 0; i < 100 && process_lives(pid); i++)
		usleep(10000);
	assert_false(process_lives(pid));
	power_close(power);
}

static void expect_status(struct fixture *f, const char *cmd, enum power_state want)
{
	struct rig_err err = { 0 };
	struct power *power;
	enum power_state got;

	f->cmds.status = (char *)cmd;
	power = open_board(f);
	if (power_status(power, &got, &err) < 0)
		fail_msg("status '%s': %s", cmd, err.msg);
	assert_string_equal(power_state_name(got), power_state_name(want));
	power_close(power);
}

static void test_status_from_output_or_exit_code(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };
	struct power *power;
	enum power_state got;

	expect_status(f, "echo on", POWER_RUNNING);
	expect_status(f, "echo OFF", POWER_OFF);
	expect_status(f, "printf 'suspended\\n'", POWER_SUSPENDED);
	expect_status(f, "echo running; exit 1", POWER_RUNNING);
	expect_status(f, "true", POWER_RUNNING);
	expect_status(f, "exit 1", POWER_OFF);
	f->cmds.status = "echo 'pdu unreachable' >&2; exit 7";
	power = open_board(f);
	assert_int_equal(power_status(power, &got, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_INFRA);
	assert_non_null(strstr(err.msg, "pdu unreachable"));
	power_close(power);
}

static void test_shell_capture_is_bounded(void **state)
{
	struct shell_result res;
	struct rig_err err = { 0 };

	(void)state;
	assert_int_equal(shell_run("head -c 100000 /dev/zero | tr '\\0' x; echo e >&2", 5000,
				   &res, &err), 0);
	assert_int_equal(res.exit_code, 0);
	assert_int_equal(strlen(res.out), SHELL_CAPTURE_MAX - 1);
	assert_string_equal(res.err, "e\n");
	assert_int_equal(shell_run("kill -9 $$", 5000, &res, &err), 0);
	assert_int_equal(res.exit_code, 128 + SIGKILL);
}

static void test_registry_rejects_bad_backends(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };
	struct power *power = NULL;

	f->board.power.backend = "ipmi";
	assert_int_equal(power_open(&f->board, NULL, &power, &err), -1);
	assert_null(power);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	assert_non_null(strstr(err.msg, "ipmi"));
	f->board.power.backend = NULL;
	assert_int_equal(power_open(&f->board, NULL, &power, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	f->board.power.backend = "command";
	f->board.power.command = NULL;
	assert_int_equal(power_open(&f->board, NULL, &power, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
}

static void test_state_names_round_trip(void **state)
{
	enum power_state parsed;

	(void)state;
	for (int s = POWER_OFF; s <= POWER_UNKNOWN; s++) {
		assert_int_equal(power_state_parse(power_state_name((enum power_state)s), &parsed), 0);
		assert_int_equal(parsed, s);
	}
	assert_string_equal(power_state_name(POWER_RUNNING), "on");
	assert_int_equal(power_state_parse("sleeping", &parsed), -1);
}

/* Run `rig power ARGS...` and capture what it prints. */
static int run_cli(struct board *board, char *out, size_t size, int argc, char **argv)
{
	FILE *o = tmpfile(), *e = tmpfile();
	size_t n;
	int rc;

	assert_non_null(o);
	assert_non_null(e);
	rc = cmd_power_to(board, argc, argv, o, e);
	rewind(o);
	n = fread(out, 1, size - 1, o);
	out[n] = '\0';
	if (n == 0) {
		rewind(e);
		n = fread(out, 1, size - 1, e);
		out[n] = '\0';
	}
	fclose(o);
	fclose(e);
	return rc;
}

static void test_cli(void **state)
{
	struct fixture *f = *state;
	char out[4096];
	char *status[] = { "power", "status" };
	char *help[] = { "power", "--help" };
	char *none[] = { "power" };
	char *bogus[] = { "power", "explode" };
	char *bad_ms[] = { "power", "--ms", "-5", "press" };
	char *off[] = { "power", "off" };
	char *two[] = { "power", "on", "off" };

	f->cmds.status = "echo suspended";
	f->cmds.off = "echo 'outlet locked' >&2; false";
	assert_int_equal(run_cli(&f->board, out, sizeof(out), 2, status), RIG_EXIT_PASS);
	assert_string_equal(out, "suspended\n");
	assert_int_equal(run_cli(NULL, out, sizeof(out), 2, help), RIG_EXIT_PASS);
	assert_non_null(strstr(out, "usage: rig power"));
	assert_int_equal(run_cli(&f->board, out, sizeof(out), 1, none), RIG_EXIT_USAGE);
	assert_non_null(strstr(out, "no action"));
	assert_int_equal(run_cli(&f->board, out, sizeof(out), 2, bogus), RIG_EXIT_USAGE);
	assert_non_null(strstr(out, "explode"));
	assert_int_equal(run_cli(&f->board, out, sizeof(out), 4, bad_ms), RIG_EXIT_USAGE);
	assert_int_equal(run_cli(&f->board, out, sizeof(out), 3, two), RIG_EXIT_USAGE);
	assert_int_equal(run_cli(NULL, out, sizeof(out), 2, status), RIG_EXIT_USAGE);
	assert_int_equal(run_cli(&f->board, out, sizeof(out), 2, off), RIG_EXIT_INFRA);
	assert_non_null(strstr(out, "outlet locked"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_success_and_failure, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cycle_without_cycle_command_runs_off_then_on,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_timeout_kills_process_group, setup, teardown),
		cmocka_unit_test_setup_teardown(test_status_from_output_or_exit_code, setup,
						teardown),
		cmocka_unit_test(test_shell_capture_is_bounded),
		cmocka_unit_test_setup_teardown(test_registry_rejects_bad_backends, setup, teardown),
		cmocka_unit_test(test_state_names_round_trip),
		cmocka_unit_test_setup_teardown(test_cli, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
