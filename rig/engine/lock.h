/*
 * One rig per board: an flock on <lock_dir>/<board>.lock, held for the life of the run. The
 * kernel drops the flock when the holder exits, however it exits, so a stale file never blocks.
 * The holder writes its pid, user, host, command line and start time into the file so a second
 * rig can say who is in the way (lock_holder.h: the kernel's /proc/locks when it could not).
 * Files are 0666 in a 1777 directory: any lab user can lock any board, whoever made the file.
 */
#ifndef RIG_ENGINE_LOCK_H
#define RIG_ENGINE_LOCK_H

#include <stddef.h>

#include "util/err.h"

#define BOARD_LOCK_SYSTEM_DIR "/run/lock/suspend-rig"

struct board_lock;

/*
 * The lock directory: $RIG_LOCK_DIR if set, else /run/lock/suspend-rig, the one place all rigs of
 * a host share (no per-user fallback: it would exclude nobody). Created 1777 when missing.
 */
int board_lock_dir(char *buf, size_t len, struct rig_err *err);

/*
 * Take the board's lock without waiting (lock_dir NULL = board_lock_dir()). When another process
 * holds it, fails with RIG_EXIT_INFRA: "board qemu is locked by pid 1234 (rig run --board qemu)
 * of user alice on host lab1 since 2026-12-03 13:40:02 (lock file ...)". With a lock directory
 * other than the system one, warns on stderr when the system one holds the board. The
 * descriptor is close-on-exec, so programs the rig starts (QEMU) do not keep the board locked
 * after the rig is gone.
 */
int board_lock_acquire(const char *board_name, const char *lock_dir, struct board_lock **out,
		       struct rig_err *err);
/*
 * Also hold the lock file dir/file (dir created 1777 like a lock directory) for what ("board b's
 * serial console /dev/ttyUSB0"), recording board in the holder's record; busy, fails like
 * board_lock_acquire() naming what and the holder. Released with lock (engine/resource_lock.h).
 */
int board_lock_add(struct board_lock *lock, const char *dir, const char *file, const char *what,
		   const char *board, struct rig_err *err);
/* Release and free, with every lock added to it; NULL is fine. */
void board_lock_release(struct board_lock *lock);
const char *board_lock_path(const struct board_lock *lock);

/* Keep the lock across exec(): the program rig execs holds the board until it exits (`rig lock`). */
int board_lock_keep_on_exec(struct board_lock *lock, struct rig_err *err);

/* Who holds the board's lock, from its lock file: 0 and the holder's pid and command line, or -1
 * when the file names no live process. Ask it after board_lock_acquire() failed. */
int board_lock_holder(const char *board_name, const char *lock_dir, long *pid, char *cmdline,
		      size_t size);

#endif
