/* Console sessions over a socketpair standing in for the board: waiting for patterns with
 * their own timeouts, events seen while waiting, the time-stamped log. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "console/console.h"
#include "console/matcher.h"

struct fixture {
	struct console *console;
	int board;                   /* the board's end of the socketpair */
	char log_path[64];
	unsigned events[KEV_COUNT];
	char last_arg[128];
};

static void on_event(void *ctx, const struct kevent *ev)
{
	struct fixture *f = ctx;

	f->events[ev->kind]++;
	snprintf(f->last_arg, sizeof(f->last_arg), "%s", ev->arg);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct console_transport *t;
	struct console_options opts = { .quiet_ms = 20 };
	struct rig_err err = { 0 };
	int sv[2], fd;

	assert_non_null(f);
	snprintf(f->log_path, sizeof(f->log_path), "/tmp/test_console_log.XXXXXX");
	fd = mkstemp(f->log_path);
	assert_true(fd >= 0);
	close(fd);
	opts.log_path = f->log_path;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	f->board = sv[1];
	assert_int_equal(transport_from_fd(sv[0], "socketpair", &t, &err), 0);
	assert_int_equal(console_create(t, &opts, &f->console, &err), 0);
	console_set_event_handler(f->console, on_event, f);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	console_close(f->console);
	if (f->board >= 0)
		close(f->board);
	unlink(f->log_path);
	free(f);
	return 0;
}

static void board_says(struct fixture *f, const char *text)
{
	assert_int_equal(write(f->board, text, strlen(text)), (ssize_t)strlen(text));
}

static void test_first_matching_pattern_wins(void **state)
{
	struct fixture *f = *state;
	struct console_pattern p[] = {
		{ "PM: suspend exit", 5000 },
		{ "Kernel panic", 5000 },
	};
	struct console_match m;
	struct rig_err err = { 0 };

	board_says(f, "[   10.000000] PM: suspend entry (deep)\r\n"
		      "[   11.000000] Kernel panic - not syncing: test\r\n");
	assert_int_equal(console_wait(f->console, p, 2, &m, &err), 1);
	assert_int_equal(m.index, 1);
	assert_string_equal(m.line, "[   11.000000] Kernel panic - not syncing: test");
	console_match_free(&m);
	/* Lines passed over while waiting still reached the event handler. */
	assert_int_equal(f->events[KEV_SUSPEND_ENTRY], 1);
	assert_int_equal(f->events[KEV_PANIC], 1);
	assert_string_equal(f->last_arg, "test");
}

static void test_timeout(void **state)
{
	struct fixture *f = *state;
	struct console_pattern p[] = {
		{ "never", 30 },
		{ "also never", 60 },
	};
	struct console_match m;
	struct rig_err err = { 0 };

	board_says(f, "noise\r\n");
	assert_int_equal(console_wait(f->console, p, 2, &m, &err), CONSOLE_WAIT_TIMEOUT);
	assert_int_equal(m.index, -1);
	assert_null(m.line);
}

static void test_expired_pattern_no_longer_matches(void **state)
{
	struct fixture *f = *state;
	struct console_pattern p[] = {
		{ "late", 0 },             /* already expired */
		{ "other", 5000 },
	};
	struct rig_err err = { 0 };

	board_says(f, "late\r\nother\r\n");
	assert_int_equal(console_wait(f->console, p, 2, NULL, &err), 1);
}

static void test_bad_regex(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };

	assert_int_equal(console_wait_for(f->console, "a(", 10, NULL, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
}

static void test_board_gone(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };

	board_says(f, "last words\r\n");
	close(f->board);
	f->board = -1;
	assert_int_equal(console_wait_for(f->console, "never", 5000, NULL, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_INFRA);
}

static void test_log_lines_are_stamped(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };
	char line[256];
	FILE *log;
	long long secs;
	char usecs[16], text[128];

	board_says(f, "\x1b[6nrig# hello\r\nworld\n");
	assert_int_equal(console_wait_for(f->console, "^world$", 5000, NULL, &err), 0);
	log = fopen(f->log_path, "r");
	assert_non_null(log);
	assert_non_null(fgets(line, sizeof(line), log));
	assert_int_equal(sscanf(line, "[%lld.%6[0-9]] %127[^\n]", &secs, usecs, text), 3);
	assert_int_equal(strlen(usecs), 6);
	assert_true(secs > 1000000000);
	assert_string_equal(text, "rig# hello");
	assert_non_null(fgets(line, sizeof(line), log));
	assert_non_null(strstr(line, "] world\n"));
	fclose(log);
}

static void test_next_line_times_out_quietly(void **state)
{
	struct fixture *f = *state;
	struct console_line line;
	struct rig_err err = { 0 };

	assert_int_equal(console_next_line(f->console, 10, &line, &err), 0);
	board_says(f, "partial without newline");
	assert_int_equal(console_next_line(f->console, 10, &line, &err), 0);
	board_says(f, "\r\n");
	assert_int_equal(console_next_line(f->console, 5000, &line, &err), 1);
	assert_string_equal(line.text, "partial without newline");
	assert_false(line.has_ktime);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_first_matching_pattern_wins, setup, teardown),
		cmocka_unit_test_setup_teardown(test_timeout, setup, teardown),
		cmocka_unit_test_setup_teardown(test_expired_pattern_no_longer_matches, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_regex, setup, teardown),
		cmocka_unit_test_setup_teardown(test_board_gone, setup, teardown),
		cmocka_unit_test_setup_teardown(test_log_lines_are_stamped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_next_line_times_out_quietly, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
