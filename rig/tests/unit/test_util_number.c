/* util/number: every number the rig reads from text, whole and in range. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>

#include "util/number.h"

static void whole_numbers_in_range(void **state)
{
	long long v;
	unsigned u;
	uint64_t w;

	(void)state;
	assert_int_equal(parse_number("42", 0, 100, &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(parse_number("-7", -10, 10, &v), 0);
	assert_int_equal(v, -7);
	assert_int_equal(parse_uint("4294967295", 0, UINT_MAX, &u), 0);
	assert_int_equal(u, UINT_MAX);
	assert_int_equal(parse_u64("18446744073709551615", 0, UINT64_MAX, &w), 0);
	assert_true(w == UINT64_MAX);
}

static void refuses_what_would_wrap_or_truncate(void **state)
{
	long long v = 99;
	unsigned u = 99;
	uint64_t w = 99;

	(void)state;
	/* rig known --nights 4294967297 was taken as 1 (strtoul into an unsigned) */
	assert_int_equal(parse_uint("4294967297", 1, 100000, &u), -1);
	assert_int_equal(parse_uint("4294967296", 0, UINT_MAX, &u), -1);
	assert_int_equal(parse_number("9223372036854775808", LLONG_MIN, LLONG_MAX, &v), -1);
	assert_int_equal(parse_u64("18446744073709551616", 0, UINT64_MAX, &w), -1);
	assert_int_equal(parse_uint("0", 1, 10, &u), -1);
	assert_int_equal(parse_uint("-1", 0, 10, &u), -1);
	assert_int_equal(parse_u64("-1", 0, UINT64_MAX, &w), -1);   /* strtoull would wrap it */
	assert_int_equal(u, 99);    /* nothing written on failure */
	assert_int_equal(v, 99);
	assert_true(w == 99);
}

static void refuses_what_is_not_a_whole_number(void **state)
{
	const char *bad[] = { "", " 5", "5 ", "+5", "5x", "0x10", "1e3", "5.0", "--5", "-", "five" };
	long long v;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (parse_number(bad[i], LLONG_MIN, LLONG_MAX, &v) == 0)
			fail_msg("'%s' was taken for %lld", bad[i], v);
}

static void reals(void **state)
{
	const char *bad[] = { "", " 1", "1 ", "nan", "NaN", "inf", "-inf", "0x1p3", "1,5", "." };
	double d;

	(void)state;
	assert_int_equal(parse_real("0.25", 0, 1, &d), 0);
	assert_true(d == 0.25);
	assert_int_equal(parse_real("-1e3", -1e4, 0, &d), 0);
	assert_true(d == -1000);
	assert_int_equal(parse_real("1.5", 0, 1, &d), -1);
	assert_int_equal(parse_real("1e999", -1e308, 1e308, &d), -1);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (parse_real(bad[i], -1e308, 1e308, &d) == 0)
			fail_msg("'%s' was taken for %g", bad[i], d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(whole_numbers_in_range),
		cmocka_unit_test(refuses_what_would_wrap_or_truncate),
		cmocka_unit_test(refuses_what_is_not_a_whole_number),
		cmocka_unit_test(reals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
