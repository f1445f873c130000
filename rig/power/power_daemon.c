#include "power/power_daemon.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "power/power_proto.h"
#include "util/clock.h"

#define DEFAULT_REQUEST_MS 5000
#define POLL_MS 200

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
		int e = errno;   /* callers tell "nothing there" from "refused" by it */

		rig_err_set(err, RIG_EXIT_INFRA, "rig powerd on %s: %s", path, strerror(e));
		close(fd);
		errno = e;
		return -1;
	}
	*fd_out = fd;
	return 0;
}

/*
 * What sits at path may be replaced only when it is a socket nobody serves: a regular file, a
 * directory or a symlink is someone's and is refused; a socket we may not connect to is another
 * user's daemon, never "stale".
 */
static int clear_path(const char *path, struct rig_err *err)
{
	struct rig_err probe = { 0 };
	struct stat st;
	int fd;

	if (lstat(path, &st) != 0)
		return errno == ENOENT ? 0 : rig_err_set(err, RIG_EXIT_INFRA, "%s: %s", path,
							  strerror(errno));
	if (!S_ISSOCK(st.st_mode))
		return rig_err_set(err, RIG_EXIT_USAGE, "%s exists and is not a socket: rig powerd "
				   "replaces only a socket an earlier rig powerd left; remove it yourself "
				   "if nothing needs it", path);
	if (connect_to(path, &fd, &probe) == 0) {
		close(fd);
		return rig_err_set(err, RIG_EXIT_USAGE, "another rig powerd serves %s", path);
	}
	if (errno != ECONNREFUSED)
		return rig_err_set(err, RIG_EXIT_INFRA, "%s: a socket rig powerd cannot probe (%s): "
				   "another user's rig powerd? remove it if it is stale", path,
				   strerror(errno));
	if (unlink(path) < 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "remove stale %s: %s", path, strerror(errno));
	return 0;
}

/* The socket file admits the owner (and the group): 0600 or 0660. Created under umask 0177 so it
 * is never wider, even for a moment. */
static int bind_private(int fd, const char *path, const struct sockaddr_un *addr,
			const struct peer_policy *peers, struct rig_err *err)
{
	mode_t old = umask(0177);
	int rc = bind(fd, (const struct sockaddr *)addr, sizeof(*addr));

	umask(old);
	if (rc < 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "listen on %s: %s", path, strerror(errno));
	if (peers && peers->has_group &&
	    (chown(path, (uid_t)-1, peers->group) < 0 || chmod(path, 0660) < 0))
		return rig_err_set(err, RIG_EXIT_INFRA, "%s: giving it to the group: %s", path,
				   strerror(errno));
	return 0;
}

int power_daemon_listen(const char *path, const struct peer_policy *peers, int *listen_fd,
			struct rig_err *err)
{
	struct sockaddr_un addr;
	int fd;

	if (fill_addr(path, &addr, err) < 0 || clear_path(path, err) < 0)
		return -1;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "socket: %s", strerror(errno));
	if (bind_private(fd, path, &addr, peers, err) < 0) {
		close(fd);
		return -1;
	}
	if (listen(fd, 16) < 0) {
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

/* One client. Its bytes are read as they come, so a slow or trickling client holds nobody else
 * up; a request line must be whole within the request deadline. */
struct conn {
	int fd;
	bool watching;          /* after "watch": kept, silent, until either side goes */
	long long deadline;     /* monotonic ms by which the next request must be complete */
	size_t have;
	char buf[POWER_PROTO_LINE_MAX];
};

struct daemon {
	struct power *power;
	const struct power_daemon_opts *opts;
	struct conn conns[POWER_DAEMON_MAX_CONNS];
	size_t n;
};

static unsigned request_ms(const struct daemon *d)
{
	return d->opts && d->opts->request_ms ? d->opts->request_ms : DEFAULT_REQUEST_MS;
}

/* A reply to a client that does not read its replies must not block the daemon: it is dropped. */
static int send_now(int fd, const char *text)
{
	size_t len = strlen(text);
	ssize_t n;

	do
		n = send(fd, text, len, MSG_NOSIGNAL | MSG_DONTWAIT);
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)len ? 0 : -1;
}

static void drop(struct daemon *d, size_t i)
{
	close(d->conns[i].fd);
	d->conns[i] = d->conns[--d->n];
}

/* Answer every whole line in c's buffer. -1: drop the connection. */
static int answer_lines(struct daemon *d, struct conn *c)
{
	char *nl, reply[POWER_PROTO_LINE_MAX + 64], why[128];

	while (!c->watching && (nl = memchr(c->buf, '\n', c->have))) {
		struct power_request req;
		size_t used = (size_t)(nl - c->buf) + 1;

		*nl = '\0';
		if (power_request_parse(c->buf, &req, why, sizeof(why)) < 0) {
			snprintf(reply, sizeof(reply), "err %s\n", why);
		} else {
			power_request_execute(d->power, &req, reply, sizeof(reply));
			c->watching = req.verb == POWER_VERB_WATCH;
		}
		memmove(c->buf, c->buf + used, c->have - used);
		c->have -= used;
		if (send_now(c->fd, reply) < 0)
			return -1;
		c->deadline = monotonic_ms() + request_ms(d);
	}
	if (c->have == sizeof(c->buf)) {
		send_now(c->fd, "err request too long\n");
		return -1;
	}
	return 0;
}

/* c is readable: read what is there, answer whole lines. -1: drop it. */
static int on_readable(struct daemon *d, struct conn *c)
{
	ssize_t n;

	if (c->watching)
		return -1;   /* a watcher never speaks: anything readable is its end */
	do
		n = recv(c->fd, c->buf + c->have, sizeof(c->buf) - c->have, MSG_DONTWAIT);
	while (n < 0 && errno == EINTR);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return 0;
	if (n <= 0)
		return -1;
	c->have += (size_t)n;
	return answer_lines(d, c);
}

static void on_accept(struct daemon *d, int listen_fd)
{
	int fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	char why[256], line[300];
	int allowed;

	if (fd < 0)
		return;   /* the client gave up (ECONNABORTED), EINTR, or no memory: next round */
	allowed = d->opts ? peer_allowed(fd, &d->opts->peers, why, sizeof(why)) : 1;
	if (allowed == 1 && d->n == POWER_DAEMON_MAX_CONNS) {
		allowed = 0;
		snprintf(why, sizeof(why), "busy: %d connections open", POWER_DAEMON_MAX_CONNS);
	}
	if (allowed != 1) {
		snprintf(line, sizeof(line), "err rig powerd: %s\n", why);
		send_now(fd, line);
		fprintf(stderr, "rig powerd: %s\n", why);
		close(fd);
		return;
	}
	d->conns[d->n] = (struct conn){ .fd = fd, .deadline = monotonic_ms() + request_ms(d) };
	d->n++;
}

/* Connections whose request did not come whole in time are told so and closed. */
static void expire(struct daemon *d, long long now)
{
	char line[96];

	for (size_t i = d->n; i-- > 0;) {
		if (d->conns[i].watching || now < d->conns[i].deadline)
			continue;
		snprintf(line, sizeof(line), "err no whole request within %u ms\n", request_ms(d));
		send_now(d->conns[i].fd, line);
		drop(d, i);
	}
}

static int poll_timeout(const struct daemon *d, long long now)
{
	long long t = POLL_MS;

	for (size_t i = 0; i < d->n; i++)
		if (!d->conns[i].watching && d->conns[i].deadline - now < t)
			t = d->conns[i].deadline - now;
	return t < 0 ? 0 : (int)t;
}

int power_daemon_run(struct power *power, int listen_fd, const struct power_daemon_opts *opts,
		     volatile sig_atomic_t *stop, struct rig_err *err)
{
	struct daemon *d = calloc(1, sizeof(*d));
	int rc = 0;

	if (!d)
		return rig_err_set(err, RIG_EXIT_INFRA, "rig powerd: out of memory");
	d->power = power;
	d->opts = opts;
	while (!*stop) {
		struct pollfd pfd[1 + POWER_DAEMON_MAX_CONNS] = { { .fd = listen_fd, .events = POLLIN } };
		size_t n = d->n;
		int ready;

		for (size_t i = 0; i < n; i++)
			pfd[1 + i] = (struct pollfd){ .fd = d->conns[i].fd, .events = POLLIN };
		ready = poll(pfd, 1 + n, poll_timeout(d, monotonic_ms()));
		if (ready < 0 && errno == EINTR)
			continue;
		if (ready < 0) {
			rc = rig_err_set(err, RIG_EXIT_INFRA, "poll: %s", strerror(errno));
			break;
		}
		/* from the last, so dropping one (the last moves into its place) keeps the rest */
		for (size_t i = n; i-- > 0;)
			if (pfd[1 + i].revents && on_readable(d, &d->conns[i]) < 0)
				drop(d, i);
		expire(d, monotonic_ms());
		if (pfd[0].revents & POLLIN)
			on_accept(d, listen_fd);
	}
	while (d->n)
		drop(d, d->n - 1);
	free(d);
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

int power_daemon_probe(const char *path, struct rig_err *err)
{
	char reply[POWER_PROTO_LINE_MAX], payload[64];
	size_t have = 0;
	int fd, got;

	if (connect_to(path, &fd, err) < 0)
		return errno == ENOENT || errno == ECONNREFUSED ? 0 : -1;
	if (send_all(fd, "ping\n", err) < 0) {
		close(fd);
		return -1;
	}
	got = read_line(fd, reply, sizeof(reply), &have, 2000);
	close(fd);
	if (got <= 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "rig powerd on %s: no reply", path);
	return power_reply_parse(reply, payload, sizeof(payload), err) == 0 ? 1 : -1;
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
