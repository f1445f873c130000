/* A QEMU chardev socket (-chardev socket,server=on,wait=off,path=...). QEMU creates the socket
 * only once it has started, so connecting retries until the deadline. */
#include "console/transport_fd.h"

#include "util/clock.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define CONNECT_RETRY_MS 50

/* 0 connected, 1 not there yet (worth retrying), -1 hard error; errno is kept. */
static int try_connect(const struct sockaddr_un *addr, int *fd_out)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int saved;

	if (fd < 0)
		return -1;
	if (connect(fd, (const struct sockaddr *)addr, sizeof(*addr)) == 0) {
		*fd_out = fd;
		return 0;
	}
	saved = errno;
	close(fd);
	errno = saved;
	return (saved == ENOENT || saved == ECONNREFUSED || saved == EAGAIN) ? 1 : -1;
}

static int socket_open(struct console_transport *t, const struct transport_params *p,
		       struct rig_err *err)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	long long deadline = monotonic_ms() + (p->connect_timeout_ms > 0 ? p->connect_timeout_ms : 0);
	int rc;

	if (strlen(p->path) >= sizeof(addr.sun_path))
		return rig_err_set(err, RIG_EXIT_USAGE, "console: socket path too long: %s", p->path);
	memcpy(addr.sun_path, p->path, strlen(p->path) + 1);
	while ((rc = try_connect(&addr, &t->fd)) == 1 && monotonic_ms() < deadline)
		clock_sleep_ms(CONNECT_RETRY_MS);
	if (rc != 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "console: cannot connect to %s: %s",
				   p->path, strerror(errno));
	return 0;
}

static int socket_send_break(struct console_transport *t, struct rig_err *err)
{
	/* A raw QEMU chardev socket carries bytes only; there is no out-of-band break. */
	return rig_err_set(err, RIG_EXIT_USAGE,
			   "console %s: the socket transport cannot send a serial break", t->path);
}

const struct console_transport_ops transport_socket_ops = {
	.name = "socket",
	.open = socket_open,
	.read = transport_fd_read,
	.write = transport_fd_write,
	.send_break = socket_send_break,
	.close = transport_fd_close,
	.poll_fd = transport_fd_poll_fd,
};
