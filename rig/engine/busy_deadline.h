/* A phase deadline that a board still writing to its disks may overrun.
 *
 * A suspend or hibernation that is still syncing is slow, not hung: on the QEMU board under
 * single-threaded TCG, fio and the journal writers leave ~140 MB dirty and the pre-suspend
 * sync alone took 44-59 s of the suspend phase's 60 s (2026-12-05, 3 of 3 suspends "hung").
 * Past its timeout a phase goes on while the board's disks keep completing requests, until
 * they have been quiet for BUSY_QUIET_MS or the phase has taken BUSY_CAP_FACTOR times its
 * timeout. A true hang (CPUs stopped, a freeze deadlocked on writeback) stops the disks too
 * and is declared BUSY_QUIET_MS after the timeout at the latest. Pure: the caller samples. */
#ifndef RIG_ENGINE_BUSY_DEADLINE_H
#define RIG_ENGINE_BUSY_DEADLINE_H

#include <stdbool.h>

#define BUSY_QUIET_MS 10000
#define BUSY_CAP_FACTOR 4

struct busy_deadline {
	long long start_ms, timeout_ms, cap_ms;
	long long last_busy_ms;          /* when the disk counter last moved; -1 never seen */
	unsigned long long last_ops;
	bool have_ops;                   /* the backend reports disk activity */
	long long extended_ms;           /* how far past the timeout the phase was let run */
};

void busy_deadline_start(struct busy_deadline *d, long long now_ms, long long timeout_ms);
/* A reading of the board's cumulative disk requests (reads, writes, flushes). */
void busy_deadline_sample(struct busy_deadline *d, long long now_ms, unsigned long long ops);
/* Has the phase run out of time at now_ms? */
bool busy_deadline_expired(struct busy_deadline *d, long long now_ms);
/* Past the plain timeout (and not expired): the board is being given more time. */
bool busy_deadline_extending(const struct busy_deadline *d, long long now_ms);

#endif
