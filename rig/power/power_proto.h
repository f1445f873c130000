/* The line protocol between `rig power` and `rig powerd`, over a unix stream socket.
 *
 *   request:  "ping" | "on" | "off" | "cycle" | "press [MS]" | "reset" | "status" | "watch"
 *             + "\n"
 *   reply:    "ok\n" | "ok <state>\n" (status) | "ok watching\n" (watch) | "err <message>\n"
 *
 * One request per line; a connection may carry several.  After "watch" the daemon keeps the
 * connection open and silent until it exits: a client holding it learns at once that the lines
 * are no longer held. */
#ifndef RIG_POWER_POWER_PROTO_H
#define RIG_POWER_POWER_PROTO_H

#include <stddef.h>

#include "power/power.h"

#define POWER_PROTO_LINE_MAX 512

enum power_verb {
	POWER_VERB_PING,
	POWER_VERB_ON,
	POWER_VERB_OFF,
	POWER_VERB_CYCLE,
	POWER_VERB_PRESS,
	POWER_VERB_RESET,
	POWER_VERB_STATUS,
	POWER_VERB_WATCH,
};

struct power_request {
	enum power_verb verb;
	unsigned ms;          /* press only; 0 = the board's default */
};

/* Parse one request line (trailing newline optional).  -1 with a reason in why. */
int power_request_parse(const char *line, struct power_request *req, char *why, size_t size);
/* "press 300\n" etc.  Returns the length, or -1 if buf is too small. */
int power_request_format(const struct power_request *req, char *buf, size_t size);

/* Parse a reply: 0 for "ok" (*payload gets what followed, maybe ""), -1 for "err" or garbage
 * with err set (RIG_EXIT_INFRA, message from the daemon). */
int power_reply_parse(const char *line, char *payload, size_t size, struct rig_err *err);

/* Carry out req on power and write the reply line to buf. */
void power_request_execute(struct power *power, const struct power_request *req, char *buf,
			   size_t size);

#endif
