/* What a console does around an unplugged serial adapter, on a socketpair standing for the
 * adapter: the transport's notices mark the gap in kernel time, the first record after the
 * replug closes it, it is reported once, and lines recovered from the board's kernel log go
 * through the event parser like any console line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "console/console.h"
#include "console/garble.h"

struct seen {
	unsigned warnings;
};

static void on_event(void *ctx, const struct kevent *ev)
{
	struct seen *seen = ctx;

	seen->warnings += ev->kind == KEV_WARNING;
}

static void feed(int fd, const char *text)
{
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
}

static void next(struct console *c, const char *want)
{
	struct console_line line;
	struct rig_err err = { 0 };

	assert_int_equal(console_next_line(c, 5000, &line, &err), 1);
	assert_string_equal(line.text, want);
}

static void test_gap_between_unplug_and_replug(void **state)
{
	struct console_transport *t;
	struct console *c;
	struct console_gap gap;
	struct rig_err err = { 0 };
	struct seen seen = { 0 };
	int sv[2];

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(transport_from_fd(sv[0], "adapter", &t, &err), 0);
	assert_int_equal(console_create(t, NULL, &c, &err), 0);
	console_set_event_handler(c, on_event, &seen);
	assert_int_equal(console_take_gap(c, &gap), 0);

	feed(sv[1], "[   12.500000] PM: suspend entry (deep)\n");
	next(c, "[   12.500000] PM: suspend entry (deep)");
	transport_notify(t, TRANSPORT_GONE, "gone");
	transport_notify(t, TRANSPORT_BACK, "back");
	assert_true(console_take_reattached(c));
	assert_false(console_take_reattached(c));
	feed(sv[1], "a line without a stamp\n[   19.250000] PM: suspend exit\n");
	next(c, "a line without a stamp");
	next(c, "[   19.250000] PM: suspend exit");

	assert_int_equal(console_take_gap(c, &gap), 1);
	assert_true(gap.since_ktime == 12.5);
	assert_true(gap.until_ktime == 19.25);
	assert_true(gap.ms >= 0);
	assert_int_equal(console_take_gap(c, &gap), 0);

	console_replay_line(c, "[   15.000000] WARNING: kernel/power/main.c:42 at thaw, CPU#0: sh/1");
	assert_int_equal(seen.warnings, 1);
	console_close(c);
	close(sv[1]);
}

/* A break reads as a NUL: dropped, the line around it intact. */
static void test_nul_dropped(void **state)
{
	struct console_transport *t;
	struct console *c;
	struct rig_err err = { 0 };
	int sv[2];

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(transport_from_fd(sv[0], "adapter", &t, &err), 0);
	assert_int_equal(console_create(t, NULL, &c, &err), 0);
	assert_int_equal(write(sv[1], "@@RIG@@ 3\0 end rc=0\n", 20), 20);
	next(c, "@@RIG@@ 3 end rc=0");
	console_close(c);
	close(sv[1]);
}

/* Text is text; what a receiver at the wrong speed makes of it is not, and is called garbled
 * only after GARBLE_WINDOWS windows of it. */
static void test_garble(void **state)
{
	struct garble g = { 0 };
	unsigned char noise[GARBLE_WINDOW];
	const char *text = "[    1.234567] ACPI: PM: Preparing to enter system sleep state S3\r\n";

	(void)state;
	for (int i = 0; i < 40; i++)
		garble_feed(&g, (const unsigned char *)text, strlen(text));
	assert_false(garble_is_garbled(&g));
	g = (struct garble){ 0 };
	for (size_t i = 0; i < sizeof(noise); i++)
		noise[i] = (unsigned char)(i % 3 == 0 ? 'a' : 0x80 + i % 120);
	garble_feed(&g, noise, sizeof(noise));
	assert_false(garble_is_garbled(&g));
	garble_feed(&g, noise, sizeof(noise));
	assert_true(garble_is_garbled(&g));
	garble_feed(&g, (const unsigned char *)text, strlen(text));
	for (int i = 0; i < 4; i++)
		garble_feed(&g, (const unsigned char *)text, strlen(text));
	assert_false(garble_is_garbled(&g));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gap_between_unplug_and_replug),
		cmocka_unit_test(test_nul_dropped),
		cmocka_unit_test(test_garble),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
