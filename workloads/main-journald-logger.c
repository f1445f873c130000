/* journald-logger: the journald workload. Sends numbered entries to systemd-journald at a steady
 * pace and acknowledges, on /dev/kmsg, the highest entry journald has *written*: read back from
 * the journal files by `journalctl --follow` on the persistent journal, not what was sent.
 * See workloads/README.md. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/ack.h"
#include "lib/journald_logger.h"
#include "lib/telemetry.h"
#include "lib/wl_util.h"

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

struct logger_args {
	const char *id, *socket_path, *directory, *journalctl, *telemetry;
	unsigned interval_ms, ack_ms;
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void usage(FILE *out, const char *prog)
{
	fprintf(out,
		"usage: %s --id ID [--interval-ms N] [--ack-ms N] [--directory DIR] [--socket PATH]\n"
		"           [--journalctl PATH] [--telemetry PATH]\n"
		"Send entry after entry (MESSAGE=\"rig-jd id=ID seq=N\", RIG_ID, RIG_SEQ) to journald's\n"
		"native socket (default /run/systemd/journal/socket) every --interval-ms (default 50),\n"
		"read them back with journalctl --follow from DIR (default /var/log/journal) and write\n"
		"\"rig-ack: id=ID seq=N boottime_ns=T\" to /dev/kmsg for the highest entry read back, at\n"
		"most every --ack-ms (default 100). --telemetry: journald's progress as a reader sees it,\n"
		"for stall-report: one operation per entry read back, from the previous read-back to\n"
		"this one (a gap across a frozen window is journald blocked). Runs until SIGTERM;\n"
		"prints a summary line.\n",
		prog);
}

static int parse_args(int argc, char **argv, struct logger_args *a)
{
	static const struct option options[] = {
		{"id", required_argument, NULL, 'i'},
		{"interval-ms", required_argument, NULL, 'n'},
		{"ack-ms", required_argument, NULL, 'a'},
		{"directory", required_argument, NULL, 'D'},
		{"socket", required_argument, NULL, 's'},
		{"journalctl", required_argument, NULL, 'j'},
		{"telemetry", required_argument, NULL, 't'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c;

	*a = (struct logger_args){ .socket_path = "/run/systemd/journal/socket",
				   .directory = "/var/log/journal", .journalctl = "journalctl",
				   .interval_ms = 50, .ack_ms = 100 };
	while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (c) {
		case 'i': a->id = optarg; break;
		case 'n':
			if (!wl_parse_uint(optarg, 60000, &a->interval_ms) || a->interval_ms == 0)
				return fprintf(stderr, "journald-logger: bad --interval-ms %s\n", optarg), -1;
			break;
		case 'a':
			if (!wl_parse_uint(optarg, 60000, &a->ack_ms))
				return fprintf(stderr, "journald-logger: bad --ack-ms %s\n", optarg), -1;
			break;
		case 'D': a->directory = optarg; break;
		case 's': a->socket_path = optarg; break;
		case 'j': a->journalctl = optarg; break;
		case 't': a->telemetry = optarg; break;
		case 'h': usage(stdout, argv[0]); exit(EXIT_OK);
		default: usage(stderr, argv[0]); return -1;
		}
	}
	if (!a->id || !*a->id || strlen(a->id) >= JR_ID_MAX || optind != argc) {
		usage(stderr, argv[0]);
		return -1;
	}
	return 0;
}

static int journal_socket(const char *path, struct sockaddr_un *addr)
{
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	memset(addr, 0, sizeof(*addr));
	addr->sun_family = AF_UNIX;
	if (fd < 0 || strlen(path) >= sizeof(addr->sun_path)) {
		fprintf(stderr, "journald-logger: socket %s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	memcpy(addr->sun_path, path, strlen(path) + 1);
	return fd;
}

/* journalctl --follow on the persistent journal, only this writer's entries, MESSAGE only. */
static int start_reader(const struct logger_args *a, pid_t *pid)
{
	char match[64];
	int fds[2];

	snprintf(match, sizeof(match), "RIG_ID=%s", a->id);
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -1;
	*pid = fork();
	if (*pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (*pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		execlp(a->journalctl, a->journalctl, "--follow", "--lines=all", "--output=cat",
		       "--no-pager", "--directory", a->directory, match, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	return fds[0];
}

static uint64_t tel_last_ns;   /* the previous read-back, CLOCK_BOOTTIME */

/* Feed every complete line read from fd to the acker; buf keeps a partial line. 0, or -1 at
 * the end of the reader's output. */
static int read_back(int fd, char *buf, size_t size, size_t *used, const char *id,
		     struct jd_acker *acker, struct tel_writer *tel)
{
	ssize_t n = read(fd, buf + *used, size - 1 - *used);
	char *start = buf, *nl;

	if (n <= 0)
		return n < 0 && errno == EINTR ? 0 : -1;
	*used += (size_t)n;
	buf[*used] = '\0';
	while ((nl = strchr(start, '\n'))) {
		uint64_t got;

		*nl = '\0';
		if (jd_line_parse(start, id, &got) && got > acker->highest_read) {
			uint64_t now = wl_now_ns(CLOCK_BOOTTIME);

			tel_op_begin(tel, TEL_OP_STORE, got, tel_last_ns ? tel_last_ns : now);
			tel_op_end(tel, now, 0);
			tel_last_ns = now;
			jd_acker_read(acker, got);
		}
		start = nl + 1;
	}
	*used -= (size_t)(start - buf);
	memmove(buf, start, *used);
	if (*used == size - 1)   /* a line longer than any entry: not ours, drop it */
		*used = 0;
	return 0;
}

static uint64_t ms_ns(unsigned ms)
{
	return (uint64_t)ms * 1000000u;
}

int main(int argc, char **argv)
{
	struct logger_args a;
	struct sockaddr_un addr;
	struct ack_sink sink;
	struct wl_err err;
	struct jd_acker acker = { 0 };
	struct tel_writer tel;
	uint64_t seq = 0, sent = 0, send_errors = 0, next_send;
	char entry[256], line[512];
	size_t line_used = 0;
	pid_t reader_pid;
	int sock, reader;

	if (parse_args(argc, argv, &a) < 0)
		return EXIT_USAGE;
	acker.ack_ns = ms_ns(a.ack_ms);
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	signal(SIGPIPE, SIG_IGN);
	if ((sock = journal_socket(a.socket_path, &addr)) < 0)
		return EXIT_USAGE;
	if (ack_sink_open(&sink, NULL, &err) < 0) {
		fprintf(stderr, "journald-logger: %s\n", err.msg);
		return EXIT_USAGE;
	}
	tel_writer_init_disabled(&tel);
	if (a.telemetry && tel_writer_open(&tel, a.telemetry, TEL_SLOW_CAPACITY, TEL_RECENT_CAPACITY,
					   &err) < 0) {
		fprintf(stderr, "journald-logger: %s\n", err.msg);
		return EXIT_USAGE;
	}
	if ((reader = start_reader(&a, &reader_pid)) < 0) {
		fprintf(stderr, "journald-logger: cannot start %s: %s\n", a.journalctl, strerror(errno));
		return EXIT_USAGE;
	}
	next_send = wl_now_ns(CLOCK_MONOTONIC);
	while (!stop) {
		uint64_t now = wl_now_ns(CLOCK_MONOTONIC), ack_seq;
		struct pollfd pfd = { .fd = reader, .events = POLLIN };
		int timeout;

		if (now >= next_send) {
			int n = jd_entry_format(entry, sizeof(entry), a.id, seq + 1);

			/* a datagram journald did not take is not an entry: the same seq again */
			if (n > 0 && sendto(sock, entry, (size_t)n, 0, (struct sockaddr *)&addr,
					    sizeof(addr)) == n) {
				seq++;
				sent++;
			} else {
				send_errors++;
			}
			next_send += ms_ns(a.interval_ms);
			if (next_send < now)   /* after a suspend: a steady pace, no burst */
				next_send = now + ms_ns(a.interval_ms);
		}
		timeout = (int)((next_send - (now < next_send ? now : next_send)) / 1000000u);
		if (poll(&pfd, 1, timeout) > 0 &&
		    read_back(reader, line, sizeof(line), &line_used, a.id, &acker, &tel) < 0) {
			fprintf(stderr, "journald-logger: journalctl ended\n");
			break;
		}
		if (jd_acker_due(&acker, wl_now_ns(CLOCK_BOOTTIME), &ack_seq)) {
			struct ack_line ack = { .seq = ack_seq, .boottime_ns = wl_now_ns(CLOCK_BOOTTIME) };

			snprintf(ack.id, sizeof(ack.id), "%s", a.id);
			ack_sink_emit(&sink, &ack);
		}
	}
	kill(reader_pid, SIGTERM);
	waitpid(reader_pid, NULL, 0);
	printf("journald-logger id=%s sent=%llu read_back=%llu acked=%llu send_errors=%llu\n", a.id,
	       (unsigned long long)sent, (unsigned long long)acker.highest_read,
	       (unsigned long long)acker.acked, (unsigned long long)send_errors);
	ack_sink_close(&sink);
	tel_writer_close(&tel);
	return stop ? EXIT_OK : EXIT_FAIL;
}
