/*
 * Exclusion on what a board physically is, not only on its name. The board lock (lock.h) is per
 * name and per lock directory: two board files naming one serial adapter under different names,
 * or two rigs with different RIG_LOCK_DIRs (tests isolate themselves that way), would both drive
 * it. So each physical resource a board names is locked too, the same way (flock, holder record,
 * 0666 files in a 1777 directory), and always in the system lock directory, whatever
 * RIG_LOCK_DIR says: the one place every rig of the host sees. The resources: the console device
 * of a serial or pty console (by realpath: /dev/serial/by-id/... and /dev/ttyUSB0 are one), each
 * GPIO line of a gpiod board (chip and offset; "gpiochip0", "/dev/gpiochip0" and "0" are one
 * chip) and its `rig powerd` socket (by realpath). A QEMU board names none: its console socket,
 * QMP socket and disks belong to its run, so rigs in separate lock directories stay isolated.
 */
#ifndef RIG_ENGINE_RESOURCE_LOCK_H
#define RIG_ENGINE_RESOURCE_LOCK_H

#include <limits.h>
#include <stddef.h>

#include "config/board.h"
#include "engine/lock.h"
#include "util/err.h"

#define BOARD_RESOURCE_MAX 6   /* a console, four GPIO lines, a powerd socket */

struct board_resource {
	char what[PATH_MAX + 256];   /* for messages: "board b's serial console /dev/ttyUSB0" */
	char file[256];   /* lock file name: "console-_2fdev_2fttyUSB0.lock" */
};

/* The physical resources board names, at most BOARD_RESOURCE_MAX; returns how many. A path
 * that does not resolve (a device not plugged in yet) is taken as written. */
size_t board_resources(const struct board *board, struct board_resource *out);

/*
 * The board's name lock (board_lock_acquire, in the lock directory), then a lock on each of its
 * resources in resource_dir (NULL = BOARD_LOCK_SYSTEM_DIR), all released by board_lock_release().
 * A resource another rig holds fails with RIG_EXIT_INFRA naming it and the holder: "board b2's
 * serial console /dev/ttyUSB0 is locked by pid 1234 (rig run --board b1 ...) of user alice on
 * host lab1 since ... (lock file ...)", and nothing stays locked.
 */
int board_lock_acquire_board(const struct board *board, const char *resource_dir,
			     struct board_lock **out, struct rig_err *err);

#endif
