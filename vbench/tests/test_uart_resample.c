/* The bench cable's baud-mismatch model: what a UART reading at the wrong speed delivers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "../host/uart_resample.h"

static void test_same_speed_passes_bytes(void **state)
{
	const uint8_t in[] = "Linux version 7.3.4-rig\r\n";
	uint8_t out[64];

	(void)state;
	assert_int_equal(uart_resample(in, sizeof(in) - 1, 115200, 115200, out, sizeof(out)),
			 sizeof(in) - 1);
	assert_memory_equal(in, out, sizeof(in) - 1);
}

/* 0x55 = 01010101, LSB first after the start bit: the line toggles every bit. A receiver at
 * twice the speed samples one transmitted bit per two of its own. */
static void test_double_speed_receiver(void **state)
{
	const uint8_t in[] = { 0xff };   /* start bit, eight 1s, stop: low for one tx bit */
	uint8_t out[8];
	size_t n;

	(void)state;
	/* rx bit = half a tx bit: the start edge at 0, samples at 0.75, 1.25, ...: the first sample
	 * is still inside the start bit (0), the rest are 1s. */
	n = uart_resample(in, 1, 9600, 19200, out, sizeof(out));
	assert_int_equal(n, 1);
	assert_int_equal(out[0], 0xfe);
}

/* A receiver at a twelfth of the speed (9600 reading 115200) sees far fewer bytes than were
 * sent, and they are not the text. */
static void test_slow_receiver_garbles(void **state)
{
	const char *text = "[    1.234567] ACPI: PM: Preparing to enter system sleep state S3\r\n";
	uint8_t out[128];
	size_t n, printable = 0;

	(void)state;
	n = uart_resample((const uint8_t *)text, strlen(text), 115200, 9600, out, sizeof(out));
	assert_true(n > 0);
	assert_true(n < strlen(text) / 4);
	for (size_t i = 0; i < n; i++)
		printable += out[i] >= 0x20 && out[i] < 0x7f;
	assert_true(memmem(out, n, "ACPI", 4) == NULL);
	print_message("%zu bytes sent, %zu received, %zu printable\n", strlen(text), n, printable);
}

static void test_fast_receiver_garbles(void **state)
{
	const char *text = "@@RIG@@ agent ready\r\n";
	uint8_t out[256];
	size_t n;

	(void)state;
	n = uart_resample((const uint8_t *)text, strlen(text), 9600, 115200, out, sizeof(out));
	assert_true(n >= strlen(text));
	assert_true(memmem(out, n, "RIG", 3) == NULL);
}

static void test_output_capacity(void **state)
{
	uint8_t in[100], out[10];

	(void)state;
	memset(in, 'a', sizeof(in));
	assert_int_equal(uart_resample(in, sizeof(in), 9600, 115200, out, sizeof(out)), 10);
	assert_int_equal(uart_resample(in, sizeof(in), 9600, 9600, out, sizeof(out)), 10);
	assert_int_equal(uart_resample(in, 0, 9600, 115200, out, sizeof(out)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_speed_passes_bytes),
		cmocka_unit_test(test_double_speed_receiver),
		cmocka_unit_test(test_slow_receiver_garbles),
		cmocka_unit_test(test_fast_receiver_garbles),
		cmocka_unit_test(test_output_capacity),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
