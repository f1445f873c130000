#include "power/power_proto.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/number.h"

static const char *const verbs[] = {
	[POWER_VERB_PING] = "ping",
	[POWER_VERB_ON] = "on",
	[POWER_VERB_OFF] = "off",
	[POWER_VERB_CYCLE] = "cycle",
	[POWER_VERB_PRESS] = "press",
	[POWER_VERB_RESET] = "reset",
	[POWER_VERB_STATUS] = "status",
	[POWER_VERB_WATCH] = "watch",
};

#define N_VERBS (sizeof(verbs) / sizeof(verbs[0]))

static int parse_ms(const char *text, unsigned *ms)
{
	return parse_uint(text, 1, 60000, ms);
}

int power_request_parse(const char *line, struct power_request *req, char *why, size_t size)
{
	char verb[16], arg[32], extra[2];
	int n = sscanf(line, "%15s %31s %1s", verb, arg, extra);

	memset(req, 0, sizeof(*req));
	if (n < 1) {
		snprintf(why, size, "empty request");
		return -1;
	}
	for (size_t i = 0; i < N_VERBS; i++) {
		if (strcmp(verb, verbs[i]) != 0)
			continue;
		req->verb = (enum power_verb)i;
		if (n == 1)
			return 0;
		if (req->verb == POWER_VERB_PRESS && n == 2 && parse_ms(arg, &req->ms) == 0)
			return 0;
		snprintf(why, size, "bad argument to '%s'", verb);
		return -1;
	}
	snprintf(why, size, "unknown request '%s'", verb);
	return -1;
}

int power_request_format(const struct power_request *req, char *buf, size_t size)
{
	int n;

	if ((unsigned)req->verb >= N_VERBS)
		return -1;
	if (req->verb == POWER_VERB_PRESS && req->ms)
		n = snprintf(buf, size, "press %u\n", req->ms);
	else
		n = snprintf(buf, size, "%s\n", verbs[req->verb]);
	return n < 0 || (size_t)n >= size ? -1 : n;
}

/* Copy text up to the end of line. */
static void copy_line(const char *text, char *buf, size_t size)
{
	size_t n = strcspn(text, "\r\n");

	if (n >= size)
		n = size - 1;
	memcpy(buf, text, n);
	buf[n] = '\0';
}

int power_reply_parse(const char *line, char *payload, size_t size, struct rig_err *err)
{
	char msg[POWER_PROTO_LINE_MAX];

	if (strncmp(line, "ok", 2) == 0 && (line[2] == '\0' || strchr(" \r\n", line[2]))) {
		copy_line(line[2] == ' ' ? line + 3 : line + 2, payload, size);
		return 0;
	}
	if (strncmp(line, "err ", 4) == 0) {
		copy_line(line + 4, msg, sizeof(msg));
		return rig_err_set(err, RIG_EXIT_INFRA, "rig powerd: %s", msg);
	}
	copy_line(line, msg, sizeof(msg));
	return rig_err_set(err, RIG_EXIT_INFRA, "rig powerd: unexpected reply '%s'", msg);
}

static int run_request(struct power *power, const struct power_request *req,
		       enum power_state *state, struct rig_err *err)
{
	switch (req->verb) {
	case POWER_VERB_PING:
	case POWER_VERB_WATCH:
		return 0;
	case POWER_VERB_ON:
		return power_on(power, err);
	case POWER_VERB_OFF:
		return power_off(power, err);
	case POWER_VERB_CYCLE:
		return power_cycle(power, err);
	case POWER_VERB_PRESS:
		return power_press(power, req->ms, err);
	case POWER_VERB_RESET:
		return power_reset(power, err);
	case POWER_VERB_STATUS:
		return power_status(power, state, err);
	}
	return rig_err_set(err, RIG_EXIT_USAGE, "unknown request");
}

void power_request_execute(struct power *power, const struct power_request *req, char *buf,
			   size_t size)
{
	enum power_state state = POWER_UNKNOWN;
	struct rig_err err = { 0 };

	if (run_request(power, req, &state, &err) < 0) {
		/* A reply is one line: no newline may leak from the message. */
		for (char *p = err.msg; *p; p++)
			if (*p == '\n' || *p == '\r')
				*p = ' ';
		snprintf(buf, size, "err %s\n", err.msg);
	} else if (req->verb == POWER_VERB_STATUS) {
		snprintf(buf, size, "ok %s\n", power_state_name(state));
	} else if (req->verb == POWER_VERB_WATCH) {
		snprintf(buf, size, "ok watching\n");
	} else {
		snprintf(buf, size, "ok\n");
	}
}
