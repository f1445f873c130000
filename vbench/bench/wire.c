/* vbench-wire: the bench's wiring, inside the bench VM (vbench/README.md).
 *
 * gpio-sim shows in sysfs what a consumer drives on each simulated line (sim_gpioN/value) and
 * lets the other side of the wire set what an input reads (sim_gpioN/pull).  This program is
 * the copper between the bench's GPIO lines and the DUT:
 *   - every change of the relay and button lines goes to the host as "edge NAME LEVEL MS" on a
 *     serial line (the bench's ttyS2), where vbench-host turns it into QEMU actions on the DUT;
 *   - "sense LEVEL" from the host sets the pull of the power-good line, which rig reads;
 *   - lines written to a FIFO by the bench's scenarios go to the host as "req LINE" (a break on
 *     the DUT's serial line, for instance).
 * Not part of rig: a real bench has wires here. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define POLL_MS 5
#define LINE_MAX_LEN 256

struct watched {
	const char *name;
	int fd;         /* sim_gpioN/value */
	int level;
};

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("vbench-wire: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static int open_attr(const char *sim, unsigned line, const char *attr, int flags)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/sim_gpio%u/%s", sim, line, attr);
	fd = open(path, flags | O_CLOEXEC);
	if (fd < 0)
		die("%s: %s", path, strerror(errno));
	return fd;
}

static int read_level(int fd)
{
	char buf[8];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		die("read of a sim_gpio value failed: %s", n < 0 ? strerror(errno) : "empty");
	return buf[0] == '1';
}

static void send_line(int tty, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void send_line(int tty, const char *fmt, ...)
{
	char buf[LINE_MAX_LEN + 32];
	va_list ap;
	size_t off = 0;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(buf) - 2)
		n = (int)sizeof(buf) - 2;
	buf[n++] = '\n';
	while (off < (size_t)n) {
		ssize_t w = write(tty, buf + off, (size_t)n - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			die("write to the host line: %s", strerror(errno));
		off += (size_t)w;
	}
}

static void raw_tty(int fd)
{
	struct termios t;

	if (tcgetattr(fd, &t) < 0)
		die("tcgetattr: %s", strerror(errno));
	cfmakeraw(&t);
	cfsetispeed(&t, B115200);
	cfsetospeed(&t, B115200);
	t.c_cc[VMIN] = 0;
	t.c_cc[VTIME] = 0;
	if (tcsetattr(fd, TCSANOW, &t) < 0)
		die("tcsetattr: %s", strerror(errno));
}

static void set_pull(const char *sim, unsigned line, int level)
{
	int fd = open_attr(sim, line, "pull", O_WRONLY);
	const char *pull = level ? "pull-up" : "pull-down";

	if (write(fd, pull, strlen(pull)) < 0)
		die("set pull of line %u: %s", line, strerror(errno));
	close(fd);
}

/* Complete lines out of buf (len bytes); the rest stays for the next read. */
static size_t each_line(char *buf, size_t len, void (*fn)(char *line, void *ctx), void *ctx)
{
	size_t start = 0;

	for (size_t i = 0; i < len; i++) {
		if (buf[i] != '\n')
			continue;
		buf[i] = '\0';
		if (i > start && buf[i - 1] == '\r')
			buf[i - 1] = '\0';
		fn(buf + start, ctx);
		start = i + 1;
	}
	memmove(buf, buf + start, len - start);
	if (len - start >= LINE_MAX_LEN)   /* a line too long for us: drop it */
		return 0;
	return len - start;
}

struct ctx {
	const char *sim;
	unsigned sense_line;
	int tty;
};

static void from_host(char *line, void *p)
{
	struct ctx *c = p;
	int level;

	if (sscanf(line, "sense %d", &level) == 1)
		set_pull(c->sim, c->sense_line, level != 0);
	else if (strcmp(line, "ping") == 0)
		send_line(c->tty, "pong %lld", now_ms());
}

static void from_scenario(char *line, void *p)
{
	struct ctx *c = p;

	if (*line)
		send_line(c->tty, "req %s", line);
}

static int open_fifo(const char *path)
{
	int fd;

	if (mkfifo(path, 0600) < 0 && errno != EEXIST)
		die("mkfifo %s: %s", path, strerror(errno));
	/* O_RDWR: the FIFO never reports end-of-file between two writers. */
	fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		die("%s: %s", path, strerror(errno));
	return fd;
}

static ssize_t read_some(int fd, char *buf, size_t *have)
{
	ssize_t n = read(fd, buf + *have, LINE_MAX_LEN - *have);

	if (n > 0)
		*have += (size_t)n;
	return n;
}

int main(int argc, char **argv)
{
	struct ctx c = { 0 };
	struct watched w[2];
	char host_buf[LINE_MAX_LEN + 1], fifo_buf[LINE_MAX_LEN + 1];
	size_t host_have = 0, fifo_have = 0;
	int fifo;

	if (argc != 7)
		die("usage: vbench-wire SIM_DIR RELAY_LINE BUTTON_LINE SENSE_LINE TTY FIFO");
	c.sim = argv[1];
	c.sense_line = (unsigned)atoi(argv[4]);
	c.tty = open(argv[5], O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (c.tty < 0)
		die("%s: %s", argv[5], strerror(errno));
	raw_tty(c.tty);
	fifo = open_fifo(argv[6]);
	w[0] = (struct watched){ "relay", open_attr(c.sim, (unsigned)atoi(argv[2]), "value", O_RDONLY), -1 };
	w[1] = (struct watched){ "button", open_attr(c.sim, (unsigned)atoi(argv[3]), "value", O_RDONLY), -1 };
	set_pull(c.sim, c.sense_line, 0);
	send_line(c.tty, "hello %lld", now_ms());
	for (;;) {
		struct pollfd pfd[2] = { { .fd = c.tty, .events = POLLIN }, { .fd = fifo, .events = POLLIN } };

		for (int i = 0; i < 2; i++) {
			int level = read_level(w[i].fd);

			if (level != w[i].level)
				send_line(c.tty, "edge %s %d %lld", w[i].name, level, now_ms());
			w[i].level = level;
		}
		if (poll(pfd, 2, POLL_MS) < 0 && errno != EINTR)
			die("poll: %s", strerror(errno));
		if ((pfd[0].revents & POLLIN) && read_some(c.tty, host_buf, &host_have) > 0)
			host_have = each_line(host_buf, host_have, from_host, &c);
		if ((pfd[1].revents & POLLIN) && read_some(fifo, fifo_buf, &fifo_have) > 0)
			fifo_have = each_line(fifo_buf, fifo_have, from_scenario, &c);
	}
}
