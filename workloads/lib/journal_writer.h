/* The journal writer: appends records at a steady pace, makes them durable on its own schedule
 * and acknowledges out of band only what a successful msync/fdatasync covered.
 * Tests drive it step by step (jw_append_next, jw_sync); the program runs jw_run. */
#ifndef WORKLOADS_JOURNAL_WRITER_H
#define WORKLOADS_JOURNAL_WRITER_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "lib/ack.h"
#include "lib/journal_backend.h"
#include "lib/telemetry.h"
#include "lib/wl_util.h"

enum jw_mode {
	JW_MODE_MMAP,
	JW_MODE_WRITE,
};

struct jw_config {
	const char *path;            /* journal file (created, truncated) */
	const char *id;              /* writer id, jr_id_valid() */
	enum jw_mode mode;
	unsigned interval_ms;        /* pace: one record every interval_ms (0 = as fast as possible) */
	unsigned sync_ms;            /* msync/fdatasync when this much time passed (0 = every record) */
	unsigned ack_every;          /* acknowledge after every Nth successful sync (0 = never by count) */
	unsigned ack_ms;             /* ... or when this long passed since the last ack (0 = off) */
	bool ack_completed;          /* acknowledge completed (stored) records, not just durable ones:
	                              * what an application believes is logged; only a sync by the
	                              * kernel before sleeping (the filesystem freeze) keeps them */
	const char *telemetry_path;  /* NULL: no telemetry */
	const char *ack_path;        /* NULL: /dev/kmsg */
	unsigned duration_s;         /* CLOCK_MONOTONIC seconds to run (0 = until stopped) */
	uint64_t max_records;        /* stop after this many records (0 = no limit) */
	uint64_t chunk_bytes;        /* mmap mode: fallocate step */
};

struct journal_writer {
	struct jw_config cfg;
	struct journal_backend backend;
	struct tel_writer tel;
	struct ack_sink acks;
	uint64_t appended_seq;       /* last record appended */
	uint64_t durable_seq;        /* last record a sync reported durable */
	uint64_t acked_seq;          /* last record acknowledged */
	bool sync_failed;            /* a sync failed once: acknowledge nothing ever again */
	unsigned syncs_since_ack;
	uint64_t last_sync_ns;       /* CLOCK_MONOTONIC */
	uint64_t last_ack_ns;        /* CLOCK_MONOTONIC */
	uint64_t errors;             /* failed appends and syncs */
	int last_errno;
	uint64_t ack_failures;       /* acknowledgements that could not be written */
};

void jw_config_defaults(struct jw_config *cfg);

/* Check cfg, create the journal, telemetry and acknowledgement sink. 0 or -errno. */
int jw_open(struct journal_writer *w, const struct jw_config *cfg, struct wl_err *err);

/* Append the next record (appended_seq + 1). A failure is recorded and the same seq is retried
 * next time. 0 or -errno. */
int jw_append_next(struct journal_writer *w);

/* Sync everything appended, then acknowledge per the ack policy (always, if force_ack).
 * 0 or -errno of the sync. */
int jw_sync(struct journal_writer *w, bool force_ack);

/* Write at the configured pace until *stop, the duration or max_records; then a final sync with
 * acknowledgement. 0, or -errno when the final sync failed. */
int jw_run(struct journal_writer *w, const volatile sig_atomic_t *stop);

void jw_close(struct journal_writer *w);

#endif
