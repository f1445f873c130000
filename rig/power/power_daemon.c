#include "power/power_daemon.h"

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "power/power_proto.h"

#define DAEMON_IDLE_MS 10000

static int fill_addr(const char *path, struct sockaddr_un *addr, struct rig_err *err)
{
	memset(addr, 0, sizeof(*addr));
	addr->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(addr->sun_path))
		return rig_err_set(err, RIG_EXIT_USAGE, "socket path too long: %s", path);
	strcpy(addr->sun_path, path);
	return 0;
}

static int connect_to(const char *path, int *fd_out, struct rig_err *err)
{
	struct sockaddr_un addr;
	int fd;

	if (fill_addr(path, &addr, err) < 0)
		return -1;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "socket: %s", strerror(errno));
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		rig_err_set(err, RIG_EXIT_INFRA, "rig powerd on %s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	*fd_out = fd;
	return 0;
}

int power_daemon_listen(const char *path, int *listen_fd, struct rig_err *err)
{
	struct sockaddr_un addr;
	struct rig_err ignored;
	int fd;

	if (connect_to(path, &fd, &ignored) == 0) {
		close(fd);
		return rig_err_set(err, RIG_EXIT_USAGE, "another rig powerd serves %s", path);
	}
	if (fill_addr(path, &addr, err) < 0)
		return -1;
	if (unlink(path) < 0 && errno != ENOENT)
		return rig_err_set(err, RIG_EXIT_INFRA, "remove stale %s: %s", path, strerror(errno));
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "socket: %s", strerror(errno));
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 || listen(fd, 8) < 0) {
		rig_err_set(err, RIG_EXIT_INFRA, "listen on %s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	*listen_fd = fd;
	return 0;
}

static int send_all(int fd, const char *text, struct rig_err *err)
{
	size_t len = strlen(text);

	while (len > 0) {
		ssize_t n = send(fd, text, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return rig_err_set(err, RIG_EXIT_INFRA, "send: %s", strerror(errno));
		text += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Read one line (without its newline).  1 = line, 0 = EOF or idle, -1 = error or too long. */
static int read_line(int fd, char *buf, size_t size, size_t *have, unsigned idle_ms)
{
	for (;;) {
		char *nl = memchr(buf, '\n', *have);
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (nl) {
			*nl = '\0';
			return 1;
		}
		if (*have + 1 >= size)
			return -1;
		if (poll(&pfd, 1, (int)idle_ms) <= 0)
			return 0;
		n = read(fd, buf + *have, size - 1 - *have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -1 : 0;
		*have += (size_t)n;
	}
}

int power_daemon_serve_conn(struct power *power, int fd, unsigned idle_ms)
{
	char buf[POWER_PROTO_LINE_MAX], reply[POWER_PROTO_LINE_MAX + 64], why[128];
	size_t have = 0;
	struct rig_err err;

	for (;;) {
		struct power_request req;
		int got = read_line(fd, buf, sizeof(buf), &have, idle_ms);
		size_t used;
		bool watch = false;

		if (got < 0)
			send_all(fd, "err request too long\n", &err);
		if (got <= 0)
			return 0;
		used = strlen(buf) + 1;
		if (power_request_parse(buf, &req, why, sizeof(why)) < 0) {
			snprintf(reply, sizeof(reply), "err %s\n", why);
		} else {
			power_request_execute(power, &req, reply, sizeof(reply));
			watch = req.verb == POWER_VERB_WATCH;
		}
		memmove(buf, buf + used, have - used);
		have -= used;
		if (send_all(fd, reply, &err) < 0)
			return 0;
		if (watch)
			return 1;
	}
}

/* Watchers hold a connection each until they close it or the daemon exits. */
struct watchers {
	int fd[POWER_DAEMON_MAX_WATCHERS];
	size_t n;
};

static void watchers_drop(struct watchers *w, size_t i)
{
	close(w->fd[i]);
	w->fd[i] = w->fd[--w->n];
}

static void watchers_close_all(struct watchers *w)
{
	while (w->n)
		watchers_drop(w, w->n - 1);
}

int power_daemon_run(struct power *power, int listen_fd, volatile sig_atomic_t *stop,
		     struct rig_err *err)
{
	struct watchers w = { .n = 0 };
	int rc = 0;

	while (!*stop) {
		struct pollfd pfd[1 + POWER_DAEMON_MAX_WATCHERS] = { { .fd = listen_fd, .events = POLLIN } };
		int ready, fd;

		for (size_t i = 0; i < w.n; i++)
			pfd[1 + i] = (struct pollfd){ .fd = w.fd[i], .events = POLLIN };
		ready = poll(pfd, 1 + w.n, 200);
		if (ready < 0 && errno == EINTR)
			continue;
		if (ready < 0) {
			rc = rig_err_set(err, RIG_EXIT_INFRA, "poll: %s", strerror(errno));
			break;
		}
		/* A watcher that speaks or hangs up is done (from the last, so indices hold). */
		for (size_t i = w.n; i-- > 0;)
			if (pfd[1 + i].revents)
				watchers_drop(&w, i);
		if (!(pfd[0].revents & POLLIN))
			continue;
		fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0 && (errno == EINTR || errno == ECONNABORTED))
			continue;
		if (fd < 0) {
			rc = rig_err_set(err, RIG_EXIT_INFRA, "accept: %s", strerror(errno));
			break;
		}
		if (power_daemon_serve_conn(power, fd, DAEMON_IDLE_MS) == 1 &&
		    w.n < POWER_DAEMON_MAX_WATCHERS)
			w.fd[w.n++] = fd;
		else
			close(fd);
	}
	watchers_close_all(&w);
	return rc;
}

int power_daemon_call(const char *path, const char *request, char *reply, size_t size,
		      unsigned timeout_ms, struct rig_err *err)
{
	size_t have = 0;
	int fd, got;

	if (connect_to(path, &fd, err) < 0)
		return -1;
	if (send_all(fd, request, err) < 0) {
		close(fd);
		return -1;
	}
	got = read_line(fd, reply, size, &have, timeout_ms);
	close(fd);
	if (got <= 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "rig powerd on %s: no reply", path);
	return 0;
}

int power_daemon_watch(const char *path, int *fd_out, struct rig_err *err)
{
	char reply[POWER_PROTO_LINE_MAX], payload[32];
	size_t have = 0;
	int fd, got;

	if (connect_to(path, &fd, err) < 0)
		return -1;
	if (send_all(fd, "watch\n", err) < 0) {
		close(fd);
		return -1;
	}
	got = read_line(fd, reply, sizeof(reply), &have, 2000);
	if (got <= 0 || power_reply_parse(reply, payload, sizeof(payload), err) < 0 ||
	    strcmp(payload, "watching") != 0) {
		close(fd);
		if (got <= 0 || !strcmp(payload, ""))
			return rig_err_set(err, RIG_EXIT_INFRA, "rig powerd on %s: cannot watch it "
					   "(an older rig powerd?)", path);
		return -1;
	}
	*fd_out = fd;
	return 0;
}

int power_daemon_gone(int watch_fd)
{
	struct pollfd pfd = { .fd = watch_fd, .events = POLLIN };
	char byte;

	if (poll(&pfd, 1, 0) <= 0)
		return 0;
	/* The daemon never writes on a watch: anything readable is its end. */
	return recv(watch_fd, &byte, 1, MSG_DONTWAIT) <= 0 || (pfd.revents & (POLLHUP | POLLERR));
}
