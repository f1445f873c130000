/* Running shell commands on the board through the DUT agent on its console
 * (workloads/agent/rig-agent.sh; reply format in console/agent_reply.h). This is the one agent
 * loop: the engine's session (engine/session.c) runs every board command through it, handing
 * every line it reads on to its event log and acknowledgement table. */
#ifndef RIG_CONSOLE_AGENT_H
#define RIG_CONSOLE_AGENT_H

#include "console/agent_reply.h"
#include "console/console.h"

#include <stdbool.h>

/* The board's tty reads requests in canonical mode (4095-byte lines): the base64 request
 * must fit, so commands are limited to this many bytes. */
#define AGENT_MAX_COMMAND 2800

/* Every console line read while waiting for a reply, before the reply sees it. */
typedef void (*agent_line_fn)(void *ctx, const struct console_line *line);

/* "@@RIG? <seq> <base64>\n"; caller frees *out. */
int agent_format_request(unsigned seq, const char *cmd, char **out, struct rig_err *err);

/* "@@RIG! <seq>\n": send the reply to request seq again (the agent keeps its last one). */
int agent_format_resend(unsigned seq, char **out, struct rig_err *err);

/* Send cmd with the console's next request number; reply is initialised for it. */
int agent_send(struct console *c, const char *cmd, struct agent_reply *reply,
	       struct rig_err *err);

/* Read lines for up to timeout_ms (0 = what is there already), each to on_line (may be NULL)
 * and, while it is pending, to reply (may be NULL). 1 = reply finished (its status says how),
 * 0 = the time ran out, -1 = the console failed. */
int agent_pump(struct console *c, int timeout_ms, struct agent_reply *reply, agent_line_fn on_line,
	       void *ctx, struct rig_err *err);

/* Past a command's timeout: may the board have more time? begin (may be NULL) is called as each
 * attempt's request goes out; more_time about every 100 ms once the timeout has passed, with
 * the attempt's start and now (monotonic ms): true = keep waiting. The engine's session gives a
 * board the host starves of CPU more time (engine/command_patience.h); no patience = the timeout
 * is final. */
struct agent_patience {
	void (*begin)(void *ctx);
	bool (*more_time)(void *ctx, long long started_ms, long long now_ms, long long timeout_ms);
	void *ctx;
	/* out, of the last attempt: */
	long long waited_ms;   /* how long it was waited for */
	bool extended;         /* it was given time past its timeout */
	bool timed_out;        /* no reply came (agent_run returned 1) */
};

/* agent_send, then agent_pump until the reply finishes or timeout_ms passes (and patience, if
 * given, gives no more time). 0 = finished (reply->status: ok, corrupt, refused), 1 = no reply
 * in time (AGENT_TIMEOUT), -1 = error. reply must be released with agent_reply_free() in every
 * case. */
int agent_run(struct console *c, const char *cmd, int timeout_ms, struct agent_patience *patience,
	      agent_line_fn on_line, void *ctx, struct agent_reply *reply, struct rig_err *err);

/* agent_run until the reply is verified: a corrupt one (a kernel message ate a line) runs the
 * command again, `attempts` times in all. 0 = verified reply in *reply (free it); -1 with err
 * otherwise (no reply in time, refused, console error, corrupt every time), reply freed. */
int agent_run_verified(struct console *c, const char *cmd, int timeout_ms, unsigned attempts,
		       struct agent_patience *patience, agent_line_fn on_line, void *ctx, struct agent_reply *reply,
		       struct rig_err *err);

#endif
