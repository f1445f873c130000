#include "console/cksum.h"

#define POLY 0x04c11db7u

static uint32_t crc_byte(uint32_t crc, uint8_t byte)
{
	crc ^= (uint32_t)byte << 24;
	for (int bit = 0; bit < 8; bit++)
		crc = (crc & 0x80000000u) ? (crc << 1) ^ POLY : crc << 1;
	return crc;
}

void posix_cksum_init(struct posix_cksum *ck)
{
	ck->crc = 0;
	ck->length = 0;
}

void posix_cksum_update(struct posix_cksum *ck, const void *data, size_t len)
{
	const uint8_t *p = data;

	for (size_t i = 0; i < len; i++)
		ck->crc = crc_byte(ck->crc, p[i]);
	ck->length += len;
}

uint32_t posix_cksum_final(const struct posix_cksum *ck)
{
	uint32_t crc = ck->crc;

	/* The length goes in least significant byte first, only as many bytes as it needs. */
	for (uint64_t len = ck->length; len > 0; len >>= 8)
		crc = crc_byte(crc, (uint8_t)(len & 0xff));
	return ~crc;
}

uint32_t posix_cksum(const void *data, size_t len)
{
	struct posix_cksum ck;

	posix_cksum_init(&ck);
	posix_cksum_update(&ck, data, len);
	return posix_cksum_final(&ck);
}
