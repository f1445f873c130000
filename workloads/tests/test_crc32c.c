/* CRC-32C against published vectors (RFC 3720 B.4 and the "123456789" check value). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/crc32c.h"

static void test_check_value(void **state)
{
	(void)state;
	assert_int_equal(crc32c(0, "123456789", 9), 0xe3069283u);
}

static void test_rfc3720_vectors(void **state)
{
	uint8_t buf[32];

	(void)state;
	memset(buf, 0x00, sizeof(buf));
	assert_int_equal(crc32c(0, buf, sizeof(buf)), 0x8a9136aau);
	memset(buf, 0xff, sizeof(buf));
	assert_int_equal(crc32c(0, buf, sizeof(buf)), 0x62a8ab43u);
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)i;
	assert_int_equal(crc32c(0, buf, sizeof(buf)), 0x46dd794eu);
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(31 - i);
	assert_int_equal(crc32c(0, buf, sizeof(buf)), 0x113fdb5cu);
}

static void test_empty_input_is_zero(void **state)
{
	(void)state;
	assert_int_equal(crc32c(0, "", 0), 0u);
}

static void test_incremental_equals_one_shot(void **state)
{
	const char *text = "The quick brown fox jumps over the lazy dog";
	size_t len = strlen(text);

	(void)state;
	for (size_t split = 0; split <= len; split++)
		assert_int_equal(crc32c(crc32c(0, text, split), text + split, len - split),
				 crc32c(0, text, len));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_value),
		cmocka_unit_test(test_rfc3720_vectors),
		cmocka_unit_test(test_empty_input_is_zero),
		cmocka_unit_test(test_incremental_equals_one_shot),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
