/* Parsing the DUT agent's reply lines (protocol: workloads/agent/rig-agent.sh):
 *   <marker> <seq> begin | <marker> <seq> | <line> | <marker> <seq> end rc=N lines=N crc=N
 *   <marker> <seq> error <why>
 * Lines of other requests, the echo of the request and anything else are ignored. A reply is
 * verified when its line count and POSIX cksum match what the agent announced. */
#ifndef RIG_CONSOLE_AGENT_REPLY_H
#define RIG_CONSOLE_AGENT_REPLY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

enum agent_status {
	AGENT_PENDING,      /* no end line yet */
	AGENT_OK,           /* complete and verified */
	AGENT_CORRUPT,      /* complete, but lines or crc do not match: lost or garbled */
	AGENT_REFUSED,      /* the agent could not decode the request */
	AGENT_TIMEOUT,      /* no end line in time */
	AGENT_TOO_LONG,     /* output over AGENT_REPLY_MAX_BYTES: cut there, the rest ignored */
};

/* The most output one reply may carry (every board command's answer is far smaller): a board
 * that prints without end cannot grow the rig's memory without bound. */
#define AGENT_REPLY_MAX_BYTES (16 * 1024 * 1024)

struct agent_reply {
	unsigned seq;
	enum agent_status status;
	int rc;                     /* the command's exit status */
	char **lines;               /* output, without the agent's prefix */
	size_t n_lines, cap;
	size_t bytes;               /* output kept so far, each line with its \n */
	size_t lines_expected;
	uint32_t crc_expected, crc_actual;
	bool begun;
	char error[128];            /* AGENT_REFUSED: the agent's reason */
};

void agent_reply_init(struct agent_reply *r, unsigned seq);
void agent_reply_free(struct agent_reply *r);
/* 0 = more to come, 1 = the reply is finished (status set), -1 = out of memory. */
int agent_reply_feed(struct agent_reply *r, const char *marker, const char *line,
		     struct rig_err *err);
/* The output joined back into one string, each line ended by \n; caller frees. */
char *agent_reply_output(const struct agent_reply *r);
const char *agent_status_name(enum agent_status status);

#endif
