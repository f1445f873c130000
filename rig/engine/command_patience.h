/* Board commands on a host that starves the board of CPU: past its timeout a command waits on
 * while QEMU's threads wait on the host's run queues (judge/starvation.h decides from samples of
 * the host's accounting, engine/host_cpu.h). A board on real hardware, or a QEMU the host
 * serves, keeps the plain timeout. */
#ifndef RIG_ENGINE_COMMAND_PATIENCE_H
#define RIG_ENGINE_COMMAND_PATIENCE_H

#include "console/agent.h"
#include "engine/host_cpu.h"
#include "power/power.h"

struct command_patience {
	struct agent_patience agent;   /* what agent_run asks */
	struct power *power;
	struct host_cpu_sample from;   /* when the command was sent */
	long long decided_at_ms;       /* the last fresh decision (one /proc sample a second) */
	bool more;
	bool extended;                 /* out: the command was given time past its timeout */
};

/* A command is about to be sent to the board power runs. */
void command_patience_begin(struct command_patience *p, struct power *power);

#endif
