#include "console/console.h"

#include "util/clock.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console/ansi.h"
#include "console/garble.h"
#include "console/kstamp.h"
#include "console/linebuf.h"
#include "console/log.h"
#include "console/splitter.h"

#define DEFAULT_QUIET_MS 300
#define READ_CHUNK 4096

struct queued_line {
	char *text;
	struct timespec time;
};

struct console {
	struct console_transport *transport;
	struct console_log *log;
	struct linebuf linebuf;
	struct splitter splitter;
	struct kevent_parser *events;
	char *marker;
	int quiet_ms;
	console_event_fn on_event;
	void *event_ctx;
	struct queued_line *queue;  /* logical lines not handed out yet */
	size_t q_head, q_len, q_cap;
	char *current;              /* the line last handed out */
	unsigned seq;
	struct rig_err *feed_err;   /* where the line callbacks report errors */
	struct garble garble;
	unsigned baud;              /* serial: the speed the rig reads at (for messages) */
	bool reattached;            /* the transport came back since the last look */
	unsigned long long nuls;    /* NUL bytes dropped (a break reads as one) */
	double last_ktime;          /* the last kernel timestamp handed out; -1 none yet */
	struct console_gap gap;     /* the last unplug: what the console missed */
	long long gone_at_ms;
	bool gap_await_until;       /* back: the next kernel line closes the gap */
	bool gap_pending;           /* a gap console_take_gap() has not reported yet */
};

static int setup(struct console *c, const struct console_options *opts, struct rig_err *err)
{
	const char *marker = opts && opts->agent_marker ? opts->agent_marker
							: CONSOLE_AGENT_MARKER;

	c->quiet_ms = opts && opts->quiet_ms > 0 ? opts->quiet_ms : DEFAULT_QUIET_MS;
	if (!(c->marker = strdup(marker)))
		return rig_err_set(err, RIG_EXIT_INFRA, "console: out of memory");
	linebuf_init(&c->linebuf);
	splitter_init(&c->splitter, c->marker);
	if (opts && (opts->log_path || opts->raw_log_path) &&
	    console_log_open(opts->log_path, opts->raw_log_path, &c->log, err) < 0)
		return -1;
	return kevent_parser_new(c->marker, &c->events, err);
}

void console_note(struct console *c, const char *msg)
{
	struct timespec now;
	char line[600];
	struct rig_err ignored;

	clock_gettime(CLOCK_REALTIME, &now);
	snprintf(line, sizeof(line), "rig: %s", msg);
	(void)console_log_line(c->log, &now, line, &ignored);
	fprintf(stderr, "%s\n", line);
}

/* The transport's own events go to the console log and to stderr, as they happen. */
static void on_transport_notice(void *ctx, enum transport_notice what, const char *msg)
{
	struct console *c = ctx;

	if (what == TRANSPORT_GONE) {
		c->gone_at_ms = monotonic_ms();
		c->gap = (struct console_gap){ .since_ktime = c->last_ktime, .until_ktime = -1 };
	} else if (what == TRANSPORT_BACK) {
		c->reattached = true;
		c->gap.ms = monotonic_ms() - c->gone_at_ms;
		c->gap_await_until = c->gap_pending = true;
	}
	console_note(c, msg);
}

int console_create(struct console_transport *t, const struct console_options *opts,
		   struct console **out, struct rig_err *err)
{
	struct console *c = calloc(1, sizeof(*c));

	if (!c) {
		transport_close(t);
		return rig_err_set(err, RIG_EXIT_INFRA, "console: out of memory");
	}
	c->transport = t;
	c->last_ktime = -1;
	transport_set_notice(t, on_transport_notice, c);
	if (setup(c, opts, err) < 0) {
		console_close(c);
		return -1;
	}
	*out = c;
	return 0;
}

int console_open(const struct board_console *cfg, int connect_timeout_ms,
		 const struct console_options *opts, struct console **out, struct rig_err *err)
{
	struct transport_params p = {
		.path = cfg->path, .baud = cfg->baud, .connect_timeout_ms = connect_timeout_ms,
		.reattach_ms = cfg->reattach_s * 1000,
	};
	struct console_transport *t;

	if (transport_open(cfg->transport, &p, &t, err) < 0 || console_create(t, opts, out, err) < 0)
		return -1;
	(*out)->baud = cfg->baud ? cfg->baud : 115200;
	return 0;
}

static void drop_queue(struct console *c)
{
	for (size_t i = 0; i < c->q_len; i++)
		free(c->queue[(c->q_head + i) % c->q_cap].text);
	free(c->queue);
	c->queue = NULL;
	c->q_len = c->q_cap = c->q_head = 0;
}

void console_close(struct console *c)
{
	if (!c)
		return;
	transport_close(c->transport);
	console_log_close(c->log);
	linebuf_free(&c->linebuf);
	splitter_free(&c->splitter);
	kevent_parser_free(c->events);
	drop_queue(c);
	free(c->current);
	free(c->marker);
	free(c);
}

void console_set_event_handler(struct console *c, console_event_fn fn, void *ctx)
{
	c->on_event = fn;
	c->event_ctx = ctx;
}

static int grow_queue(struct console *c)
{
	size_t cap = c->q_cap ? c->q_cap * 2 : 64;
	struct queued_line *q = malloc(cap * sizeof(*q));

	if (!q)
		return -ENOMEM;
	for (size_t i = 0; i < c->q_len; i++)
		q[i] = c->queue[(c->q_head + i) % c->q_cap];
	free(c->queue);
	c->queue = q;
	c->q_cap = cap;
	c->q_head = 0;
	return 0;
}

/* splitter_emit_fn: a finished logical line. */
static int enqueue(void *ctx, const char *line, const struct timespec *t)
{
	struct console *c = ctx;
	struct queued_line *slot;

	if (c->q_len == c->q_cap && grow_queue(c) < 0)
		return rig_err_set(c->feed_err, RIG_EXIT_INFRA, "console: out of memory");
	slot = &c->queue[(c->q_head + c->q_len) % c->q_cap];
	if (!(slot->text = strdup(line)))
		return rig_err_set(c->feed_err, RIG_EXIT_INFRA, "console: out of memory");
	slot->time = *t;
	c->q_len++;
	return 0;
}

/* linebuf_emit_fn: a physical line off the wire. */
static int take_physical_line(void *ctx, const char *line, size_t len,
			      const struct timespec *first_byte)
{
	struct console *c = ctx;
	char *text = malloc(len + 1);
	int rc;

	if (!text)
		return rig_err_set(c->feed_err, RIG_EXIT_INFRA, "console: out of memory");
	ansi_strip(line, len, text);
	rc = console_log_line(c->log, first_byte, text, c->feed_err);
	if (rc == 0)
		rc = splitter_push(&c->splitter, text, first_byte, enqueue, c);
	free(text);
	if (rc == -ENOMEM)
		rig_err_set(c->feed_err, RIG_EXIT_INFRA, "console: out of memory");
	return rc ? -1 : 0;
}

/* A NUL is never console text: a break on a serial line reads as one, and it would end a C
 * string (the line, and any agent reply in it) early. */
static size_t drop_nuls(struct console *c, char *buf, size_t n)
{
	size_t kept = 0;

	for (size_t i = 0; i < n; i++) {
		if (buf[i] == '\0')
			c->nuls++;
		else
			buf[kept++] = buf[i];
	}
	return kept;
}

/* Read once; 1 = bytes processed, 0 = quiet for timeout_ms, -1 = error. */
static int pump(struct console *c, int timeout_ms, struct rig_err *err)
{
	char buf[READ_CHUNK];
	struct timespec now;
	ssize_t n = transport_read(c->transport, buf, sizeof(buf), timeout_ms, err);

	if (n <= 0)
		return (int)n;
	clock_gettime(CLOCK_REALTIME, &now);
	if (console_log_raw(c->log, buf, (size_t)n, err) < 0)
		return -1;
	garble_feed(&c->garble, (const unsigned char *)buf, (size_t)n);
	n = (ssize_t)drop_nuls(c, buf, (size_t)n);
	return linebuf_feed(&c->linebuf, buf, (size_t)n, &now, take_physical_line, c) ? -1 : 1;
}

static void deliver_events(struct console *c, const struct console_line *line)
{
	struct kevent ev;

	if (kevent_parse(c->events, line->text, &ev) == 1) {
		ev.host_time = line->host_time;
		if (c->on_event)
			c->on_event(c->event_ctx, &ev);
	}
}

static void hand_out(struct console *c, struct console_line *line)
{
	struct queued_line *q = &c->queue[c->q_head];
	struct kstamp ks;

	free(c->current);
	c->current = q->text;
	c->q_head = (c->q_head + 1) % c->q_cap;
	c->q_len--;
	memset(line, 0, sizeof(*line));
	line->text = c->current;
	line->host_time = q->time;
	if (kstamp_parse(line->text, &ks)) {
		line->has_ktime = true;
		line->ktime = ks.secs;
		c->last_ktime = ks.secs;
		if (c->gap_await_until) {
			c->gap.until_ktime = ks.secs;
			c->gap_await_until = false;
		}
	}
	deliver_events(c, line);
}

int console_take_gap(struct console *c, struct console_gap *gap)
{
	if (!c->gap_pending)
		return 0;
	c->gap_pending = false;
	*gap = c->gap;
	return 1;
}

void console_replay_line(struct console *c, const char *text)
{
	struct console_line line = { .text = text };
	struct rig_err ignored;
	struct kstamp ks;
	char logged[600];

	clock_gettime(CLOCK_REALTIME, &line.host_time);
	snprintf(logged, sizeof(logged), "rig: recovered: %s", text);
	(void)console_log_line(c->log, &line.host_time, logged, &ignored);
	if (kstamp_parse(text, &ks)) {
		line.has_ktime = true;
		line.ktime = ks.secs;
	}
	deliver_events(c, &line);
}

static int wait_slice(long long deadline, int quiet_ms)
{
	long long left;

	if (deadline < 0)
		return quiet_ms;
	left = deadline - monotonic_ms();
	if (left < 0)
		left = 0;
	return left < quiet_ms ? (int)left : quiet_ms;
}

int console_next_line(struct console *c, int timeout_ms, struct console_line *line,
		      struct rig_err *err)
{
	long long deadline = timeout_ms < 0 ? -1 : monotonic_ms() + timeout_ms;

	c->feed_err = err;
	while (c->q_len == 0) {
		int rc = pump(c, wait_slice(deadline, c->quiet_ms), err);

		if (rc < 0)
			return -1;
		if (rc == 0 && splitter_idle(&c->splitter, enqueue, c) != 0)
			return -1;   /* only enqueue can fail there, and it fills err */
		if (c->q_len == 0 && deadline >= 0 && monotonic_ms() >= deadline)
			return 0;
	}
	hand_out(c, line);
	return 1;
}

int console_send(struct console *c, const void *buf, size_t len, struct rig_err *err)
{
	return transport_write(c->transport, buf, len, err);
}

int console_send_break(struct console *c, struct rig_err *err)
{
	return transport_send_break(c->transport, err);
}

bool console_take_reattached(struct console *c)
{
	bool was = c->reattached;

	c->reattached = false;
	return was;
}

int console_garbled(const struct console *c, char *why, size_t size)
{
	if (!garble_is_garbled(&c->garble))
		return 0;
	snprintf(why, size, "console %s is garbled: %u of the last %u bytes are not text: is the "
		 "board's console really at %u baud, as the board file says?", c->transport->path,
		 c->garble.last_noise, GARBLE_WINDOW, c->baud);
	return 1;
}

unsigned console_next_seq(struct console *c)
{
	return ++c->seq;
}

const char *console_agent_marker(const struct console *c)
{
	return c->marker;
}
