/* A phase deadline that a board still writing may overrun (engine/busy_deadline.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "engine/busy_deadline.h"

#define TIMEOUT 60000

/* Samples every second from `from` to `to` (ms), the counter moving by `step` each time. */
static void run_samples(struct busy_deadline *d, long long from, long long to,
			unsigned long long *ops, unsigned step)
{
	for (long long t = from; t <= to; t += 1000) {
		*ops += step;
		busy_deadline_sample(d, t, *ops);
	}
}

static void test_before_timeout_never_expires(void **state)
{
	struct busy_deadline d;

	(void)state;
	busy_deadline_start(&d, 0, TIMEOUT);
	assert_false(busy_deadline_expired(&d, 0));
	assert_false(busy_deadline_expired(&d, TIMEOUT - 1));
	assert_false(busy_deadline_extending(&d, TIMEOUT - 1));
}

/* Negative control: a board whose disks are still (a real hang, CPUs stopped) gets the plain
 * timeout, not a second more. */
static void test_quiet_disks_expire_at_timeout(void **state)
{
	struct busy_deadline d;
	unsigned long long ops = 1000;

	(void)state;
	busy_deadline_start(&d, 0, TIMEOUT);
	run_samples(&d, 0, TIMEOUT, &ops, 0);
	assert_true(busy_deadline_expired(&d, TIMEOUT));
	assert_int_equal(d.extended_ms, 0);
}

/* A backend that cannot see the disks (real boards): plain timeout. */
static void test_no_samples_plain_timeout(void **state)
{
	struct busy_deadline d;

	(void)state;
	busy_deadline_start(&d, 0, TIMEOUT);
	assert_true(busy_deadline_expired(&d, TIMEOUT));
}

/* The 2026-12-05 case: the sync still writing at 60 s goes on, then the board sleeps. */
static void test_busy_disks_extend_past_timeout(void **state)
{
	struct busy_deadline d;
	unsigned long long ops = 0;

	(void)state;
	busy_deadline_start(&d, 0, TIMEOUT);
	run_samples(&d, 0, TIMEOUT + 20000, &ops, 37);
	assert_false(busy_deadline_expired(&d, TIMEOUT + 20000));
	assert_true(busy_deadline_extending(&d, TIMEOUT + 20000));
	assert_int_equal(d.extended_ms, 20000);
}

/* Writes stop after the timeout (a freeze deadlocked on writeback): declared BUSY_QUIET_MS after
 * the last request, not later. */
static void test_disks_going_quiet_expire_after_quiet_window(void **state)
{
	struct busy_deadline d;
	unsigned long long ops = 0;
	long long last = TIMEOUT + 5000;

	(void)state;
	busy_deadline_start(&d, 0, TIMEOUT);
	run_samples(&d, 0, last, &ops, 5);
	run_samples(&d, last + 1000, last + BUSY_QUIET_MS + 1000, &ops, 0);
	assert_false(busy_deadline_expired(&d, last + BUSY_QUIET_MS - 1));
	assert_true(busy_deadline_expired(&d, last + BUSY_QUIET_MS));
}

/* A board that never stops writing (a writeback livelock) still hangs at the cap. */
static void test_endless_writing_stops_at_cap(void **state)
{
	struct busy_deadline d;
	unsigned long long ops = 0;
	long long cap = (long long)TIMEOUT * BUSY_CAP_FACTOR;

	(void)state;
	busy_deadline_start(&d, 0, TIMEOUT);
	run_samples(&d, 0, cap - 1000, &ops, 9);
	assert_false(busy_deadline_expired(&d, cap - 1000));
	run_samples(&d, cap, cap, &ops, 9);
	assert_true(busy_deadline_expired(&d, cap));
}

/* Activity only before the phase (the first reading is a baseline) buys nothing. */
static void test_first_sample_is_baseline(void **state)
{
	struct busy_deadline d;

	(void)state;
	busy_deadline_start(&d, 0, TIMEOUT);
	busy_deadline_sample(&d, TIMEOUT - 500, 123456);
	assert_true(busy_deadline_expired(&d, TIMEOUT));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_before_timeout_never_expires),
		cmocka_unit_test(test_quiet_disks_expire_at_timeout),
		cmocka_unit_test(test_no_samples_plain_timeout),
		cmocka_unit_test(test_busy_disks_extend_past_timeout),
		cmocka_unit_test(test_disks_going_quiet_expire_after_quiet_window),
		cmocka_unit_test(test_endless_writing_stops_at_cap),
		cmocka_unit_test(test_first_sample_is_baseline),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
