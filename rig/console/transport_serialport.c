/* A real UART (/dev/ttyUSB*, /dev/ttyS*) through libserialport: 8N1, no flow control.
 * libserialport 0.1.1 refuses ptys, which is why the pty backend exists. */
#include "console/transport_fd.h"
#include "util/clock.h"

#include <errno.h>
#include <libserialport.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DEFAULT_BAUD 115200
#define WRITE_TIMEOUT_MS 10000
#define BREAK_MS 250

static int sp_fail(struct rig_err *err, const char *path, const char *what)
{
	char *msg = sp_last_error_message();
	int rc = rig_err_set(err, RIG_EXIT_INFRA, "console %s: %s: %s", path, what,
			     msg ? msg : "unknown error");

	sp_free_error_message(msg);
	return rc;
}

static int configure(struct sp_port *port, unsigned baud)
{
	if (sp_set_baudrate(port, (int)baud) != SP_OK || sp_set_bits(port, 8) != SP_OK ||
	    sp_set_parity(port, SP_PARITY_NONE) != SP_OK || sp_set_stopbits(port, 1) != SP_OK ||
	    sp_set_flowcontrol(port, SP_FLOWCONTROL_NONE) != SP_OK)
		return -1;
	return 0;
}

static int serial_open(struct console_transport *t, const struct transport_params *p,
		       struct rig_err *err)
{
	struct sp_port *port;

	if (sp_get_port_by_name(p->path, &port) != SP_OK)
		return sp_fail(err, p->path, "no such serial port");
	if (sp_open(port, SP_MODE_READ_WRITE) != SP_OK) {
		sp_fail(err, p->path, "open");
		sp_free_port(port);
		return -1;
	}
	if (configure(port, p->baud ? p->baud : DEFAULT_BAUD) < 0 ||
	    sp_get_port_handle(port, &t->fd) != SP_OK) {
		sp_fail(err, p->path, "configure 8N1");
		sp_close(port);
		sp_free_port(port);
		return -1;
	}
	t->priv = port;
	return 0;
}

static ssize_t serial_read(struct console_transport *t, void *buf, size_t len, int timeout_ms,
			   struct rig_err *err)
{
	struct pollfd pfd = { .fd = t->fd, .events = POLLIN };
	int ready;
	enum sp_return n;

	do {
		ready = poll(&pfd, 1, timeout_ms);
	} while (ready < 0 && errno == EINTR);
	if (ready < 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "console %s: poll: %s", t->path,
				   strerror(errno));
	if (ready == 0)
		return 0;
	if (pfd.revents & (POLLHUP | POLLERR | POLLNVAL))
		return rig_err_set(err, RIG_EXIT_INFRA, "console %s: serial port went away",
				   t->path);
	n = sp_nonblocking_read(t->priv, buf, len);
	if (n < 0)
		return sp_fail(err, t->path, "read");
	return n;
}

static int serial_write(struct console_transport *t, const void *buf, size_t len,
			struct rig_err *err)
{
	enum sp_return n = sp_blocking_write(t->priv, buf, len, WRITE_TIMEOUT_MS);

	if (n < 0)
		return sp_fail(err, t->path, "write");
	if ((size_t)n != len)
		return rig_err_set(err, RIG_EXIT_INFRA, "console %s: write timed out (%d of %zu bytes)",
				   t->path, (int)n, len);
	return 0;
}

static int serial_send_break(struct console_transport *t, struct rig_err *err)
{
	if (sp_start_break(t->priv) != SP_OK)
		return sp_fail(err, t->path, "start break");
	clock_sleep_ms(BREAK_MS);
	if (sp_end_break(t->priv) != SP_OK)
		return sp_fail(err, t->path, "end break");
	return 0;
}

static void serial_close(struct console_transport *t)
{
	if (t->priv) {
		sp_close(t->priv);
		sp_free_port(t->priv);
	}
	t->priv = NULL;
	t->fd = -1;
}

const struct console_transport_ops transport_serialport_ops = {
	.name = "serial",
	.open = serial_open,
	.read = serial_read,
	.write = serial_write,
	.send_break = serial_send_break,
	.close = serial_close,
	.poll_fd = transport_fd_poll_fd,
};
