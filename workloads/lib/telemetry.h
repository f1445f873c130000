/* Stall telemetry: start/end CLOCK_BOOTTIME stamps of every writer operation, kept in a small
 * mmap'd file on tmpfs so it survives the writer (and can be read while the writer is blocked).
 *
 * File layout (native byte order: written and read on the same board):
 *   struct tel_header
 *   struct tel_entry slow[slow_capacity]     ring of operations slower than slow_threshold_ns
 *                                            or that failed (the ones a stall verdict needs)
 *   struct tel_entry recent[recent_capacity] ring of the most recent operations, whatever their speed
 * An operation can sit in both rings; op_id identifies it. op_id 0 marks a never-used slot.
 */
#ifndef WORKLOADS_TELEMETRY_H
#define WORKLOADS_TELEMETRY_H

#include <stddef.h>
#include <stdint.h>

#include "lib/wl_util.h"

#define TEL_MAGIC 0x4c455452u   /* "RTEL" */
#define TEL_VERSION 1u
#define TEL_SLOW_THRESHOLD_NS 1000000ull
#define TEL_SLOW_CAPACITY 1024u
#define TEL_RECENT_CAPACITY 256u

enum tel_op_kind {
	TEL_OP_STORE = 1,     /* record copied into the shared mapping (may fault on a frozen fs) */
	TEL_OP_GROW = 2,      /* fallocate of the next chunk + remap */
	TEL_OP_MSYNC = 3,
	TEL_OP_WRITE = 4,     /* pwrite of one record */
	TEL_OP_FDATASYNC = 5,
};

struct tel_entry {
	uint64_t op_id;       /* 1, 2, 3... in the order operations started */
	uint64_t start_ns;    /* CLOCK_BOOTTIME */
	uint64_t end_ns;
	uint64_t seq;         /* journal sequence number the operation was about */
	uint32_t kind;        /* enum tel_op_kind */
	int32_t err;          /* errno of a failed operation, 0 on success */
};

struct tel_header {
	uint32_t magic;
	uint16_t version;
	uint16_t entry_size;
	uint32_t slow_capacity;
	uint32_t recent_capacity;
	uint64_t slow_threshold_ns;
	uint64_t total_ops;          /* operations completed (the last op_id handed out) */
	uint64_t slow_total;         /* entries ever put in the slow ring */
	uint64_t error_total;        /* failed operations */
	uint64_t longest_ns;         /* longest completed operation */
	uint64_t inflight_start_ns;  /* start of the operation in progress, 0 when idle */
	uint64_t inflight_seq;
	uint32_t inflight_kind;
	uint32_t reserved;
};

/* The writing side. fd < 0 means "telemetry disabled": every call is then a no-op. */
struct tel_writer {
	int fd;
	void *map;
	size_t map_size;
	struct tel_header *hdr;
	struct tel_entry *slow;
	struct tel_entry *recent;
};

/* A disabled writer (no file). */
void tel_writer_init_disabled(struct tel_writer *tel);

/* Create (truncating) the telemetry file at path with the given ring sizes. 0 or -errno. */
int tel_writer_open(struct tel_writer *tel, const char *path, uint32_t slow_capacity,
		    uint32_t recent_capacity, struct wl_err *err);

/* Mark an operation as started (visible to a reader as in flight). */
void tel_op_begin(struct tel_writer *tel, enum tel_op_kind kind, uint64_t seq, uint64_t start_ns);

/* Complete the operation begun last; err is its errno (0 = success). */
void tel_op_end(struct tel_writer *tel, uint64_t end_ns, int err);

void tel_writer_close(struct tel_writer *tel);

/* The reading side: the header and every retained operation, deduplicated, sorted by op_id. */
struct tel_snapshot {
	struct tel_header hdr;
	struct tel_entry *entries;
	size_t count;
};

/* Read and check the telemetry file at path. 0 or -errno (-EINVAL for a malformed file). */
int tel_snapshot_load(const char *path, struct tel_snapshot *snap, struct wl_err *err);

void tel_snapshot_free(struct tel_snapshot *snap);

const char *tel_op_kind_name(uint32_t kind);

#endif
