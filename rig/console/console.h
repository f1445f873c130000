/* A console session: transport bytes -> raw log -> physical lines (host-timestamped, escape
 * sequences removed) -> line log -> kernel-record splitter -> logical lines. Every logical
 * line handed out also goes through the kernel event parser to the event handler. */
#ifndef RIG_CONSOLE_CONSOLE_H
#define RIG_CONSOLE_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "config/board.h"
#include "console/events.h"
#include "console/transport.h"
#include "util/err.h"

#define CONSOLE_AGENT_MARKER "@@RIG@@"

struct console_options {
	const char *log_path;       /* "[secs.usecs] line" log; NULL = none */
	const char *raw_log_path;   /* every byte as received; NULL = none */
	const char *agent_marker;   /* NULL = CONSOLE_AGENT_MARKER */
	int quiet_ms;               /* silence that settles a doubtful split; 0 = 300 ms */
};

struct console_line {
	const char *text;           /* valid until the next console_next_line() or close */
	struct timespec host_time;  /* wall-clock arrival of the line's first byte */
	bool has_ktime;
	double ktime;               /* kernel timestamp when the line is a kernel record */
};

typedef void (*console_event_fn)(void *ctx, const struct kevent *ev);

struct console;

/* Takes ownership of t (closed on failure too). */
int console_create(struct console_transport *t, const struct console_options *opts,
		   struct console **out, struct rig_err *err);
/* Open the board's console transport (connect_timeout_ms for a QEMU socket not there yet). */
int console_open(const struct board_console *cfg, int connect_timeout_ms,
		 const struct console_options *opts, struct console **out, struct rig_err *err);
void console_close(struct console *c);

void console_set_event_handler(struct console *c, console_event_fn fn, void *ctx);

/* 1 = *line filled, 0 = nothing within timeout_ms (-1 waits forever), -1 = error or the
 * console went away. */
int console_next_line(struct console *c, int timeout_ms, struct console_line *line,
		      struct rig_err *err);
int console_send(struct console *c, const void *buf, size_t len, struct rig_err *err);
int console_send_break(struct console *c, struct rig_err *err);

/* Did the transport come back from an unplug since the last call?  (What the board said in
 * between is lost: a pending agent reply must be asked for again.) */
bool console_take_reattached(struct console *c);
/* What the console missed while its serial adapter was unplugged, in the board's kernel time:
 * the last kernel record before the unplug and the first after (-1: none seen). */
struct console_gap {
	double since_ktime, until_ktime;
	long long ms;
};
/* 1 once for each unplug that came back, with its gap. */
int console_take_gap(struct console *c, struct console_gap *gap);
/* A line recovered from elsewhere (the board's kernel log) into the log and the event handler,
 * as if it had come over the console. */
void console_replay_line(struct console *c, const char *text);

/* Something rig says about the line itself ("rig: msg"): to the console log and stderr. */
void console_note(struct console *c, const char *msg);

/* 1 when what the console carries is not text (a wrong speed): why says so. */
int console_garbled(const struct console *c, char *why, size_t size);

/* Request numbers for the agent protocol, unique per session. */
unsigned console_next_seq(struct console *c);
const char *console_agent_marker(const struct console *c);

#endif
