/* The verifier on real writer output, then negative controls: every kind of damage it must
 * report (cut acknowledged records, a flipped byte, a zeroed record, a torn tail, a misplaced
 * record) and the acknowledgement lines it reads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/ack.h"
#include "lib/journal_verify.h"
#include "lib/journal_writer.h"

#define RECORDS 300u

struct fixture {
	char dir[256];
	char journal[300];
	char acks[300];
	uint64_t acked;     /* last acknowledgement the writer wrote */
};

/* Each test gets a fresh journal of RECORDS records written by the real writer (mmap mode). */
static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	const char *tmp = getenv("TMPDIR");
	struct jw_config cfg;
	struct journal_writer w;
	bool found;

	if (fx == NULL)
		return -1;
	*state = fx;
	snprintf(fx->dir, sizeof(fx->dir), "%s/jv-test-XXXXXX", tmp ? tmp : "/tmp");
	if (mkdtemp(fx->dir) == NULL)
		return -1;
	snprintf(fx->journal, sizeof(fx->journal), "%s/journal", fx->dir);
	snprintf(fx->acks, sizeof(fx->acks), "%s/acks", fx->dir);
	jw_config_defaults(&cfg);
	cfg.path = fx->journal;
	cfg.id = "unit";
	cfg.ack_path = fx->acks;
	cfg.interval_ms = 0;
	cfg.sync_ms = 1;
	cfg.max_records = RECORDS;
	if (jw_open(&w, &cfg, NULL) != 0)
		return -1;
	int rc = jw_run(&w, NULL);

	jw_close(&w);
	if (rc != 0 || ack_log_last_seq(fx->acks, "unit", &fx->acked, &found, NULL) != 0 || !found)
		return -1;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	unlink(fx->journal);
	unlink(fx->acks);
	rmdir(fx->dir);
	free(fx);
	return 0;
}

static off_t slot_offset(uint64_t seq)
{
	return (off_t)((seq - 1) * JR_SIZE);
}

static void overwrite(const struct fixture *fx, off_t offset, const void *bytes, size_t len)
{
	int fd = open(fx->journal, O_WRONLY);

	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, bytes, len, offset), (ssize_t)len);
	assert_int_equal(close(fd), 0);
}

static uint8_t read_byte(const struct fixture *fx, off_t offset)
{
	uint8_t byte = 0;
	int fd = open(fx->journal, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &byte, 1, offset), 1);
	assert_int_equal(close(fd), 0);
	return byte;
}

static void scan(const struct fixture *fx, struct jv_result *res, struct jv_verdict *verdict)
{
	assert_int_equal(jv_scan_path(fx->journal, NULL, res, NULL), 0);
	jv_judge(res, true, fx->acked, verdict);
}

static void test_intact_journal_passes_with_zero_tail(void **state)
{
	struct fixture *fx = *state;
	struct jv_result res;
	struct jv_verdict verdict;

	assert_int_equal(fx->acked, RECORDS);
	scan(fx, &res, &verdict);
	assert_true(res.slots > RECORDS); /* the preallocated chunk is mostly zeros */
	assert_int_equal(res.valid_prefix, RECORDS);
	assert_int_equal(res.torn + res.corrupt + res.holes + res.first_problem, 0);
	assert_string_equal(res.id, "unit");
	assert_true(jv_passed(&verdict));
	assert_int_equal(verdict.lost, 0);
}

static void test_truncation_loses_acknowledged_records(void **state)
{
	struct fixture *fx = *state;
	uint64_t kept = RECORDS - 37;
	struct jv_result res;
	struct jv_verdict verdict;

	assert_int_equal(truncate(fx->journal, slot_offset(kept + 1)), 0);
	scan(fx, &res, &verdict);
	assert_int_equal(res.valid_prefix, kept);
	assert_false(verdict.no_loss);
	assert_false(jv_passed(&verdict));
	assert_int_equal(verdict.lost, fx->acked - kept);
}

static void test_truncation_mid_record_is_a_torn_tail(void **state)
{
	struct fixture *fx = *state;
	uint64_t kept = RECORDS - 1;
	struct jv_result res;
	struct jv_verdict verdict;

	assert_int_equal(truncate(fx->journal, slot_offset(kept + 1) + JR_SIZE / 2), 0);
	scan(fx, &res, &verdict);
	assert_int_equal(res.valid_prefix, kept);
	assert_int_equal(res.torn, 1);
	assert_int_equal(res.corrupt, 0);
	assert_int_equal(res.first_problem, kept + 1);
	assert_int_equal(verdict.lost, fx->acked - kept);
}

static void test_flipped_byte_is_corruption(void **state)
{
	struct fixture *fx = *state;
	uint64_t victim = 100;
	off_t where = slot_offset(victim) + JR_PAYLOAD_OFFSET + 5;
	uint8_t flipped = (uint8_t)(read_byte(fx, where) ^ 0x40);
	struct jv_result res;
	struct jv_verdict verdict;

	overwrite(fx, where, &flipped, 1);
	scan(fx, &res, &verdict);
	assert_int_equal(res.corrupt, 1);
	assert_int_equal(res.holes + res.torn, 0);
	assert_int_equal(res.valid_prefix, victim - 1);
	assert_int_equal(res.records, RECORDS - 1);
	assert_int_equal(res.first_problem, victim);
	assert_false(verdict.integrity);
	assert_false(jv_passed(&verdict));
}

static void test_zeroed_record_is_a_hole(void **state)
{
	struct fixture *fx = *state;
	uint64_t victim = 150;
	uint8_t zeros[JR_SIZE] = {0};
	struct jv_result res;
	struct jv_verdict verdict;

	overwrite(fx, slot_offset(victim), zeros, sizeof(zeros));
	scan(fx, &res, &verdict);
	assert_int_equal(res.holes, 1);
	assert_int_equal(res.corrupt + res.torn, 0);
	assert_int_equal(res.valid_prefix, victim - 1);
	assert_int_equal(res.records, RECORDS - 1);
	assert_false(verdict.no_loss);
	assert_int_equal(verdict.lost, fx->acked - (victim - 1));
	/* Without an acknowledgement to judge by, a hole still fails integrity. */
	jv_judge(&res, false, 0, &verdict);
	assert_false(verdict.integrity);
}

static void test_hole_after_acknowledged_point_is_tolerated(void **state)
{
	struct fixture *fx = *state;
	uint64_t promised = 200;
	uint8_t zeros[JR_SIZE] = {0};
	struct jv_result res;
	struct jv_verdict verdict;

	overwrite(fx, slot_offset(promised + 10), zeros, sizeof(zeros));
	assert_int_equal(jv_scan_path(fx->journal, NULL, &res, NULL), 0);
	jv_judge(&res, true, promised, &verdict);
	assert_int_equal(res.holes, 1);
	assert_true(jv_passed(&verdict));
}

static void test_record_in_the_wrong_slot_is_corruption(void **state)
{
	struct fixture *fx = *state;
	uint8_t rec[JR_SIZE];
	int fd = open(fx->journal, O_RDONLY);
	struct jv_result res;
	struct jv_verdict verdict;

	assert_true(fd >= 0);
	assert_int_equal(pread(fd, rec, sizeof(rec), slot_offset(5)), (ssize_t)sizeof(rec));
	assert_int_equal(close(fd), 0);
	overwrite(fx, slot_offset(6), rec, sizeof(rec));
	scan(fx, &res, &verdict);
	assert_int_equal(res.corrupt, 1);
	assert_int_equal(res.valid_prefix, 5);
}

static void test_bad_tail_record_is_torn_not_corrupt(void **state)
{
	struct fixture *fx = *state;
	uint8_t garbage[JR_SIZE / 2];
	struct jv_result res;
	struct jv_verdict verdict;

	memset(garbage, 0xa5, sizeof(garbage));
	overwrite(fx, slot_offset(RECORDS) + JR_SIZE / 2, garbage, sizeof(garbage));
	scan(fx, &res, &verdict);
	assert_int_equal(res.torn, 1);
	assert_int_equal(res.corrupt, 0);
	assert_int_equal(res.valid_prefix, RECORDS - 1);
}

static void test_report_line(void **state)
{
	struct fixture *fx = *state;
	struct jv_result res;
	struct jv_verdict verdict;
	char line[512];
	unsigned long long prefix, lost;
	char no_loss[8];

	assert_int_equal(truncate(fx->journal, slot_offset(RECORDS)), 0);
	scan(fx, &res, &verdict);
	assert_true(jv_format(&res, &verdict, line, sizeof(line)) < (int)sizeof(line));
	assert_int_equal(sscanf(line, "valid_prefix=%llu", &prefix), 1);
	assert_int_equal(prefix, res.valid_prefix);
	assert_int_equal(sscanf(strstr(line, "no-loss="), "no-loss=%4[a-z] lost=%llu", no_loss, &lost), 2);
	assert_string_equal(no_loss, "fail");
	assert_int_equal(lost, verdict.lost);
}

/* The rig reads the scan back and judges no-loss itself against the acknowledgements it saw:
 * the same numbers, the same verdict. */
static void test_scan_read_back_judges_the_same(void **state)
{
	struct fixture *fx = *state;
	struct jv_result res, back;
	struct jv_verdict here, there;
	char line[512], prefixed[600];

	assert_int_equal(truncate(fx->journal, slot_offset(RECORDS)), 0);
	scan(fx, &res, &here);
	jv_judge(&res, false, 0, &here);
	assert_true(jv_format(&res, &here, line, sizeof(line)) < (int)sizeof(line));
	assert_non_null(strstr(line, " id="));
	snprintf(prefixed, sizeof(prefixed), "journal=nvme-ext4/mmap %s", line);
	assert_true(jv_parse(prefixed, &back));
	assert_string_equal(back.id, res.id);
	assert_int_equal(back.valid_prefix, res.valid_prefix);
	assert_int_equal(back.torn, res.torn);
	jv_judge(&res, true, RECORDS, &here);
	jv_judge(&back, true, RECORDS, &there);
	assert_int_equal(there.no_loss, here.no_loss);
	assert_int_equal(there.lost, here.lost);
	assert_int_equal(there.integrity, here.integrity);
	assert_false(jv_parse("valid_prefix=5 records=5 torn=0", &back));            /* cut short */
	assert_false(jv_parse("valid_prefix=5x records=5 torn=0 corrupt=0 holes=0 first_problem=0",
			      &back));
}

static void test_ack_line_round_trip_and_console_prefix(void **state)
{
	struct ack_line in = {.id = "w1", .seq = 4242, .boottime_ns = 987654321}, out;
	char line[160], console[200];

	(void)state;
	ack_line_format(line, sizeof(line), &in);
	snprintf(console, sizeof(console), "[   12.345678] %s", line);
	assert_true(ack_line_parse(console, &out));
	assert_string_equal(out.id, in.id);
	assert_int_equal(out.seq, in.seq);
	assert_int_equal(out.boottime_ns, in.boottime_ns);
	/* A line cut short on the serial wire must not count. */
	assert_false(ack_line_parse("rig-ack: id=w1 seq=12", &out));
	assert_false(ack_line_parse("rig-ack: id=w1 seq=12 boottime_ns=5x", &out));
	assert_false(ack_line_parse("unrelated kernel line", &out));
}

static void test_ack_log_takes_highest_seq_of_the_id(void **state)
{
	struct fixture *fx = *state;
	FILE *log = fopen(fx->acks, "w");
	uint64_t seq;
	bool found;

	assert_non_null(log);
	fputs("[    1.0] rig-ack: id=a seq=5 boottime_ns=1\n"
	      "[    1.1] rig-ack: id=b seq=900 boottime_ns=2\n"
	      "[    1.2] rig-ack: id=a seq=17 boottime_ns=3\n"
	      "[    1.3] rig-ack: id=a seq=99", log);
	assert_int_equal(fclose(log), 0);
	assert_int_equal(ack_log_last_seq(fx->acks, "a", &seq, &found, NULL), 0);
	assert_true(found);
	assert_int_equal(seq, 17);
	assert_int_equal(ack_log_last_seq(fx->acks, "c", &seq, &found, NULL), 0);
	assert_false(found);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_intact_journal_passes_with_zero_tail, setup, teardown),
		cmocka_unit_test_setup_teardown(test_truncation_loses_acknowledged_records, setup, teardown),
		cmocka_unit_test_setup_teardown(test_truncation_mid_record_is_a_torn_tail, setup, teardown),
		cmocka_unit_test_setup_teardown(test_flipped_byte_is_corruption, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zeroed_record_is_a_hole, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hole_after_acknowledged_point_is_tolerated, setup, teardown),
		cmocka_unit_test_setup_teardown(test_record_in_the_wrong_slot_is_corruption, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_tail_record_is_torn_not_corrupt, setup, teardown),
		cmocka_unit_test_setup_teardown(test_scan_read_back_judges_the_same, setup, teardown),
		cmocka_unit_test_setup_teardown(test_report_line, setup, teardown),
		cmocka_unit_test(test_ack_line_round_trip_and_console_prefix),
		cmocka_unit_test_setup_teardown(test_ack_log_takes_highest_seq_of_the_id, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
