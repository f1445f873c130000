#include "engine/session.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "console/agent.h"
#include "engine/command_patience.h"
#include "util/clock.h"

#define CONNECT_TIMEOUT_MS 15000
#define PUMP_SLICE_MS 100
#define STALE_DRAIN_MS 500

static double timespec_seconds(const struct timespec *ts)
{
	return (double)ts->tv_sec + (double)ts->tv_nsec / 1e9;
}

void session_say(struct session *s, const char *fmt, ...)
{
	va_list ap;
	time_t now = time(NULL);
	struct tm tm;
	char stamp[16];

	if (!s->progress)
		return;
	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%H:%M:%S", &tm);
	fprintf(s->progress, "[%s] ", stamp);
	va_start(ap, fmt);
	vfprintf(s->progress, fmt, ap);
	va_end(ap);
	fputc('\n', s->progress);
	fflush(s->progress);
}

static int push_event(struct session *s, const struct kevent *ev)
{
	struct judge_event *e;

	if (s->n_events == s->cap_events) {
		size_t cap = s->cap_events ? s->cap_events * 2 : 64;
		struct judge_event *grown = realloc(s->events, cap * sizeof(*grown));

		if (!grown)
			return -1;
		s->events = grown;
		s->cap_events = cap;
	}
	e = &s->events[s->n_events];
	e->ev = *ev;
	e->ev.message = NULL;
	e->host_ts = timespec_seconds(&ev->host_time);
	if (!(e->text = strdup(ev->message ? ev->message : "")))
		return -1;
	s->n_events++;
	return 0;
}

static void on_event(void *ctx, const struct kevent *ev)
{
	struct session *s = ctx;

	if (ev->kind == KEV_KERNEL_BOOT)
		s->boots++;
	if (ev->kind == KEV_AGENT_READY)
		s->agent_ready = true;
	/* Out of memory here loses one event; the run goes on and the console log keeps it. */
	(void)push_event(s, ev);
}

int session_open(struct board *board, const char *run_dir, FILE *progress, struct session **out,
		 struct rig_err *err)
{
	struct session *s = calloc(1, sizeof(*s));

	if (!s)
		return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
	s->board = board;
	s->progress = progress;
	snprintf(s->run_dir, sizeof(s->run_dir), "%s", run_dir);
	snprintf(s->console_log, sizeof(s->console_log), "%s/console.log", run_dir);
	if (deploy_open(board, run_dir, &s->deploy, err) < 0) {
		free(s);
		return -1;
	}
	if (power_open(board, run_dir, &s->power, err) < 0) {
		deploy_close(s->deploy);
		free(s);
		return -1;
	}
	*out = s;
	return 0;
}

void session_detach_console(struct session *s)
{
	console_close(s->console);
	s->console = NULL;
	s->agent_ready = false;
}

int session_power_off(struct session *s, struct rig_err *err)
{
	session_detach_console(s);
	return power_off(s->power, err);
}

void session_close(struct session *s)
{
	struct rig_err ignored;

	if (!s)
		return;
	if (s->power && session_power_off(s, &ignored) < 0 && s->progress)
		session_say(s, "warning: power off at the end failed: %s", ignored.msg);
	power_close(s->power);
	deploy_close(s->deploy);
	session_events_free(s->events, s->n_events);
	free(s);
}

static int attach_console(struct session *s, struct rig_err *err)
{
	struct console_options opts = { .log_path = s->console_log };

	if (console_open(&s->board->console, CONNECT_TIMEOUT_MS, &opts, &s->console, err) < 0)
		return -1;
	console_set_event_handler(s->console, on_event, s);
	return 0;
}

static int power_on_with_cmdline(struct session *s, const char *extra, struct rig_err *err)
{
	char *saved = s->board->boot.cmdline;
	char *joined = NULL;
	int rc;

	/* the board is off: the kernel and this boot's command line go where it boots them from */
	if (deploy_prepare(s->deploy, extra, err) < 0)
		return -1;
	if (strcmp(s->deploy->ops->name, "qemu") != 0)
		session_say(s, "deployed the kernel by %s (%s)", s->deploy->ops->name,
			    s->deploy->log_path);
	if (strcmp(s->deploy->ops->name, "qemu") == 0) {
		/* the qemu deploy: QEMU reads board->boot while it starts (power/qemu_args.c) */
		if (deploy_boot_cmdline(s->board, extra, &joined, err) < 0)
			return -1;
		s->board->boot.cmdline = joined;
	}
	rc = power_on(s->power, err);
	s->board->boot.cmdline = saved;
	free(joined);
	return rc;
}

/* A QEMU board's console socket exists only once QEMU runs (with its CPUs stopped: nothing is
 * lost), but a real board starts talking the moment its power is on: its serial console is
 * opened first.  What waited in the adapter from before is the old boot's and is read out (into
 * the log) before the power comes on, so it cannot pass for this boot's agent. */
static bool console_before_power(const struct session *s)
{
	return !s->board->console.transport || strcmp(s->board->console.transport, "socket") != 0;
}

int session_power_on(struct session *s, const char *extra_cmdline, struct rig_err *err)
{
	enum power_state state;

	session_detach_console(s);
	if (power_status(s->power, &state, err) == 0 && state != POWER_OFF &&
	    power_off(s->power, err) < 0)
		return -1;
	session_say(s, "power on%s%s", extra_cmdline ? " with " : "",
		    extra_cmdline ? extra_cmdline : "");
	if (console_before_power(s)) {
		if (attach_console(s, err) < 0 || session_pump(s, STALE_DRAIN_MS, NULL, err) < 0)
			return -1;
		s->agent_ready = false;
		return power_on_with_cmdline(s, extra_cmdline, err);
	}
	if (power_on_with_cmdline(s, extra_cmdline, err) < 0 || attach_console(s, err) < 0)
		return -1;
	return power_resume_cpus(s->power, err);
}

int session_boot(struct session *s, const char *extra_cmdline, unsigned timeout_s,
		 struct rig_err *err)
{
	long long deadline;

	if (session_power_on(s, extra_cmdline, err) < 0)
		return -1;
	deadline = monotonic_ms() + (long long)timeout_s * 1000;
	while (!s->agent_ready) {
		long long left = deadline - monotonic_ms();
		char why[300];

		if (s->stop && *s->stop)
			return 2;
		if (left <= 0)
			return 1;
		/* A console at the wrong speed will never show the agent: say so now. */
		if (console_garbled(s->console, why, sizeof(why)))
			return rig_err_set(err, RIG_EXIT_INFRA, "%s", why);
		if (session_pump(s, left < PUMP_SLICE_MS ? (int)left : PUMP_SLICE_MS, NULL, err) < 0)
			return -1;
	}
	return 0;
}

static void feed_line(struct session *s, const struct console_line *line)
{
	double host = timespec_seconds(&line->host_time);

	s->last_line_at = host;
	acks_feed(&s->acks, line->text, host, line->has_ktime ? line->ktime : -1);
	if (s->watch && strstr(line->text, s->watch))
		s->watch_hit_at = host;
}

static void on_line(void *ctx, const struct console_line *line)
{
	feed_line(ctx, line);
}

static int attached(const struct session *s, struct rig_err *err)
{
	if (!s->console)
		return rig_err_set(err, RIG_EXIT_INFRA, "console of board %s is not attached",
				   s->board->name);
	return 0;
}

int session_pump(struct session *s, int timeout_ms, struct agent_reply *reply,
		 struct rig_err *err)
{
	if (attached(s, err) < 0)
		return -1;
	return agent_pump(s->console, timeout_ms, reply, on_line, s, err);
}

int session_send(struct session *s, const char *cmd, struct agent_reply *reply,
		 struct rig_err *err)
{
	if (attached(s, err) < 0)
		return -1;
	return agent_send(s->console, cmd, reply, err);
}

/* Whether the command just run timed out, and the host's view of it when it did. */
static void note_timeout(struct session *s, const struct command_patience *patience)
{
	s->command_timed_out = patience->agent.timed_out;
	s->command_window_known = s->command_timed_out &&
				  command_patience_window(patience, &s->command_window);
}

int session_exec(struct session *s, const char *cmd, unsigned timeout_s, struct agent_reply *reply,
		 struct rig_err *err)
{
	struct command_patience patience;
	int rc;

	if (attached(s, err) < 0) {
		agent_reply_init(reply, 0);
		return -1;
	}
	command_patience_init(&patience, s->power, s->stop);
	rc = agent_run(s->console, cmd, (int)timeout_s * 1000, &patience.agent, on_line, s, reply,
		       err);
	note_timeout(s, &patience);
	return rc;
}

#define EXEC_ATTEMPTS 3

int session_exec_verified(struct session *s, const char *cmd, unsigned timeout_s,
			  struct agent_reply *reply, struct rig_err *err)
{
	struct command_patience patience;
	int rc;

	if (attached(s, err) < 0)
		return -1;
	command_patience_init(&patience, s->power, s->stop);
	rc = agent_run_verified(s->console, cmd, (int)timeout_s * 1000, EXEC_ATTEMPTS,
				&patience.agent, on_line, s, reply, err);
	note_timeout(s, &patience);
	return rc;
}

int session_query(struct session *s, const char *cmd, unsigned timeout_s, char *buf, size_t size,
		  struct rig_err *err)
{
	struct agent_reply reply;
	int rc;

	if (session_exec_verified(s, cmd, timeout_s, &reply, err) < 0)
		return -1;
	snprintf(buf, size, "%s", reply.n_lines ? reply.lines[0] : "");
	rc = reply.rc;
	agent_reply_free(&reply);
	if (rc != 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "board command '%s' failed (rc %d): %s", cmd, rc,
				   buf);
	return 0;
}

void session_watch(struct session *s, const char *substring)
{
	s->watch = substring;
	s->watch_hit_at = 0;
}

struct judge_event *session_events_drain(struct session *s, size_t *n)
{
	struct judge_event *events = s->events;

	*n = s->n_events;
	s->events = NULL;
	s->n_events = s->cap_events = 0;
	return events;
}

void session_events_free(struct judge_event *events, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(events[i].text);
	free(events);
}
