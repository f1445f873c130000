/* meta-writer: metadata operations in a directory (create, rename, setxattr, fallocate, hole
 * punch, O_DIRECT write, unlink; lib/meta_ops.h), each completed operation acknowledged on
 * /dev/kmsg the way journal-writer --ack-on complete does. See workloads/README.md. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/ack.h"
#include "lib/meta_ops.h"

static volatile sig_atomic_t stop_requested;

static void request_stop(int signo)
{
	(void)signo;
	stop_requested = 1;
}

struct args {
	const char *dir, *id, *ack_file;
	unsigned interval_ms, ack_ms;
	uint64_t ops;
};

static void usage(FILE *f, const char *prog)
{
	fprintf(f, "usage: %s --dir DIR --id NAME [--interval-ms N] [--ack-ms N] [--ack-file PATH]\n"
		"          [--ops N]\n"
		"  operation k (from 1) in DIR, one every --interval-ms (default 50); the last completed\n"
		"  one acknowledged on /dev/kmsg (or --ack-file) at most every --ack-ms (default 100)\n"
		"  and at exit (SIGTERM, or after --ops N). DIR is created; it must hold no operation\n"
		"  files yet. Exit 0, 1 when an operation failed (no acknowledgement after it), 2 usage.\n",
		prog);
}

static int parse(int argc, char **argv, struct args *a)
{
	static const struct option options[] = {
		{"dir", required_argument, NULL, 'd'}, {"id", required_argument, NULL, 'i'},
		{"interval-ms", required_argument, NULL, 'n'}, {"ack-ms", required_argument, NULL, 'a'},
		{"ack-file", required_argument, NULL, 'f'}, {"ops", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0},
	};
	int opt;

	*a = (struct args){ .interval_ms = 50, .ack_ms = 100 };
	while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		bool ok = true;

		switch (opt) {
		case 'h': usage(stdout, argv[0]); exit(0);
		case 'd': a->dir = optarg; break;
		case 'i': a->id = optarg; break;
		case 'f': a->ack_file = optarg; break;
		case 'n': ok = wl_parse_uint(optarg, 60000, &a->interval_ms); break;
		case 'a': ok = wl_parse_uint(optarg, 60000, &a->ack_ms); break;
		case 'o': ok = wl_parse_u64(optarg, &a->ops); break;
		default: ok = false;
		}
		if (!ok)
			return -1;
	}
	if (optind != argc || !a->dir || !a->id || !*a->id || strlen(a->id) >= JR_ID_MAX)
		return -1;
	return 0;
}

/* DIR/id names the writer, durably, before any operation is acknowledged. */
static int prepare(const struct args *a, int *dirfd)
{
	int fd;

	if (mkdir(a->dir, 0755) < 0 && errno != EEXIST)
		return -errno;
	if ((*dirfd = open(a->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -errno;
	fd = openat(*dirfd, META_ID_FILE, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	if (dprintf(fd, "%s\n", a->id) < 0 || fsync(fd) < 0) {
		int e = -errno;

		close(fd);
		return e;
	}
	if (close(fd) < 0 || fsync(*dirfd) < 0)
		return -errno;
	return 0;
}

static void nap(unsigned ms)
{
	struct timespec t = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L };

	nanosleep(&t, NULL);   /* a stop signal ends it early */
}

static int ack(struct ack_sink *sink, const char *id, uint64_t seq)
{
	struct ack_line line = { .seq = seq, .boottime_ns = wl_now_ns(CLOCK_BOOTTIME) };

	snprintf(line.id, sizeof(line.id), "%s", id);
	return ack_sink_emit(sink, &line);
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = request_stop };
	struct wl_err err = {{0}};
	struct ack_sink sink;
	struct args a;
	uint64_t done = 0, acked = 0, last_ack_ns = 0;
	int dirfd = -1, rc;

	if (parse(argc, argv, &a) < 0) {
		usage(stderr, argv[0]);
		return 2;
	}
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGTERM, &sa, NULL) < 0 || sigaction(SIGINT, &sa, NULL) < 0) {
		perror("meta-writer: sigaction");
		return 2;
	}
	if ((rc = prepare(&a, &dirfd)) < 0) {
		fprintf(stderr, "meta-writer: %s: %s\n", a.dir, strerror(-rc));
		return 2;
	}
	if (ack_sink_open(&sink, a.ack_file, &err) < 0) {
		fprintf(stderr, "meta-writer: %s\n", err.msg);
		return 2;
	}
	rc = 0;
	while (!stop_requested && (a.ops == 0 || done < a.ops)) {
		uint64_t now;

		if ((rc = meta_apply(dirfd, done + 1, &err)) < 0) {
			fprintf(stderr, "meta-writer: operation %" PRIu64 ": %s\n", done + 1, err.msg);
			break;
		}
		done++;
		now = wl_now_ns(CLOCK_MONOTONIC);
		if (now - last_ack_ns >= (uint64_t)a.ack_ms * 1000000u && ack(&sink, a.id, done) == 0) {
			acked = done;
			last_ack_ns = now;
		}
		if (a.interval_ms)
			nap(a.interval_ms);
	}
	if (rc == 0 && done > acked && ack(&sink, a.id, done) == 0)
		acked = done;
	printf("meta-writer id=%s done=%" PRIu64 " acked=%" PRIu64 " failed=%s\n", a.id, done, acked,
	       rc ? err.msg : "no");
	ack_sink_close(&sink);
	close(dirfd);
	return rc ? 1 : 0;
}
