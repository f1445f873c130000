/* A volatile drive cache's account of one power-on (power/drive_cache.h): the nbdkit log
 * filter's lines, fed one by one, tell which requests the guest's kernel sent the drive.  From
 * them: the flushes and FUA writes it sent, and the 4 KiB blocks its cache held unflushed
 * (written without FUA and not flushed since) at a mark (the rig asking the board to sleep) and
 * at the end of the log (the power cut: what the drive lost).  Pure: no I/O. */
#ifndef RIG_JUDGE_DRIVE_CACHE_H
#define RIG_JUDGE_DRIVE_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "judge/judge.h"
#include "util/err.h"

#define DRIVE_CACHE_BLOCK 4096u
#define DRIVE_CACHE_PENDING 64      /* flushes in flight at once (QEMU sends one at a time) */

struct drive_cache_counts {
	unsigned long writes, fua_writes, flushes;   /* requests the kernel sent */
};

struct drive_cache_log {
	uint64_t size;                  /* the export's size (its Connect line); 0 before it */
	uint32_t *dirty;                /* per block: the request that dirtied it, 0 = clean */
	uint32_t *listed;               /* blocks that may be dirty, each once */
	uint8_t *onlist;                /* per block: in listed */
	size_t n_listed;
	unsigned long n_dirty;          /* dirty blocks now */
	uint32_t seq;                   /* requests seen */
	struct { uint64_t id; uint32_t seq; } pending[DRIVE_CACHE_PENDING];  /* flushes sent */
	size_t n_pending;
	bool marked;
	unsigned long dirty_at_mark;
	struct drive_cache_counts before, after;     /* requests before and after the mark */
	double split_at;                /* wall clock (unix s) splitting what follows the mark, 0 none */
	unsigned long flushes_after_split;
	unsigned long bad_lines;        /* request lines it could not read */
};

void drive_cache_log_init(struct drive_cache_log *log);
void drive_cache_log_free(struct drive_cache_log *log);
/* One line of the log (without or with its newline). -1 only when out of memory. */
int drive_cache_log_feed(struct drive_cache_log *log, const char *line, struct rig_err *err);
/* What follows happened after the mark. */
void drive_cache_log_mark(struct drive_cache_log *log);
/* Split the flushes after the mark at a wall-clock time (unix seconds; the log's stamps are the
 * host's local time): the board froze its filesystems before it, suspended its devices after. */
void drive_cache_log_split(struct drive_cache_log *log, double wall);

/* Measurements of disk_id (stored under it as their subject): drive_flushes_boot (flushes from
 * power-on to the mark), drive_flushes_sleep and drive_fua_writes_sleep (from the mark to the
 * cut), with a split drive_flushes_freeze and drive_flushes_devices (before and after it),
 * drive_dirty_at_sleep (blocks unflushed at the mark) and drive_dirty_dropped (at the cut). A
 * log without its Connect line (the drive never served the board) gives none. */
int judge_drive_cache(struct judgement *j, const char *disk_id, const struct drive_cache_log *log,
		      struct rig_err *err);

#endif
