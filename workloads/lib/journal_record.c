/* Record encoding with explicit little-endian byte order, so files can be checked on any host. */
#include "lib/journal_record.h"

#include <string.h>

#include "lib/crc32c.h"

enum {
	OFF_MAGIC = 0,
	OFF_VERSION = 4,
	OFF_SIZE = 6,
	OFF_SEQ = 8,
	OFF_BOOTTIME = 16,
	OFF_MONOTONIC = 24,
	OFF_ID = 32,
};

_Static_assert(OFF_ID + JR_ID_MAX == JR_PAYLOAD_OFFSET, "id field runs into the payload");
_Static_assert(JR_PAYLOAD_OFFSET + JR_PAYLOAD_SIZE == JR_CRC_OFFSET, "payload runs into the crc");
_Static_assert(JR_CRC_OFFSET + 4 == JR_SIZE, "crc must be the last field");

static void put_le(uint8_t *p, uint64_t v, size_t bytes)
{
	for (size_t i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, size_t bytes)
{
	uint64_t v = 0;

	for (size_t i = 0; i < bytes; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

bool jr_id_valid(const char *id)
{
	size_t len = strlen(id);

	if (len == 0 || len >= JR_ID_MAX)
		return false;
	for (size_t i = 0; i < len; i++) {
		/* The id goes into "key=value" lines: keep it a single token. */
		if (id[i] <= ' ' || id[i] > '~' || id[i] == '=')
			return false;
	}
	return true;
}

/* splitmix64: a well-mixed stream from a 64-bit seed, so neighbouring records differ everywhere. */
static uint64_t splitmix64_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void jr_payload_fill(uint64_t seq, uint8_t payload[JR_PAYLOAD_SIZE])
{
	uint64_t state = seq;
	uint64_t word = 0;

	for (size_t i = 0; i < JR_PAYLOAD_SIZE; i++) {
		if (i % 8 == 0)
			word = splitmix64_next(&state);
		payload[i] = (uint8_t)(word >> (8 * (i % 8)));
	}
}

void jr_encode(const struct jr_record *rec, uint8_t buf[JR_SIZE])
{
	memset(buf, 0, JR_SIZE);
	put_le(buf + OFF_MAGIC, JR_MAGIC, 4);
	put_le(buf + OFF_VERSION, JR_VERSION, 2);
	put_le(buf + OFF_SIZE, JR_SIZE, 2);
	put_le(buf + OFF_SEQ, rec->seq, 8);
	put_le(buf + OFF_BOOTTIME, rec->boottime_ns, 8);
	put_le(buf + OFF_MONOTONIC, rec->monotonic_ns, 8);
	memcpy(buf + OFF_ID, rec->id, strnlen(rec->id, JR_ID_MAX - 1));
	jr_payload_fill(rec->seq, buf + JR_PAYLOAD_OFFSET);
	put_le(buf + JR_CRC_OFFSET, crc32c(0, buf, JR_CRC_OFFSET), 4);
}

static bool all_zero(const uint8_t *buf, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (buf[i] != 0)
			return false;
	}
	return true;
}

enum jr_status jr_decode(const uint8_t buf[JR_SIZE], struct jr_record *out)
{
	uint8_t expected_payload[JR_PAYLOAD_SIZE];

	memset(out, 0, sizeof(*out));
	if (all_zero(buf, JR_SIZE))
		return JR_EMPTY;
	if (get_le(buf + OFF_MAGIC, 4) != JR_MAGIC || get_le(buf + OFF_VERSION, 2) != JR_VERSION ||
	    get_le(buf + OFF_SIZE, 2) != JR_SIZE)
		return JR_BAD_MAGIC;
	out->seq = get_le(buf + OFF_SEQ, 8);
	out->boottime_ns = get_le(buf + OFF_BOOTTIME, 8);
	out->monotonic_ns = get_le(buf + OFF_MONOTONIC, 8);
	memcpy(out->id, buf + OFF_ID, JR_ID_MAX - 1);
	out->id[JR_ID_MAX - 1] = '\0';
	if (crc32c(0, buf, JR_CRC_OFFSET) != (uint32_t)get_le(buf + JR_CRC_OFFSET, 4))
		return JR_BAD_CRC;
	jr_payload_fill(out->seq, expected_payload);
	if (memcmp(expected_payload, buf + JR_PAYLOAD_OFFSET, JR_PAYLOAD_SIZE) != 0)
		return JR_BAD_PAYLOAD;
	return JR_OK;
}

const char *jr_status_name(enum jr_status status)
{
	switch (status) {
	case JR_OK:
		return "ok";
	case JR_EMPTY:
		return "empty";
	case JR_BAD_MAGIC:
		return "bad-magic";
	case JR_BAD_CRC:
		return "bad-crc";
	case JR_BAD_PAYLOAD:
		return "bad-payload";
	}
	return "unknown";
}
