/* rig console [--log FILE] [--wait SECS]: raw terminal, stdin -> board, board -> stdout, until
 * the escape (console/escape.h). The terminal is restored on every way out, signals included. */
#include "cli/console.h"

#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "console/ansi.h"
#include "console/escape.h"
#include "console/linebuf.h"
#include "console/log.h"
#include "console/transport.h"
#include "engine/lease.h"
#include "util/err.h"
#include "util/number.h"

#define DEFAULT_WAIT_S 10

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

struct session {
	struct console_transport *transport;
	struct console_log *log;
	struct linebuf linebuf;
	struct escape_state escape;
	struct termios saved;
	bool raw_terminal;
	struct rig_err err;
};

static void usage(FILE *out)
{
	fprintf(out, "usage: rig console --board BOARD [--log FILE] [--wait SECS]\n"
		     "  --log FILE   also append the console to FILE, one time-stamped line each\n"
		     "  --wait SECS  keep trying to reach the console, and wait for a board\n"
		     "               another driver holds, this long (default %d)\n"
		     "The console is the board's: it is refused (exit 3, naming the holder) while\n"
		     "`rig run` or anyone but a `rig lock` lease of this session holds the board.\n"
		     "Escape: " ESCAPE_HELP ".\n", DEFAULT_WAIT_S);
}

static int parse_args(int argc, char **argv, const char **log_path, int *wait_s)
{
	static const struct option opts[] = {
		{ "log", required_argument, NULL, 'l' },
		{ "wait", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "l:w:h", opts, NULL)) != -1) {
		switch (c) {
		case 'l':
			*log_path = optarg;
			break;
		case 'w': {
			unsigned w;

			if (parse_uint(optarg, 0, 86400, &w) < 0) {
				fprintf(stderr, "rig: console: --wait: '%s' is not 0..86400 seconds\n", optarg);
				return -1;
			}
			*wait_s = (int)w;
			break;
		}
		case 'h':
			usage(stdout);
			return 1;
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return -1;
	}
	return 0;
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;   /* no SA_RESTART: poll() must return EINTR */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
}

static int enter_raw(struct session *s)
{
	struct termios raw;

	if (!isatty(STDIN_FILENO))
		return 0;
	if (tcgetattr(STDIN_FILENO, &s->saved) < 0)
		return rig_err_set(&s->err, RIG_EXIT_INFRA, "console: terminal: %s", strerror(errno));
	raw = s->saved;
	cfmakeraw(&raw);
	if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) < 0)
		return rig_err_set(&s->err, RIG_EXIT_INFRA, "console: terminal: %s", strerror(errno));
	s->raw_terminal = true;
	return 0;
}

static void leave_raw(struct session *s)
{
	if (s->raw_terminal)
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &s->saved);
	s->raw_terminal = false;
}

static int write_all(int fd, const char *p, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* linebuf_emit_fn for --log. */
static int log_line(void *ctx, const char *line, size_t len, const struct timespec *t)
{
	struct session *s = ctx;
	char *text = malloc(len + 1);
	int rc;

	if (!text)
		return rig_err_set(&s->err, RIG_EXIT_INFRA, "console: out of memory");
	ansi_strip(line, len, text);
	rc = console_log_line(s->log, t, text, &s->err);
	free(text);
	return rc;
}

/* 1 = keep going, 0 = the board side ended, -1 = error. */
static int from_board(struct session *s)
{
	char buf[4096];
	struct timespec now;
	ssize_t n = transport_read(s->transport, buf, sizeof(buf), 0, &s->err);

	if (n <= 0)
		return (int)n;
	if (write_all(STDOUT_FILENO, buf, (size_t)n) < 0)
		return rig_err_set(&s->err, RIG_EXIT_INFRA, "console: stdout: %s", strerror(errno));
	clock_gettime(CLOCK_REALTIME, &now);
	if (s->log && linebuf_feed(&s->linebuf, buf, (size_t)n, &now, log_line, s) != 0)
		return -1;
	return 1;
}

static int apply_escape(struct session *s, enum escape_action action)
{
	if (action == ESCAPE_QUIT)
		return 0;
	if (action == ESCAPE_BREAK && transport_send_break(s->transport, &s->err) < 0) {
		fprintf(stderr, "\r\nrig console: %s\r\n", s->err.msg);
		return 1;
	}
	return 1;
}

/* 1 = keep going, 0 = the user quit or stdin ended, -1 = error. */
static int from_user(struct session *s)
{
	unsigned char in[256], out[2 * sizeof(in)];
	size_t n_out = 0;
	ssize_t n = read(STDIN_FILENO, in, sizeof(in));

	if (n < 0 && errno == EINTR)
		return 1;
	if (n <= 0)
		return n < 0 ? rig_err_set(&s->err, RIG_EXIT_INFRA, "console: stdin: %s",
					   strerror(errno)) : 0;
	for (ssize_t i = 0; i < n; i++) {
		size_t k;
		enum escape_action action = escape_feed(&s->escape, in[i], out + n_out, &k);

		n_out += k;
		if (action == ESCAPE_NONE)
			continue;
		/* What was typed before the escape still goes out, before a break or the end. */
		if (n_out && transport_write(s->transport, out, n_out, &s->err) < 0)
			return -1;
		n_out = 0;
		if (apply_escape(s, action) == 0)
			return 0;
	}
	if (n_out && transport_write(s->transport, out, n_out, &s->err) < 0)
		return -1;
	return 1;
}

static int pass_through(struct session *s)
{
	struct pollfd fds[2] = {
		{ .fd = STDIN_FILENO, .events = POLLIN },
		{ .fd = transport_poll_fd(s->transport), .events = POLLIN },
	};
	int rc = 1;

	while (rc > 0 && !stop_signal) {
		if (poll(fds, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return rig_err_set(&s->err, RIG_EXIT_INFRA, "console: poll: %s", strerror(errno));
		}
		if (fds[1].revents)
			rc = from_board(s);
		if (rc > 0 && fds[0].revents)
			rc = from_user(s);
	}
	return rc < 0 ? -1 : 0;
}

static int open_session(struct session *s, const struct board *board, const char *log_path,
			int wait_s)
{
	struct transport_params p = {
		.path = board->console.path, .baud = board->console.baud,
		.connect_timeout_ms = wait_s * 1000,
	};

	linebuf_init(&s->linebuf);
	if (transport_open(board->console.transport, &p, &s->transport, &s->err) < 0)
		return -1;
	if (log_path && console_log_open(log_path, NULL, &s->log, &s->err) < 0)
		return -1;
	return 0;
}

static void close_session(struct session *s)
{
	leave_raw(s);
	if (s->log)
		linebuf_flush(&s->linebuf, log_line, s);
	console_log_close(s->log);
	linebuf_free(&s->linebuf);
	transport_close(s->transport);
}

int cmd_console(struct board *board, int argc, char **argv)
{
	struct session s = { 0 };
	struct board_lease lease = { 0 };
	const char *log_path = NULL;
	int wait_s = DEFAULT_WAIT_S, rc;

	rc = parse_args(argc, argv, &log_path, &wait_s);
	if (rc != 0)
		return rc > 0 ? RIG_EXIT_PASS : RIG_EXIT_USAGE;
	if (!board) {
		fprintf(stderr, "rig console: rig console needs --board\n");
		usage(stderr);
		return RIG_EXIT_USAGE;
	}
	/* Two readers of one serial line each get half of it: the engine's console is not shared. */
	if (board->name && board_lease_take(board->name, wait_s, &lease, &s.err) < 0) {
		fprintf(stderr, "rig console: %s\n", s.err.msg);
		return (int)s.err.class;
	}
	if (open_session(&s, board, log_path, wait_s) == 0 && enter_raw(&s) == 0) {
		install_signals();
		fprintf(stderr, "rig console: %s (%s) on board %s. %s.\r\n", board->console.path,
			board->console.transport, board->name ? board->name : "?", ESCAPE_HELP);
		rc = pass_through(&s);
	} else {
		rc = -1;
	}
	close_session(&s);
	board_lease_release(&lease);
	if (rc < 0) {
		fprintf(stderr, "rig console: %s\n", s.err.msg);
		return s.err.class ? (int)s.err.class : RIG_EXIT_INFRA;
	}
	fprintf(stderr, "\nrig console: %s\n", stop_signal ? "interrupted" : "bye");
	return RIG_EXIT_PASS;
}
