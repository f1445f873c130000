/*
 * One board, one driver, for the commands that drive a board one action at a time (`rig power`,
 * `rig console`, `rig lock`): they take the board lock (lock.h) for as long as they act, waiting
 * up to a given time for it, and refuse a board another driver holds.
 *
 * A lease taken with `rig lock --board B -- COMMAND` is shared with COMMAND's own children and
 * with its siblings: the processes one LAVA dispatcher starts for one job (its connection
 * command under `rig lock`, then `rig power` for power_on/off/hard_reset) drive the board
 * together. Everything else, `rig run` above all, is exclusive.
 */
#ifndef RIG_ENGINE_LEASE_H
#define RIG_ENGINE_LEASE_H

#include "engine/lock.h"

struct board_lease {
	struct board_lock *lock;   /* NULL when the board is ours through a shared lease */
	long shared_with;          /* pid of that `rig lock`, else 0 */
};

/*
 * Take the board, waiting up to wait_s seconds (0: refuse at once) and saying once on stderr
 * whom we wait for. Fails with RIG_EXIT_INFRA naming the holder.
 */
int board_lease_take(const char *board_name, double wait_s, struct board_lease *lease,
		     struct rig_err *err);
void board_lease_release(struct board_lease *lease);

/* Whether a holder (pid, command line) is a `rig lock` lease this process may share: the holder
 * is our parent, or has our parent. ppid_of(pid) gives a process's parent (-1: unknown). */
int board_lease_shareable(long holder, const char *holder_cmdline, long self_parent,
			  long (*ppid_of)(long pid));

#endif
