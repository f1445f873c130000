/* The POSIX cksum CRC (IEEE 802.3 polynomial, MSB first, length appended, complemented),
 * the checksum the DUT agent puts on each reply. `printf 123456789 | cksum` = 930766865. */
#ifndef RIG_CONSOLE_CKSUM_H
#define RIG_CONSOLE_CKSUM_H

#include <stddef.h>
#include <stdint.h>

struct posix_cksum {
	uint32_t crc;
	uint64_t length;
};

void posix_cksum_init(struct posix_cksum *ck);
void posix_cksum_update(struct posix_cksum *ck, const void *data, size_t len);
uint32_t posix_cksum_final(const struct posix_cksum *ck);
uint32_t posix_cksum(const void *data, size_t len);

#endif
