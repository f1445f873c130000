/* The QEMU board's disk activity from a query-blockstats reply (power/blockstats.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "power/blockstats.h"

static int ops_of(const char *text, unsigned long long *ops)
{
	json_t *j = json_loads(text, 0, NULL);
	int rc;

	assert_non_null(j);
	rc = blockstats_ops(j, ops);
	json_decref(j);
	return rc;
}

/* Trimmed from QEMU 7.2's reply for the board's NVMe and AHCI disks. */
static void test_sums_devices_not_parents(void **state)
{
	unsigned long long ops = 0;

	(void)state;
	assert_int_equal(ops_of("[{\"device\": \"nvme0\", \"stats\": {\"rd_operations\": 10, "
				"\"wr_operations\": 200, \"flush_operations\": 3, \"wr_bytes\": 9},"
				" \"parent\": {\"stats\": {\"rd_operations\": 10, \"wr_operations\": 200,"
				" \"flush_operations\": 3}}},"
				" {\"device\": \"sata0\", \"stats\": {\"rd_operations\": 1, "
				"\"wr_operations\": 2, \"flush_operations\": 4}}]", &ops), 0);
	assert_int_equal(ops, 10 + 200 + 3 + 1 + 2 + 4);
}

static void test_no_devices_is_zero(void **state)
{
	unsigned long long ops = 77;

	(void)state;
	assert_int_equal(ops_of("[]", &ops), 0);
	assert_int_equal(ops, 0);
}

static void test_malformed_replies_refused(void **state)
{
	unsigned long long ops;

	(void)state;
	assert_int_equal(ops_of("{}", &ops), -1);
	assert_int_equal(ops_of("[{\"device\": \"nvme0\"}]", &ops), -1);
	assert_int_equal(ops_of("[{\"stats\": {\"rd_operations\": 1, \"wr_operations\": \"2\", "
				"\"flush_operations\": 0}}]", &ops), -1);
	assert_int_equal(ops_of("[{\"stats\": {\"rd_operations\": -1, \"wr_operations\": 2, "
				"\"flush_operations\": 0}}]", &ops), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sums_devices_not_parents),
		cmocka_unit_test(test_no_devices_is_zero),
		cmocka_unit_test(test_malformed_replies_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
