/* How the journal writer gets records into its file: a shared mmap grown with fallocate and
 * flushed with msync (what systemd-journald does), or pwrite + fdatasync. */
#ifndef WORKLOADS_JOURNAL_BACKEND_H
#define WORKLOADS_JOURNAL_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "lib/journal_record.h"
#include "lib/telemetry.h"
#include "lib/wl_util.h"

struct journal_backend;

struct journal_backend_ops {
	const char *name;
	/* Create (truncating) the journal file. 0 or -errno. */
	int (*open)(struct journal_backend *b, const char *path, struct wl_err *err);
	/* Put the record for seq at the end of the file. On failure nothing is appended and the same
	 * record may be retried. 0 or -errno. */
	int (*append)(struct journal_backend *b, uint64_t seq, const uint8_t rec[JR_SIZE]);
	/* Make every appended byte durable. 0 or -errno (then durability of the unsynced range is
	 * unknown, whatever later calls report). */
	int (*sync)(struct journal_backend *b, uint64_t seq);
	void (*close)(struct journal_backend *b);
};

struct journal_backend {
	const struct journal_backend_ops *ops;
	struct tel_writer *tel;   /* every syscall-level operation is timed into it */
	int fd;
	uint64_t end;             /* bytes appended */
	uint64_t synced;          /* bytes known durable */
	/* mmap backend only */
	uint64_t allocated;       /* file size reached with fallocate */
	uint64_t chunk;           /* growth step */
	uint8_t *map;
	size_t map_len;
};

extern const struct journal_backend_ops journal_backend_mmap_ops;
extern const struct journal_backend_ops journal_backend_write_ops;

/* Set up b for ops (not yet opened); chunk is the mmap backend's fallocate step in bytes. */
void journal_backend_init(struct journal_backend *b, const struct journal_backend_ops *ops,
			  struct tel_writer *tel, uint64_t chunk);

/* Helpers for the backends: time one operation into the telemetry. */
void journal_backend_op_begin(struct journal_backend *b, enum tel_op_kind kind, uint64_t seq);
void journal_backend_op_end(struct journal_backend *b, int err);

#endif
