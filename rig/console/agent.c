#include "console/agent.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console/base64.h"

#define REQUEST_PREFIX "@@RIG?"
#define RESEND_PREFIX "@@RIG!"

int agent_format_request(unsigned seq, const char *cmd, char **out, struct rig_err *err)
{
	size_t len = strlen(cmd), size;
	char *b64, *req;

	if (len == 0 || len > AGENT_MAX_COMMAND)
		return rig_err_set(err, RIG_EXIT_USAGE, "agent: command must be 1..%d bytes, not %zu",
				   AGENT_MAX_COMMAND, len);
	b64 = malloc(base64_encoded_len(len) + 1);
	size = base64_encoded_len(len) + 32;
	req = malloc(size);
	if (!b64 || !req) {
		free(b64);
		free(req);
		return rig_err_set(err, RIG_EXIT_INFRA, "agent: out of memory");
	}
	base64_encode(cmd, len, b64);
	snprintf(req, size, "%s %u %s\n", REQUEST_PREFIX, seq, b64);
	free(b64);
	*out = req;
	return 0;
}

int agent_format_resend(unsigned seq, char **out, struct rig_err *err)
{
	if (asprintf(out, "%s %u\n", RESEND_PREFIX, seq) < 0) {
		*out = NULL;
		return rig_err_set(err, RIG_EXIT_INFRA, "agent: out of memory");
	}
	return 0;
}

static int send_request(struct console *c, unsigned seq, const char *cmd, struct rig_err *err)
{
	char *req;
	int rc;

	if (agent_format_request(seq, cmd, &req, err) < 0)
		return -1;
	rc = console_send(c, req, strlen(req), err);
	free(req);
	return rc;
}

static int await_reply(struct console *c, int timeout_ms, struct agent_reply *reply,
		       struct rig_err *err)
{
	long long deadline = console_now_ms() + timeout_ms;

	for (;;) {
		long long left = deadline - console_now_ms();
		struct console_line line;
		int rc;

		if (left <= 0) {
			reply->status = AGENT_TIMEOUT;
			return 0;
		}
		rc = console_next_line(c, (int)left, &line, err);
		if (rc < 0)
			return -1;
		if (rc == 0)
			continue;
		rc = agent_reply_feed(reply, console_agent_marker(c), line.text, err);
		if (rc != 0)
			return rc < 0 ? -1 : 0;
	}
}

static int explain(const struct agent_reply *r, const char *cmd, int timeout_ms,
		   struct rig_err *err)
{
	switch (r->status) {
	case AGENT_OK:
		return 0;
	case AGENT_TIMEOUT:
		return rig_err_set(err, RIG_EXIT_INFRA, "agent: no reply to '%s' within %d ms",
				   cmd, timeout_ms);
	case AGENT_REFUSED:
		return rig_err_set(err, RIG_EXIT_INFRA, "agent: request '%s' refused: %s", cmd,
				   r->error);
	default:
		return rig_err_set(err, RIG_EXIT_INFRA,
				   "agent: reply to '%s' corrupt: %zu of %zu lines, crc %u, expected %u",
				   cmd, r->n_lines, r->lines_expected, (unsigned)r->crc_actual,
				   (unsigned)r->crc_expected);
	}
}

int agent_run(struct console *c, const char *cmd, int timeout_ms, struct agent_reply *reply,
	      struct rig_err *err)
{
	agent_reply_init(reply, console_next_seq(c));
	if (send_request(c, reply->seq, cmd, err) < 0)
		return -1;
	if (await_reply(c, timeout_ms, reply, err) < 0)
		return -1;
	return explain(reply, cmd, timeout_ms, err);
}

int agent_run_retry(struct console *c, const char *cmd, int timeout_ms, unsigned attempts,
		    struct agent_reply *reply, struct rig_err *err)
{
	int rc = agent_run(c, cmd, timeout_ms, reply, err);

	for (unsigned i = 1; i < attempts && rc < 0 && reply->status == AGENT_CORRUPT; i++) {
		agent_reply_free(reply);
		rc = agent_run(c, cmd, timeout_ms, reply, err);
	}
	return rc;
}

/* After Ctrl-C the board's tty flushes its input and the interrupted command's late reply and a
 * prompt follow: let that settle, reading what comes, before the next request is typed, or the
 * request can be lost with the flush (seen once in CI under load). */
#define INTERRUPT_SETTLE_MS 500

int agent_interrupt(struct console *c, struct rig_err *err)
{
	long long deadline = console_now_ms() + INTERRUPT_SETTLE_MS;
	struct console_line line;

	if (console_send(c, "\003", 1, err) < 0)
		return -1;
	for (long long left; (left = deadline - console_now_ms()) > 0;)
		if (console_next_line(c, (int)left, &line, err) < 0)
			return -1;
	return 0;
}
