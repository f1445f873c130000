/* A pty or tty path (QEMU's -chardev pty, or a tty libserialport will not open), set raw. */
#include "console/transport_fd.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static int make_raw(int fd)
{
	struct termios tio;

	if (tcgetattr(fd, &tio) < 0)
		return -1;
	cfmakeraw(&tio);
	tio.c_cc[VMIN] = 1;
	tio.c_cc[VTIME] = 0;
	return tcsetattr(fd, TCSANOW, &tio);
}

static int pty_open(struct console_transport *t, const struct transport_params *p,
		    struct rig_err *err)
{
	t->fd = open(p->path, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (t->fd < 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "console: cannot open %s: %s", p->path,
				   strerror(errno));
	if (make_raw(t->fd) < 0) {
		int saved = errno;

		transport_fd_close(t);
		return rig_err_set(err, RIG_EXIT_INFRA, "console: %s is not a terminal: %s",
				   p->path, strerror(saved));
	}
	return 0;
}

static int pty_send_break(struct console_transport *t, struct rig_err *err)
{
	if (tcsendbreak(t->fd, 0) < 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "console %s: break: %s", t->path,
				   strerror(errno));
	return 0;
}

const struct console_transport_ops transport_pty_ops = {
	.name = "pty",
	.open = pty_open,
	.read = transport_fd_read,
	.write = transport_fd_write,
	.send_break = pty_send_break,
	.close = transport_fd_close,
	.poll_fd = transport_fd_poll_fd,
};
