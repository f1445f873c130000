/* Running shell commands on the board through the DUT agent on its console
 * (workloads/agent/rig-agent.sh; reply format in console/agent_reply.h). */
#ifndef RIG_CONSOLE_AGENT_H
#define RIG_CONSOLE_AGENT_H

#include "console/agent_reply.h"
#include "console/console.h"

/* The board's tty reads requests in canonical mode (4095-byte lines): the base64 request
 * must fit, so commands are limited to this many bytes. */
#define AGENT_MAX_COMMAND 2800

/* "@@RIG? <seq> <base64>\n"; caller frees *out. */
int agent_format_request(unsigned seq, const char *cmd, char **out, struct rig_err *err);

/* "@@RIG! <seq>\n": send the reply to request seq again (the agent keeps its last one). */
int agent_format_resend(unsigned seq, char **out, struct rig_err *err);

/* Run cmd, wait up to timeout_ms for its reply. 0 = verified reply (reply->rc is the
 * command's status); -1 with err otherwise, and reply->status says why (AGENT_CORRUPT,
 * AGENT_TIMEOUT, AGENT_REFUSED; AGENT_PENDING for a console error). reply is initialised
 * here and must be released with agent_reply_free() in every case. */
int agent_run(struct console *c, const char *cmd, int timeout_ms, struct agent_reply *reply,
	      struct rig_err *err);
/* agent_run again (the command runs again) while the reply comes back corrupt, at most
 * attempts times in all. */
int agent_run_retry(struct console *c, const char *cmd, int timeout_ms, unsigned attempts,
		    struct agent_reply *reply, struct rig_err *err);
/* Ctrl-C on the console: ends a command that outlived its timeout. */
int agent_interrupt(struct console *c, struct rig_err *err);

#endif
