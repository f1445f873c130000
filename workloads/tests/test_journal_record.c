/* Journal record encoding: round trip and every way decoding can refuse a slot. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/crc32c.h"
#include "lib/journal_record.h"

static struct jr_record sample(uint64_t seq)
{
	struct jr_record rec = {.seq = seq, .boottime_ns = 123456789012ull + seq,
				.monotonic_ns = 98765432100ull + seq};

	memcpy(rec.id, "writer-1", sizeof("writer-1"));
	return rec;
}

static void test_round_trip(void **state)
{
	struct jr_record in = sample(42), out;
	uint8_t buf[JR_SIZE];

	(void)state;
	jr_encode(&in, buf);
	assert_int_equal(jr_decode(buf, &out), JR_OK);
	assert_int_equal(out.seq, in.seq);
	assert_int_equal(out.boottime_ns, in.boottime_ns);
	assert_int_equal(out.monotonic_ns, in.monotonic_ns);
	assert_string_equal(out.id, in.id);
}

static void test_layout_is_little_endian_with_trailing_crc(void **state)
{
	struct jr_record in = sample(0x0102030405060708ull);
	uint8_t buf[JR_SIZE];
	uint32_t stored;

	(void)state;
	jr_encode(&in, buf);
	assert_memory_equal(buf, "JRNL", 4);
	assert_int_equal(buf[8], 0x08);
	assert_int_equal(buf[15], 0x01);
	stored = (uint32_t)buf[124] | (uint32_t)buf[125] << 8 | (uint32_t)buf[126] << 16 |
		 (uint32_t)buf[127] << 24;
	assert_int_equal(stored, crc32c(0, buf, JR_CRC_OFFSET));
}

static void test_payload_regenerates_and_differs_by_seq(void **state)
{
	uint8_t a[JR_PAYLOAD_SIZE], b[JR_PAYLOAD_SIZE], c[JR_PAYLOAD_SIZE];

	(void)state;
	jr_payload_fill(7, a);
	jr_payload_fill(7, b);
	jr_payload_fill(8, c);
	assert_memory_equal(a, b, sizeof(a));
	assert_memory_not_equal(a, c, sizeof(a));
}

static void test_all_zero_slot_is_empty(void **state)
{
	uint8_t buf[JR_SIZE] = {0};
	struct jr_record out;

	(void)state;
	assert_int_equal(jr_decode(buf, &out), JR_EMPTY);
}

static void test_bad_magic(void **state)
{
	struct jr_record in = sample(3), out;
	uint8_t buf[JR_SIZE];

	(void)state;
	jr_encode(&in, buf);
	buf[0] ^= 0x20;
	assert_int_equal(jr_decode(buf, &out), JR_BAD_MAGIC);
}

static void test_any_flipped_bit_fails_the_crc(void **state)
{
	struct jr_record in = sample(9), out;
	uint8_t buf[JR_SIZE];

	(void)state;
	/* Header bytes are checked before the crc; everything after them must trip the crc. */
	for (size_t byte = 8; byte < JR_SIZE; byte++) {
		jr_encode(&in, buf);
		buf[byte] ^= 0x10;
		assert_int_equal(jr_decode(buf, &out), JR_BAD_CRC);
	}
}

static void test_payload_of_another_seq_is_refused(void **state)
{
	struct jr_record in = sample(11), out;
	uint8_t buf[JR_SIZE];

	(void)state;
	jr_encode(&in, buf);
	jr_payload_fill(12, buf + JR_PAYLOAD_OFFSET);
	uint32_t crc = crc32c(0, buf, JR_CRC_OFFSET);

	for (int i = 0; i < 4; i++)
		buf[JR_CRC_OFFSET + i] = (uint8_t)(crc >> (8 * i));
	assert_int_equal(jr_decode(buf, &out), JR_BAD_PAYLOAD);
}

static void test_id_rules(void **state)
{
	(void)state;
	assert_true(jr_id_valid("w1"));
	assert_true(jr_id_valid("nvme-ext4.mmap"));
	assert_false(jr_id_valid(""));
	assert_false(jr_id_valid("has space"));
	assert_false(jr_id_valid("a=b"));
	assert_false(jr_id_valid("sixteen-chars-xx"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_layout_is_little_endian_with_trailing_crc),
		cmocka_unit_test(test_payload_regenerates_and_differs_by_seq),
		cmocka_unit_test(test_all_zero_slot_is_empty),
		cmocka_unit_test(test_bad_magic),
		cmocka_unit_test(test_any_flipped_bit_fails_the_crc),
		cmocka_unit_test(test_payload_of_another_seq_is_refused),
		cmocka_unit_test(test_id_rules),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
