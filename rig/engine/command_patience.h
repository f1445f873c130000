/* Board commands on a host that starves the board of CPU: past its timeout a command waits on
 * while QEMU's threads wait on the host's run queues (judge/starvation.h decides from samples of
 * the host's accounting, engine/host_cpu.h). A board on real hardware, or a QEMU the host
 * serves, keeps the plain timeout. */
#ifndef RIG_ENGINE_COMMAND_PATIENCE_H
#define RIG_ENGINE_COMMAND_PATIENCE_H

#include <signal.h>

#include "console/agent.h"
#include "engine/host_cpu.h"
#include "judge/starvation.h"
#include "power/power.h"

struct command_patience {
	struct agent_patience agent;   /* what agent_run asks */
	struct power *power;
	const volatile sig_atomic_t *stop;   /* set: no more time (Ctrl-C ends the wait) */
	struct host_cpu_sample from;   /* when the attempt was sent */
	struct host_cpu_sample to;     /* the last sample past its timeout */
	long long decided_at_ms;       /* the last fresh decision (one /proc sample a second) */
	bool more;
};

/* Commands to the board power runs; stop (may be NULL) is rig run's signal flag. */
void command_patience_init(struct command_patience *p, struct power *power,
			   const volatile sig_atomic_t *stop);

/* The window of the last attempt, sent to its last sample (the host's view of an attempt that
 * timed out: judge/starvation.h's starve_judge_infra judges it). False when there is none (a
 * board not on this host, a reply in time). */
bool command_patience_window(const struct command_patience *p, struct starve_window *w);

#endif
