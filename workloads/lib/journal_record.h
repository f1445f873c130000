/* The journal record: a fixed-size, self-checking unit the writer appends and the verifier scans.
 *
 * Layout (little-endian, 128 bytes; record k of a file lives at offset (k - 1) * 128):
 *   0  u32 magic "JRNL"        4  u16 version     6  u16 record size
 *   8  u64 sequence number (starts at 1)
 *  16  u64 CLOCK_BOOTTIME ns  24  u64 CLOCK_MONOTONIC ns
 *  32  char[16] writer id, NUL padded
 *  48  u8[76] payload, regenerable from the sequence number
 * 124  u32 crc32c of bytes 0..123
 */
#ifndef WORKLOADS_JOURNAL_RECORD_H
#define WORKLOADS_JOURNAL_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JR_MAGIC 0x4c4e524au /* "JRNL" in file byte order */
#define JR_VERSION 1u
#define JR_SIZE 128u
#define JR_ID_MAX 16u        /* bytes of the id field, including the terminating NUL */
#define JR_PAYLOAD_OFFSET 48u
#define JR_PAYLOAD_SIZE 76u
#define JR_CRC_OFFSET 124u

struct jr_record {
	uint64_t seq;
	uint64_t boottime_ns;
	uint64_t monotonic_ns;
	char id[JR_ID_MAX];   /* at most JR_ID_MAX - 1 characters */
};

/* Why a slot failed to decode. */
enum jr_status {
	JR_OK = 0,
	JR_EMPTY,          /* every byte zero: preallocated, never written */
	JR_BAD_MAGIC,      /* magic, version or size wrong */
	JR_BAD_CRC,
	JR_BAD_PAYLOAD,    /* crc fine but the payload is not the one its sequence number implies */
};

/* True when id fits the record's id field (1..15 printable characters, no spaces or '='). */
bool jr_id_valid(const char *id);

/* Fill the payload bytes for seq: a deterministic pattern, so a verifier can regenerate it. */
void jr_payload_fill(uint64_t seq, uint8_t payload[JR_PAYLOAD_SIZE]);

/* Serialise rec into buf (JR_SIZE bytes), computing the crc. rec->id must satisfy jr_id_valid. */
void jr_encode(const struct jr_record *rec, uint8_t buf[JR_SIZE]);

/* Parse and check one slot. out is filled whenever the header fields could be read
 * (status JR_OK, JR_BAD_CRC or JR_BAD_PAYLOAD). */
enum jr_status jr_decode(const uint8_t buf[JR_SIZE], struct jr_record *out);

/* A short word for status, for messages. */
const char *jr_status_name(enum jr_status status);

#endif
