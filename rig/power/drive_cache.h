/* Drives with a volatile write cache on the QEMU board.  Each disk marked volatile_cache is
 * served by an nbdkit: the file plugin on the disk image under the cache filter in writeback
 * mode, with the log filter above it recording every request the guest's kernel sent (writes,
 * FUA, flushes).  QEMU attaches it as an NBD drive on a unix socket in the run directory.
 * Writes reach the image only when the kernel flushes or writes with FUA; the power cut SIGKILLs
 * the nbdkit before QEMU, dropping everything else, as a drive loses its cache with its power.
 * judge/drive_cache.h reads the log. */
#ifndef RIG_POWER_DRIVE_CACHE_H
#define RIG_POWER_DRIVE_CACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "config/board.h"
#include "power/qemu_args.h"
#include "power/qemu_proc.h"
#include "util/err.h"

#define DRIVE_CACHE_MAX_DISKS 16

struct drive_caches {
	struct qemu_proc proc[DRIVE_CACHE_MAX_DISKS];  /* by disk index */
};

/* <run_dir>/nbdkit-<disk_id>.<what>, what being "sock", "log", "pid" or "stderr". */
int drive_cache_path(const char *run_dir, const char *disk_id, const char *what, char *buf,
		     size_t size, struct rig_err *err);
/* Has the board a volatile_cache disk? */
bool drive_cache_any(const struct board_qemu *qemu);
/* The nbdkit command line serving disk d (pure). */
int drive_cache_argv(const struct board_disk *d, const char *run_dir, struct qemu_argv *out,
		     struct rig_err *err);
/* Start one nbdkit per volatile disk and wait until each serves its socket. One still running
 * from an earlier power-on is killed first: what its cache held is lost, as at a power loss.
 * Each start begins a fresh log. */
int drive_cache_start(struct drive_caches *dc, const struct board_qemu *qemu, const char *run_dir,
		      struct rig_err *err);
/* The drives lose power: SIGKILL every volatile disk's nbdkit (ours, or found through its pid
 * file), nothing flushed. */
int drive_cache_cut(struct drive_caches *dc, const struct board_qemu *qemu, const char *run_dir,
		    struct rig_err *err);

#endif
