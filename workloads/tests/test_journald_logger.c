/* The journald workload's pure parts: the native-protocol entry it sends, the read-back line it
 * parses (only its own id, never a torn number) and its acknowledgement policy (what was read
 * back, never twice, at most every ack_ns). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "lib/journald_logger.h"

static void test_entry_format(void **state)
{
	char buf[256];
	int n;

	(void)state;
	n = jd_entry_format(buf, sizeof(buf), "nvme-ext4-j1a2", 42);
	assert_true(n > 0);
	assert_int_equal((size_t)n, strlen(buf));
	assert_string_equal(buf, "MESSAGE=rig-jd id=nvme-ext4-j1a2 seq=42\n"
				 "SYSLOG_IDENTIFIER=rig-journald\nPRIORITY=6\n"
				 "RIG_ID=nvme-ext4-j1a2\nRIG_SEQ=42\n");
	assert_int_equal(jd_entry_format(buf, 20, "nvme-ext4-j1a2", 42), -1);   /* does not fit */
}

static void test_line_parse(void **state)
{
	uint64_t seq = 0;

	(void)state;
	assert_true(jd_line_parse("rig-jd id=nvme-ext4-j1a2 seq=17", "nvme-ext4-j1a2", &seq));
	assert_int_equal(seq, 17);
	assert_true(jd_line_parse("rig-jd id=nvme-ext4-j1a2 seq=18\n", "nvme-ext4-j1a2", &seq));
	assert_int_equal(seq, 18);
	/* another writer, a prefix of the id, a torn or empty number, seq 0, another line */
	assert_false(jd_line_parse("rig-jd id=nvme-ext4-jfff seq=19", "nvme-ext4-j1a2", &seq));
	assert_false(jd_line_parse("rig-jd id=nvme-ext4-j1a2x seq=19", "nvme-ext4-j1a2", &seq));
	assert_false(jd_line_parse("rig-jd id=nvme-ext4-j1a2 seq=1x", "nvme-ext4-j1a2", &seq));
	assert_false(jd_line_parse("rig-jd id=nvme-ext4-j1a2 seq=", "nvme-ext4-j1a2", &seq));
	assert_false(jd_line_parse("rig-jd id=nvme-ext4-j1a2 seq=0", "nvme-ext4-j1a2", &seq));
	assert_false(jd_line_parse("Started rig journald workload", "nvme-ext4-j1a2", &seq));
	assert_int_equal(seq, 18);
}

static void test_acker_policy(void **state)
{
	struct jd_acker a = { .ack_ns = 100 };
	uint64_t seq = 0;

	(void)state;
	assert_false(jd_acker_due(&a, 1000, &seq));           /* nothing read back yet */
	jd_acker_read(&a, 3);
	assert_true(jd_acker_due(&a, 1000, &seq));
	assert_int_equal(seq, 3);
	assert_false(jd_acker_due(&a, 1050, &seq));           /* nothing new */
	jd_acker_read(&a, 5);
	assert_false(jd_acker_due(&a, 1050, &seq));           /* too soon */
	jd_acker_read(&a, 4);                                 /* never backwards */
	assert_true(jd_acker_due(&a, 1100, &seq));
	assert_int_equal(seq, 5);
	assert_int_equal(a.acked, 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_entry_format),
		cmocka_unit_test(test_line_parse),
		cmocka_unit_test(test_acker_policy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
