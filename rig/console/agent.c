#include "console/agent.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console/base64.h"
#include "util/clock.h"

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

int agent_send(struct console *c, const char *cmd, struct agent_reply *reply,
	       struct rig_err *err)
{
	char *req;
	int rc;

	agent_reply_init(reply, console_next_seq(c));
	if (agent_format_request(reply->seq, cmd, &req, err) < 0)
		return -1;
	rc = console_send(c, req, strlen(req), err);
	free(req);
	return rc;
}

/* The console was unplugged and is back: the reply may have gone by meanwhile.  The agent keeps
 * its last reply and sends it again (after the command, if it still runs); a reply that did
 * arrive is simply received twice, the second time ignored. */
static int ask_again(struct console *c, const struct agent_reply *reply, struct rig_err *err)
{
	char *request = NULL;
	char note[100];
	int rc;

	snprintf(note, sizeof(note), "console back: asking the agent again for the reply to request %u",
		 reply->seq);
	console_note(c, note);
	if (agent_format_resend(reply->seq, &request, err) < 0)
		return -1;
	rc = console_send(c, request, strlen(request), err);
	free(request);
	return rc;
}

int agent_pump(struct console *c, int timeout_ms, struct agent_reply *reply, agent_line_fn on_line,
	       void *ctx, struct rig_err *err)
{
	long long deadline = monotonic_ms() + timeout_ms;
	struct console_line line;

	for (;;) {
		long long left = deadline - monotonic_ms();
		int rc = console_next_line(c, left > 0 ? (int)left : 0, &line, err);

		if (rc < 0)
			return -1;
		if (console_take_reattached(c) && reply && reply->status == AGENT_PENDING &&
		    ask_again(c, reply, err) < 0)
			return -1;
		if (rc == 0)
			return 0;
		if (on_line)
			on_line(ctx, &line);
		if (reply && reply->status == AGENT_PENDING) {
			rc = agent_reply_feed(reply, console_agent_marker(c), line.text, err);
			if (rc != 0)
				return rc < 0 ? -1 : 1;
		}
	}
}

/* Short slices, so a reply that is complete is noticed at once and a deadline within 100 ms. */
#define PUMP_SLICE_MS 100

static bool out_of_time(struct agent_patience *patience, long long started, long long now,
			int timeout_ms)
{
	if (now - started < timeout_ms)
		return false;
	if (!patience || !patience->more_time ||
	    !patience->more_time(patience->ctx, started, now, timeout_ms))
		return true;
	patience->extended = true;
	return false;
}

int agent_run(struct console *c, const char *cmd, int timeout_ms, struct agent_patience *patience,
	      agent_line_fn on_line, void *ctx, struct agent_reply *reply, struct rig_err *err)
{
	long long started = monotonic_ms();
	int rc;

	if (patience) {
		patience->waited_ms = 0;
		patience->extended = patience->timed_out = false;
		if (patience->begin)
			patience->begin(patience->ctx);
	}
	if (agent_send(c, cmd, reply, err) < 0)
		return -1;
	for (;;) {
		long long now = monotonic_ms(), left = started + timeout_ms - now;

		if (patience)
			patience->waited_ms = now - started;
		if (out_of_time(patience, started, now, timeout_ms)) {
			reply->status = AGENT_TIMEOUT;
			if (patience)
				patience->timed_out = true;
			return 1;
		}
		/* past the timeout, a patient wait goes on in slices */
		rc = agent_pump(c, left > 0 && left < PUMP_SLICE_MS ? (int)left : PUMP_SLICE_MS, reply,
				on_line, ctx, err);
		if (rc != 0)
			return rc < 0 ? -1 : 0;
	}
}

int agent_run_verified(struct console *c, const char *cmd, int timeout_ms, unsigned attempts,
		       struct agent_patience *patience, agent_line_fn on_line, void *ctx,
		       struct agent_reply *reply, struct rig_err *err)
{
	for (unsigned attempt = 0; attempt < attempts; attempt++) {
		int rc = agent_run(c, cmd, timeout_ms, patience, on_line, ctx, reply, err);
		enum agent_status status = reply->status;
		char why[sizeof(reply->error)];

		if (rc == 0 && status == AGENT_OK)
			return 0;
		snprintf(why, sizeof(why), "%s", reply->error);
		agent_reply_free(reply);
		if (rc < 0)
			return -1;
		if (rc == 1 && patience && patience->extended)
			return rig_err_set(err, RIG_EXIT_INFRA, "board command '%s': no reply in %.0f s "
					   "(its timeout %g s, extended)", cmd,
					   patience->waited_ms / 1000.0, timeout_ms / 1000.0);
		if (rc == 1)
			return rig_err_set(err, RIG_EXIT_INFRA, "board command '%s': no reply in %g s",
					   cmd, timeout_ms / 1000.0);
		if (status == AGENT_TOO_LONG)   /* again would be as long */
			return rig_err_set(err, RIG_EXIT_INFRA, "board command '%s': %s", cmd, why);
		if (status == AGENT_REFUSED)
			return rig_err_set(err, RIG_EXIT_INFRA, "board command '%s' refused by the agent: %s",
					   cmd, why);
	}
	return rig_err_set(err, RIG_EXIT_INFRA, "board command '%s': reply corrupt %u times", cmd,
			   attempts);
}
