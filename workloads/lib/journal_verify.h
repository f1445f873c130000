/* The journal verifier: scans a writer's file slot by slot (record k at offset (k-1)*128) and
 * checks it against the last acknowledged sequence number.
 *
 * Each slot is one of:
 *   valid   magic, crc32c, payload, id all right and its seq is the slot's position
 *   empty   all zero: preallocated and never written
 *   bad     anything else
 * Classification of the non-valid slots depends on what follows them:
 *   hole    an empty slot with a valid record somewhere after it
 *   corrupt a bad slot with a valid record somewhere after it (bytes the writer never wrote there)
 *   torn    a bad slot after the last valid record (an interrupted write at the tail)
 * Empty slots after the last valid record are the normal preallocated tail. */
#ifndef WORKLOADS_JOURNAL_VERIFY_H
#define WORKLOADS_JOURNAL_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/journal_record.h"
#include "lib/wl_util.h"

struct jv_result {
	uint64_t valid_prefix;   /* last seq such that records 1..seq are all valid */
	uint64_t records;        /* valid records anywhere */
	uint64_t torn;
	uint64_t corrupt;
	uint64_t holes;
	uint64_t slots;          /* slots scanned (a trailing partial slot counts) */
	uint64_t first_problem;  /* seq (slot position) of the first hole/corrupt/torn slot, 0 if none */
	char id[JR_ID_MAX];      /* the writer id the records were checked against */
};

struct jv_verdict {
	bool has_acked;
	uint64_t acked;
	bool no_loss;            /* valid_prefix >= acked */
	uint64_t lost;           /* acked - valid_prefix when positive */
	bool integrity;          /* no corrupt records and, without an ack to judge by, no holes */
};

/* Scan the open file fd. expected_id NULL: take the id of the first valid record. 0 or -errno. */
int jv_scan_fd(int fd, const char *expected_id, struct jv_result *out, struct wl_err *err);

/* jv_scan_fd on path. */
int jv_scan_path(const char *path, const char *expected_id, struct jv_result *out,
		 struct wl_err *err);

/* Judge a scan; has_acked false judges integrity only. */
void jv_judge(const struct jv_result *res, bool has_acked, uint64_t acked, struct jv_verdict *out);

/* True when every verdict passed. */
bool jv_passed(const struct jv_verdict *verdict);

/* "valid_prefix=... records=... torn=... corrupt=... holes=... first_problem=...", then
 * " acked=N no-loss=pass|fail lost=L" when judged against an ack, then " integrity=pass|fail",
 * then " id=NAME" when a valid record named the writer. No newline. Returns what snprintf
 * returns. */
int jv_format(const struct jv_result *res, const struct jv_verdict *verdict, char *buf, size_t len);

/* A scan read back from that line (the rig judges no-loss itself, with jv_judge(), against the
 * acknowledgements it saw): true when every scan key is there and whole. */
bool jv_parse(const char *line, struct jv_result *out);

#endif
