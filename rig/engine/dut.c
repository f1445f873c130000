/* rig-dut commands as typed calls, their replies as evidence records. */
#include "engine/dut.h"

#include <stdio.h>
#include <string.h>

#define CMD_MAX 2300   /* under AGENT_MAX_COMMAND; a fio state is the longest argument */

/* Run cmd and hand its verified output lines to the caller; rc is the command's exit status. */
static int run(struct session *s, const char *cmd, unsigned timeout_s, struct agent_reply *reply,
	       struct rig_err *err)
{
	return session_exec_verified(s, cmd, timeout_s, reply, err);
}

/* Run cmd, which must exit 0; its first output line into line (may be NULL). */
static int run_ok(struct session *s, const char *cmd, unsigned timeout_s, char *line, size_t size,
		  struct rig_err *err)
{
	char ignored[256];

	return session_query(s, cmd, timeout_s, line ? line : ignored,
			     line ? size : sizeof(ignored), err);
}

static const char *const *lines_of(const struct agent_reply *r)
{
	return (const char *const *)r->lines;
}

int dut_identity(struct session *s, unsigned timeout_s, struct ev_identity *out,
		 struct rig_err *err)
{
	char line[512];

	if (run_ok(s, EV_CMD_INFO, timeout_s, line, sizeof(line), err) < 0)
		return -1;
	if (ev_parse_identity(line, out) < 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "board did not report its kernel: %s", line);
	return 0;
}

int dut_set_knob(struct session *s, unsigned timeout_s, const char *knob, int value,
		 struct rig_err *err)
{
	char cmd[96];

	snprintf(cmd, sizeof(cmd), EV_CMD_KNOB " %s %d", knob, value);
	return run_ok(s, cmd, timeout_s, NULL, 0, err);
}

int dut_trace_setup(struct session *s, unsigned timeout_s, long s_id_offset, struct rig_err *err)
{
	char cmd[64];

	if (s_id_offset >= 0)
		snprintf(cmd, sizeof(cmd), EV_CMD_TRACE_SETUP " %ld", s_id_offset);
	else
		snprintf(cmd, sizeof(cmd), EV_CMD_TRACE_SETUP);
	return run_ok(s, cmd, timeout_s, NULL, 0, err);
}

int dut_start_workloads(struct session *s, unsigned timeout_s, char *const *kinds, size_t n,
			char *summary, size_t size, struct rig_err *err)
{
	char cmd[256] = EV_CMD_START_WORKLOADS;
	size_t used = strlen(cmd);

	for (size_t i = 0; i < n && used < sizeof(cmd); i++)
		used += (size_t)snprintf(cmd + used, sizeof(cmd) - used, " %s", kinds[i]);
	if (used >= sizeof(cmd))
		return rig_err_set(err, RIG_EXIT_USAGE, "too many workloads for one command");
	return run_ok(s, cmd, timeout_s, summary, size, err);
}

int dut_send_suspend(struct session *s, enum sleep_mode mode, bool rtc_wake, unsigned seconds,
		     const char *systemctl_verb, struct agent_reply *reply, struct rig_err *err)
{
	char cmd[160];

	snprintf(cmd, sizeof(cmd), EV_CMD_SUSPEND " %s %s %u%s%s", sleep_mode_name(mode),
		 rtc_wake ? "rtc" : "external", seconds, systemctl_verb ? " " : "",
		 systemctl_verb ? systemctl_verb : "");
	return session_send(s, cmd, reply, err);
}

int dut_send_hibernate(struct session *s, enum hibernate_mode mode, bool systemctl,
		       struct agent_reply *reply, struct rig_err *err)
{
	char cmd[96];

	snprintf(cmd, sizeof(cmd), EV_CMD_HIBERNATE " %s%s", hibernate_mode_name(mode),
		 systemctl ? " systemctl" : "");
	return session_send(s, cmd, reply, err);
}

int dut_pm_test(struct session *s, unsigned timeout_s, enum pm_test_level level,
		enum sleep_mode mode, struct ev_sleep *out, struct rig_err *err)
{
	struct agent_reply reply;
	char cmd[128];
	int rc;

	snprintf(cmd, sizeof(cmd), EV_CMD_PM_TEST " %s %s", pm_test_level_name(level),
		 sleep_mode_name(mode));
	rc = session_exec(s, cmd, timeout_s, &reply, err);
	if (rc == 0)
		ev_parse_sleep(lines_of(&reply), reply.n_lines, out);
	agent_reply_free(&reply);
	return rc;
}

/* PART's lines of a rig-dut collect reply; an error naming it when the board left it out. */
static int collect_part(const struct agent_reply *reply, const char *part, const char *const **lines,
			size_t *n, struct rig_err *err)
{
	size_t first;

	if (!ev_collect_part(lines_of(reply), reply->n_lines, part, &first, n))
		return rig_err_set(err, RIG_EXIT_INFRA, EV_CMD_COLLECT ": the board's reply has no "
				   "'collect=%s' part (is its rig-dut older than this rig?)", part);
	*lines = lines_of(reply) + first;
	return 0;
}

int dut_collect_after_resume(struct session *s, unsigned timeout_s, struct frozen_window *window,
			     struct ev_alive *alive, struct ev_stall_ops *stall,
			     struct rig_err *err)
{
	bool writers = alive && stall;
	struct agent_reply reply;
	const char *const *lines = NULL;
	size_t n = 0;
	int rc = -1;

	if (run(s, writers ? EV_CMD_COLLECT " trace alive stall" : EV_CMD_COLLECT " trace", timeout_s,
		&reply, err) < 0)
		return -1;
	if (collect_part(&reply, "trace", &lines, &n, err) < 0)
		goto out;
	ev_parse_trace(lines, n, window);
	if (writers) {
		if (collect_part(&reply, "alive", &lines, &n, err) < 0)
			goto out;
		ev_parse_alive(lines, n, alive);
		if (collect_part(&reply, "stall", &lines, &n, err) < 0 ||
		    ev_parse_stall_ops(lines, n, stall, err) < 0)
			goto out;
	}
	rc = 0;
out:
	agent_reply_free(&reply);
	return rc;
}

int dut_timeline_setup(struct session *s, unsigned timeout_s, char *line, size_t size,
		       struct rig_err *err)
{
	return run_ok(s, EV_CMD_TIMELINE_SETUP, timeout_s, line, size, err);
}

int dut_timeline_read(struct session *s, unsigned timeout_s, struct timeline *out,
		      struct rig_err *err)
{
	struct agent_reply reply;
	int rc;

	if (run(s, EV_CMD_TIMELINE_READ, timeout_s, &reply, err) < 0)
		return -1;
	rc = timeline_parse(lines_of(&reply), reply.n_lines, out, err);
	agent_reply_free(&reply);
	return rc;
}

int dut_klog(struct session *s, unsigned timeout_s, double since_ktime, double until_ktime,
	     struct agent_reply *reply, struct rig_err *err)
{
	char cmd[96];

	if (until_ktime >= 0)
		snprintf(cmd, sizeof(cmd), "rig-dut klog %.6f %.6f", since_ktime, until_ktime);
	else
		snprintf(cmd, sizeof(cmd), "rig-dut klog %.6f", since_ktime);
	return run(s, cmd, timeout_s, reply, err);
}

int dut_fsfreeze(struct session *s, unsigned timeout_s, const char *fs, const char *action,
		 int *frozen, struct rig_err *err)
{
	char cmd[128], line[256];

	snprintf(cmd, sizeof(cmd), EV_CMD_FSFREEZE " %s %s", fs, action);
	if (run_ok(s, cmd, timeout_s, line, sizeof(line), err) < 0)
		return -1;
	if (frozen)
		*frozen = ev_parse_frozen(line);
	return 0;
}

int dut_fio_checkpoint(struct session *s, unsigned timeout_s, struct fio_acks *out,
		       struct rig_err *err)
{
	struct agent_reply reply;

	memset(out, 0, sizeof(*out));
	if (run(s, EV_CMD_FIO_CHECKPOINT, timeout_s, &reply, err) < 0)
		return -1;
	for (size_t i = 0; i < reply.n_lines; i++)
		fio_ack_feed(out, reply.lines[i]);
	agent_reply_free(&reply);
	return 0;
}

int dut_fio_verify(struct session *s, unsigned timeout_s, const struct fio_ack *k, char *line,
		   size_t size, struct rig_err *err)
{
	char cmd[CMD_MAX];

	snprintf(cmd, sizeof(cmd), EV_CMD_FIO_VERIFY " %s=%s", k->fs, k->state);
	return run_ok(s, cmd, timeout_s, line, size, err);
}

int dut_verify(struct session *s, unsigned timeout_s, struct ev_journals *out, struct rig_err *err)
{
	struct agent_reply reply;

	if (run(s, EV_CMD_VERIFY, timeout_s, &reply, err) < 0)
		return -1;
	ev_parse_verify(lines_of(&reply), reply.n_lines, out);
	agent_reply_free(&reply);
	return 0;
}

int dut_journald_check(struct session *s, unsigned timeout_s, struct ev_journald *out,
		       struct rig_err *err)
{
	struct agent_reply reply;

	if (run(s, EV_CMD_JOURNALD_CHECK, timeout_s, &reply, err) < 0)
		return -1;
	ev_parse_journald(lines_of(&reply), reply.n_lines, out);
	agent_reply_free(&reply);
	return 0;
}

int dut_fsck(struct session *s, unsigned timeout_s, struct ev_fsck *out, struct rig_err *err)
{
	struct agent_reply reply;

	if (run(s, EV_CMD_FSCK, timeout_s, &reply, err) < 0)
		return -1;
	ev_parse_fsck(lines_of(&reply), reply.n_lines, out);
	agent_reply_free(&reply);
	return 0;
}
