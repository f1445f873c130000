/* Waiting for the board with a deadline while every console line keeps being read. */
#ifndef RIG_ENGINE_WAIT_H
#define RIG_ENGINE_WAIT_H

#include <stdbool.h>

#include "engine/ctx.h"

enum wait_result {
	WAIT_DONE,       /* the condition held */
	WAIT_REPLIED,    /* the agent's reply finished first */
	WAIT_TIMEOUT,
	WAIT_ERROR,
	WAIT_STOPPED,    /* Ctrl-C */
};

enum wait_for {
	WAIT_FOR_REPLY,       /* only the reply */
	WAIT_FOR_SUSPENDED,   /* the board went to sleep (QMP SUSPEND, or the console's S-state line) */
	WAIT_FOR_WATCH,       /* a line with the session's watched substring (s2idle entry) */
	WAIT_FOR_POWER_OFF,   /* the board switched itself off (hibernation) */
	WAIT_FOR_OFF_OR_ASLEEP, /* switched off or asleep (a hibernation in any mode: which one,
				 * power_status says) */
	WAIT_FOR_AGENT_READY, /* a fresh boot's agent */
};

/* Wait up to timeout_ms for what, pumping the console into reply (may be NULL). since is the
 * wall_clock_seconds() the step started (events before it do not count: the console and QEMU
 * stamp theirs with the wall clock). */
enum wait_result wait_board(struct engine_ctx *ctx, enum wait_for what, double since,
			    long long timeout_ms, struct agent_reply *reply, struct rig_err *err);

/* wait_board() for a phase that writes to the disks (suspend, hibernate): past timeout_ms it goes
 * on while the board's disks keep completing requests (engine/busy_deadline.h), saying so once;
 * ctx->last_wait_extended_ms tells by how much. Backends that cannot see the disks (real
 * boards) get the plain timeout. */
enum wait_result wait_board_writing(struct engine_ctx *ctx, enum wait_for what, double since,
				    long long timeout_ms, struct agent_reply *reply,
				    struct rig_err *err);

/* Let time pass (the board sleeps) while reading the console. */
enum wait_result wait_idle(struct engine_ctx *ctx, long long ms, struct agent_reply *reply,
			   struct rig_err *err);

#endif
