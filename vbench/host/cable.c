#include "cable.h"

#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "hostlog.h"
#include "pty.h"
#include "uart_resample.h"
#include "util/clock.h"

/* Unread bytes that stay unread this long: nobody listens on the bench's UART. */
#define BENCH_STALL_MS 200
#define CHUNK 4096

static const struct { speed_t code; unsigned baud; } speeds[] = {
	{ B50, 50 }, { B75, 75 }, { B110, 110 }, { B134, 134 }, { B150, 150 }, { B200, 200 },
	{ B300, 300 }, { B600, 600 }, { B1200, 1200 }, { B1800, 1800 }, { B2400, 2400 },
	{ B4800, 4800 }, { B9600, 9600 }, { B19200, 19200 }, { B38400, 38400 },
	{ B57600, 57600 }, { B115200, 115200 }, { B230400, 230400 }, { B460800, 460800 },
	{ B500000, 500000 }, { B576000, 576000 }, { B921600, 921600 }, { B1000000, 1000000 },
	{ B1152000, 1152000 }, { B1500000, 1500000 }, { B2000000, 2000000 },
};

int cable_open(struct cable *c, const char *link_path, unsigned dut_baud, FILE *log)
{
	memset(c, 0, sizeof(*c));
	c->dut_fd = -1;
	c->dut_baud = dut_baud;
	c->log = log;
	return pty_open_linked(link_path, &c->bench_master, &c->bench_slave);
}

void cable_close(struct cable *c)
{
	cable_disconnect_dut(c);
	if (c->bench_slave > 0)
		close(c->bench_slave);
	if (c->bench_master > 0)
		close(c->bench_master);
}

unsigned cable_bench_baud(struct cable *c)
{
	struct termios t;
	speed_t code;

	/* On a pty master, TCGETS reads the slave's termios: what QEMU set from the 16550. */
	if (tcgetattr(c->bench_master, &t) < 0)
		return 0;
	code = cfgetospeed(&t);
	for (size_t i = 0; i < sizeof(speeds) / sizeof(speeds[0]); i++)
		if (speeds[i].code == code) {
			if (speeds[i].baud != c->bench_baud_seen)
				host_log(c->log, "cable: the bench's UART runs at %u baud (the DUT's at %u)%s",
					 speeds[i].baud, c->dut_baud,
					 speeds[i].baud == c->dut_baud ? "" : ": bytes arrive garbled");
			c->bench_baud_seen = speeds[i].baud;
			return speeds[i].baud;
		}
	return 0;
}

int cable_connect_dut(struct cable *c, const char *socket_path, unsigned timeout_ms)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	struct timespec pause = { 0, 20 * 1000000L };

	cable_disconnect_dut(c);
	if (strlen(socket_path) >= sizeof(addr.sun_path))
		return -1;
	strcpy(addr.sun_path, socket_path);
	for (unsigned waited = 0; waited <= timeout_ms; waited += 20) {
		int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

		if (fd < 0)
			return -1;
		if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) == 0) {
			c->dut_fd = fd;
			return 0;
		}
		close(fd);
		nanosleep(&pause, NULL);
	}
	return -1;
}

void cable_disconnect_dut(struct cable *c)
{
	if (c->dut_fd >= 0)
		close(c->dut_fd);
	c->dut_fd = -1;
}

static void write_some(int fd, const uint8_t *buf, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, buf, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;   /* the other end is gone or full: the bytes fall off the wire */
		buf += w;
		n -= (size_t)w;
	}
}

/* A UART nobody reads (the bench's port closed, or the bench off) keeps a FIFO's worth and
 * drops the rest; the pty would keep 64 KB of stale console for whoever opens the port next.
 * So when what the bench has not read stops going down for BENCH_STALL_MS, it is flushed. */
static void drop_if_unread(struct cable *c)
{
	long long now = monotonic_ms();
	int pending = 0;

	if (ioctl(c->bench_slave, FIONREAD, &pending) < 0)
		return;
	if (pending == 0 || pending < c->last_pending) {
		c->reading_at = now;
	} else if (now - c->reading_at > BENCH_STALL_MS) {
		tcflush(c->bench_slave, TCIFLUSH);
		c->overrun += (unsigned long long)pending;
		c->reading_at = now;
		pending = 0;
	}
	c->last_pending = pending;
}

static void to_bench(struct cable *c, const uint8_t *buf, size_t n)
{
	uint8_t out[CHUNK];
	unsigned baud = cable_bench_baud(c);
	size_t m = uart_resample(buf, n, c->dut_baud, baud ? baud : c->dut_baud, out, sizeof(out));

	if (baud && baud != c->dut_baud)
		c->garbled += m;
	drop_if_unread(c);
	write_some(c->bench_master, out, m);
	c->last_pending += (int)m;
	c->to_bench += m;
}

static void to_dut(struct cable *c, const uint8_t *buf, size_t n)
{
	uint8_t out[CHUNK];
	unsigned baud = cable_bench_baud(c);
	size_t m;

	if (c->dut_fd < 0)
		return;   /* nobody at the other end: the bench talks to a board without power */
	m = uart_resample(buf, n, baud ? baud : c->dut_baud, c->dut_baud, out, sizeof(out));
	write_some(c->dut_fd, out, m);
	c->to_dut += m;
}

int cable_pump(struct cable *c, int fd)
{
	uint8_t buf[CHUNK / 2];
	ssize_t n = read(fd, buf, sizeof(buf));

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (fd == c->dut_fd) {
		if (n <= 0) {
			cable_disconnect_dut(c);
			return -1;
		}
		to_bench(c, buf, (size_t)n);
	} else if (n > 0) {
		to_dut(c, buf, (size_t)n);
	}
	return 0;
}
