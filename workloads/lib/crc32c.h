/* CRC-32C (Castagnoli, reflected polynomial 0x82F63B78): the checksum journal records carry.
 * Table-driven and dependency-free so the statically linked workloads need no library. */
#ifndef WORKLOADS_CRC32C_H
#define WORKLOADS_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/* CRC-32C of len bytes at buf. Start with crc32c(0, ...); pass the previous result as crc to
 * continue over a further buffer (crc32c(crc32c(0, a, n), b, m) == crc32c over a||b). */
uint32_t crc32c(uint32_t crc, const void *buf, size_t len);

#endif
