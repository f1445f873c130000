/* A real UART (/dev/ttyUSB*, /dev/ttyS*) through libserialport: 8N1, no flow control.
 * libserialport 0.1.1 refuses ptys, which is why the pty backend exists.
 *
 * What a lab's serial line does besides carrying bytes is reported through the transport's
 * notices: a device node with no UART behind it is refused at open (a PC's /dev/ttyS3 exists
 * whether or not there is a port); an adapter unplugged mid-run is waited for, up to
 * reattach_ms, and reopened when it comes back; breaks and framing, parity and overrun errors
 * the driver counts (TIOCGICOUNT) are reported as they happen.  Input waiting at open is stale
 * (an adapter buffers what the board said before anyone listened) and is discarded. */
#include "console/transport_fd.h"
#include "util/clock.h"

#include <errno.h>
#include <libserialport.h>
#include <linux/serial.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "util/clock.h"

#define DEFAULT_BAUD 115200
#define WRITE_TIMEOUT_MS 10000
#define BREAK_MS 250
#define REOPEN_EVERY_MS 250

struct serial_state {
	struct sp_port *port;
	unsigned baud;
	unsigned reattach_ms;
	long long gone_at;       /* monotonic ms the port went away; 0 while attached */
	long long next_try;
	struct serial_icounter_struct icount;
	bool have_icount;
};

static struct serial_state *state(struct console_transport *t)
{
	return t->priv;
}

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

/* A tty serial driver that reports the port type "unknown" has no UART there (8250 ports the
 * firmware did not describe, or one whose device was unbound); ENOTTY (no such ioctl) is fine. */
static int check_uart(int fd, const char *path, struct rig_err *err)
{
	struct serial_struct ss;

	if (ioctl(fd, TIOCGSERIAL, &ss) == 0 && ss.type == PORT_UNKNOWN)
		return rig_err_set(err, RIG_EXIT_INFRA, "console %s: no UART behind this device "
				   "(port type unknown): a wrong ttyS number, or the adapter is unplugged",
				   path);
	return 0;
}

static void detach(struct console_transport *t)
{
	struct serial_state *st = state(t);

	if (st->port) {
		sp_close(st->port);
		sp_free_port(st->port);
	}
	st->port = NULL;
	t->fd = -1;
}

static int attach(struct console_transport *t, struct rig_err *err)
{
	struct serial_state *st = state(t);
	struct sp_port *port;

	if (sp_get_port_by_name(t->path, &port) != SP_OK)
		return sp_fail(err, t->path, "no such serial port");
	if (sp_open(port, SP_MODE_READ_WRITE) != SP_OK) {
		sp_fail(err, t->path, "open");
		sp_free_port(port);
		return -1;
	}
	st->port = port;
	if (configure(port, st->baud) < 0 || sp_get_port_handle(port, &t->fd) != SP_OK) {
		sp_fail(err, t->path, "configure 8N1");
		detach(t);
		return -1;
	}
	if (check_uart(t->fd, t->path, err) < 0) {
		detach(t);
		return -1;
	}
	sp_flush(port, SP_BUF_INPUT);
	st->have_icount = ioctl(t->fd, TIOCGICOUNT, &st->icount) == 0;
	return 0;
}

static int serial_open(struct console_transport *t, const struct transport_params *p,
		       struct rig_err *err)
{
	struct serial_state *st = calloc(1, sizeof(*st));

	if (!st)
		return rig_err_set(err, RIG_EXIT_INFRA, "console: out of memory");
	st->baud = p->baud ? p->baud : DEFAULT_BAUD;
	st->reattach_ms = p->reattach_ms;
	t->priv = st;
	if (attach(t, err) < 0) {
		free(st);
		t->priv = NULL;
		return -1;
	}
	return 0;
}

/* The port failed under us: an unplugged adapter.  0 = waiting for it to come back. */
static int lost(struct console_transport *t, struct rig_err *err)
{
	struct serial_state *st = state(t);

	detach(t);
	if (!st->reattach_ms)
		return rig_err_set(err, RIG_EXIT_INFRA, "console %s: serial port went away", t->path);
	st->gone_at = monotonic_ms();
	st->next_try = st->gone_at + REOPEN_EVERY_MS;
	transport_notify(t, TRANSPORT_GONE, "console %s: the serial port went away (adapter "
			 "unplugged?): waiting up to %u s for it to come back", t->path,
			 st->reattach_ms / 1000);
	return 0;
}

/* Detached: try to reopen now and then; 1 = back, 0 = not yet (after up to wait_ms), -1 = it
 * did not come back in time. */
static int wait_back(struct console_transport *t, int wait_ms, struct rig_err *err)
{
	struct serial_state *st = state(t);
	long long now = monotonic_ms();
	struct rig_err ignored;

	if (now - st->gone_at > (long long)st->reattach_ms)
		return rig_err_set(err, RIG_EXIT_INFRA, "console %s: the serial port went away and did "
				   "not come back within %u s", t->path, st->reattach_ms / 1000);
	if (now >= st->next_try) {
		st->next_try = now + REOPEN_EVERY_MS;
		if (attach(t, &ignored) == 0) {
			transport_notify(t, TRANSPORT_BACK, "console %s: back after %.1f s; what the "
					 "board sent meanwhile is lost", t->path,
					 (double)(now - st->gone_at) / 1e3);
			st->gone_at = 0;
			return 1;
		}
	}
	if (wait_ms < 0 || wait_ms > REOPEN_EVERY_MS)
		wait_ms = REOPEN_EVERY_MS;
	clock_sleep_ms((unsigned)wait_ms);
	return 0;
}

static void check_line_errors(struct console_transport *t)
{
	struct serial_state *st = state(t);
	struct serial_icounter_struct now;
	int frame, parity, overrun;

	if (!st->have_icount || ioctl(t->fd, TIOCGICOUNT, &now) < 0)
		return;
	if (now.brk != st->icount.brk)
		transport_notify(t, TRANSPORT_BREAK, "console %s: break on the line (the board's TX "
				 "held low: a power cut, a reset or a loose wire)", t->path);
	frame = now.frame - st->icount.frame;
	parity = now.parity - st->icount.parity;
	overrun = now.overrun + now.buf_overrun - st->icount.overrun - st->icount.buf_overrun;
	if (frame > 0 || parity > 0 || overrun > 0)
		transport_notify(t, TRANSPORT_LINE_ERRORS, "console %s: %d framing, %d parity, %d "
				 "overrun errors (reading at %u baud: a wrong speed garbles every byte)",
				 t->path, frame, parity, overrun, st->baud);
	st->icount = now;
}

static ssize_t serial_read(struct console_transport *t, void *buf, size_t len, int timeout_ms,
			   struct rig_err *err)
{
	struct pollfd pfd = { .fd = t->fd, .events = POLLIN };
	enum sp_return n;
	int ready;

	if (state(t)->gone_at)
		return wait_back(t, timeout_ms, err) < 0 ? -1 : 0;
	do {
		ready = poll(&pfd, 1, timeout_ms);
	} while (ready < 0 && errno == EINTR);
	if (ready < 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "console %s: poll: %s", t->path,
				   strerror(errno));
	if (ready == 0)
		return 0;
	if (pfd.revents & (POLLHUP | POLLERR | POLLNVAL))
		return lost(t, err);
	n = sp_nonblocking_read(state(t)->port, buf, len);
	if (n < 0)
		return lost(t, err);
	check_line_errors(t);
	return n;
}

/* Writes wait for an unplugged port to come back (within reattach_ms) rather than fail. */
static int serial_write(struct console_transport *t, const void *buf, size_t len,
			struct rig_err *err)
{
	enum sp_return n;

	for (int attempt = 0; attempt < 2; attempt++) {
		while (state(t)->gone_at)
			if (wait_back(t, REOPEN_EVERY_MS, err) < 0)
				return -1;
		n = sp_blocking_write(state(t)->port, buf, len, WRITE_TIMEOUT_MS);
		if (n >= 0)
			break;
		if (lost(t, err) < 0)
			return -1;
	}
	if (n < 0)
		return sp_fail(err, t->path, "write");
	if ((size_t)n != len)
		return rig_err_set(err, RIG_EXIT_INFRA, "console %s: write timed out (%d of %zu bytes)",
				   t->path, (int)n, len);
	return 0;
}

static int serial_send_break(struct console_transport *t, struct rig_err *err)
{
	struct serial_state *st = state(t);

	if (st->gone_at)
		return rig_err_set(err, RIG_EXIT_INFRA, "console %s: unplugged: no break to send",
				   t->path);
	if (sp_start_break(st->port) != SP_OK)
		return sp_fail(err, t->path, "start break");
	clock_sleep_ms(BREAK_MS);
	if (sp_end_break(st->port) != SP_OK)
		return sp_fail(err, t->path, "end break");
	return 0;
}

static void serial_close(struct console_transport *t)
{
	if (t->priv) {
		detach(t);
		free(t->priv);
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
