/* Reading and writing a plain descriptor with poll() timeouts; also the "fd" backend that
 * wraps a descriptor the caller already has (tests use a socketpair or a pty master). */
#include "console/transport_fd.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static int wait_readable(int fd, int timeout_ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int rc;

	do {
		rc = poll(&pfd, 1, timeout_ms);
	} while (rc < 0 && errno == EINTR);
	return rc;
}

ssize_t transport_fd_read(struct console_transport *t, void *buf, size_t len, int timeout_ms,
			  struct rig_err *err)
{
	int ready = wait_readable(t->fd, timeout_ms);
	ssize_t n;

	if (ready < 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "console %s: poll: %s", t->path,
				   strerror(errno));
	if (ready == 0)
		return 0;
	do {
		n = read(t->fd, buf, len);
	} while (n < 0 && errno == EINTR);
	if (n < 0 && errno == EAGAIN)
		return 0;
	if (n < 0)
		/* A pty master reads EIO once the other side is gone: that is an end, too. */
		return rig_err_set(err, RIG_EXIT_INFRA, "console %s: read: %s", t->path,
				   strerror(errno));
	if (n == 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "console %s: closed by the other end",
				   t->path);
	return n;
}

int transport_fd_write(struct console_transport *t, const void *buf, size_t len,
		       struct rig_err *err)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t n = write(t->fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN) {
			struct pollfd pfd = { .fd = t->fd, .events = POLLOUT };

			if (poll(&pfd, 1, 1000) < 0 && errno != EINTR)
				return rig_err_set(err, RIG_EXIT_INFRA, "console %s: poll: %s",
						   t->path, strerror(errno));
			continue;
		}
		if (n <= 0)
			return rig_err_set(err, RIG_EXIT_INFRA, "console %s: write: %s", t->path,
					   n < 0 ? strerror(errno) : "nothing written");
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

void transport_fd_close(struct console_transport *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}

int transport_fd_poll_fd(const struct console_transport *t)
{
	return t->fd;
}

static int fd_open(struct console_transport *t, const struct transport_params *p,
		   struct rig_err *err)
{
	(void)p;
	return rig_err_set(err, RIG_EXIT_USAGE, "console %s: fd transport is made by transport_from_fd",
			   t->path);
}

static int fd_send_break(struct console_transport *t, struct rig_err *err)
{
	if (isatty(t->fd) && tcsendbreak(t->fd, 0) == 0)
		return 0;
	return rig_err_set(err, RIG_EXIT_USAGE, "console %s: cannot send a break on this descriptor",
			   t->path);
}

const struct console_transport_ops transport_fd_ops = {
	.name = "fd",
	.open = fd_open,
	.read = transport_fd_read,
	.write = transport_fd_write,
	.send_break = fd_send_break,
	.close = transport_fd_close,
	.poll_fd = transport_fd_poll_fd,
};
