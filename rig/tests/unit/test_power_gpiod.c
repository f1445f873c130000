/* The gpiod backend's logic on a fake struct gpio_io that records physical line levels (this
 * machine has no GPIO), the powerd protocol, and `rig power` through a running daemon. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <grp.h>
#include <pthread.h>
#include <pwd.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/power.h"
#include "power/gpio_io.h"
#include "power/gpiod.h"
#include "power/gpiod_seq.h"
#include "power/power_daemon.h"
#include "power/power_proto.h"
#include "util/clock.h"

#define MAX_LINES 4
#define MAX_LOG 64

struct gpio_line {
	unsigned offset;
	unsigned flags;
	int value;          /* logical */
};

/* A fake chip: lines by offset, a log of what happened to the wires. */
struct fake_io {
	struct gpio_io io;           /* first: the ops see a pointer to this */
	struct gpio_line lines[MAX_LINES];
	size_t n_lines;
	int input_level[MAX_LINES];  /* physical level read_input sees, by offset */
	char log[MAX_LOG][32];
	size_t n_log;
	int fail_sets;               /* fail this many set() calls */
	bool press_powers_up;        /* the board comes up (sense on 3) when its button is pressed */
};

static void logf_(struct fake_io *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void logf_(struct fake_io *f, const char *fmt, ...)
{
	va_list ap;

	assert_true(f->n_log < MAX_LOG);
	va_start(ap, fmt);
	vsnprintf(f->log[f->n_log++], sizeof(f->log[0]), fmt, ap);
	va_end(ap);
}

static int physical(const struct gpio_line *l)
{
	return l->value ^ ((l->flags & GPIO_FLAG_ACTIVE_LOW) ? 1 : 0);
}

static int fake_read_input(const struct gpio_io *io, const char *chip, unsigned offset,
			   unsigned flags, int *value, struct rig_err *err)
{
	struct fake_io *f = (struct fake_io *)io;

	(void)err;
	assert_string_equal(chip, "gpiochip0");
	assert_true(offset < MAX_LINES);
	*value = f->input_level[offset] ^ ((flags & GPIO_FLAG_ACTIVE_LOW) ? 1 : 0);
	return 0;
}

static int fake_request_output(const struct gpio_io *io, const char *chip, unsigned offset,
			       unsigned flags, int value, struct gpio_line **line,
			       struct rig_err *err)
{
	struct fake_io *f = (struct fake_io *)io;
	struct gpio_line *l = &f->lines[f->n_lines++];

	(void)err;
	assert_string_equal(chip, "gpiochip0");
	*l = (struct gpio_line){ .offset = offset, .flags = flags, .value = value };
	logf_(f, "take %u=%d", offset, physical(l));
	*line = l;
	return 0;
}

static int fake_set(const struct gpio_io *io, struct gpio_line *line, int value,
		    struct rig_err *err)
{
	struct fake_io *f = (struct fake_io *)io;

	if (f->fail_sets > 0) {
		f->fail_sets--;
		logf_(f, "fail %u", line->offset);
		return rig_err_set(err, RIG_EXIT_INFRA, "fake set failure");
	}
	line->value = value;
	logf_(f, "set %u=%d", line->offset, physical(line));
	if (f->press_powers_up && line->offset == 1 && value)
		f->input_level[3] = 1;
	return 0;
}

static int fake_get(const struct gpio_io *io, struct gpio_line *line, int *value,
		    struct rig_err *err)
{
	(void)io;
	(void)err;
	*value = line->value;
	return 0;
}

static void fake_release(const struct gpio_io *io, struct gpio_line *line)
{
	logf_((struct fake_io *)io, "release %u", line->offset);
}

static void fake_sleep(const struct gpio_io *io, unsigned ms)
{
	logf_((struct fake_io *)io, "sleep %u", ms);
}

/* Board lines: power relay on 0 (active low), button on 1, reset on 2 (active low). */
struct fixture {
	struct fake_io fake;
	struct board_gpiod gpiod;
	struct board board;
	char socket[108];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->fake.io = (struct gpio_io){ .read_input = fake_read_input,
				       .request_output = fake_request_output, .set = fake_set,
				       .get = fake_get, .release = fake_release,
				       .sleep_ms = fake_sleep };
	f->fake.input_level[0] = 1;  /* active-low relay reads high: released, board off */
	f->gpiod = (struct board_gpiod){
		.power = { .chip = "gpiochip0", .offset = 0, .active_low = true },
		.button = { .chip = "gpiochip0", .offset = 1 },
		.reset = { .chip = "gpiochip0", .offset = 2, .active_low = true },
		.press_ms = 0, .long_press_ms = 5000,
	};
	snprintf(f->socket, sizeof(f->socket), "/tmp/rig-powerd-test-%d.sock", (int)getpid());
	f->gpiod.socket = f->socket;
	f->board = (struct board){ .name = "sbc", .power = { .backend = "gpiod",
							     .gpiod = &f->gpiod } };
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	unlink(f->socket);
	free(f);
	return 0;
}

/* The log since mark, joined with "; ". */
static const char *log_since(struct fake_io *fake, size_t mark)
{
	static char joined[MAX_LOG * 34];

	joined[0] = '\0';
	for (size_t i = mark; i < fake->n_log; i++) {
		if (i > mark)
			strcat(joined, "; ");
		strcat(joined, fake->log[i]);
	}
	return joined;
}

static void take(struct fixture *f, struct gpiod_lines *lines)
{
	struct rig_err err = { 0 };

	assert_int_equal(gpiod_lines_take(lines, &f->fake.io, &f->gpiod, &err), 0);
}

static void test_take_keeps_relay_level_and_releases_buttons(void **state)
{
	struct fixture *f = *state;
	struct gpiod_lines lines;
	enum power_state st;
	struct rig_err err = { 0 };

	take(f, &lines);
	/* Relay keeps its (high = off) level; active-low reset released = high, button low. */
	assert_string_equal(log_since(&f->fake, 0), "take 0=1; take 1=0; take 2=1");
	assert_int_equal(gpiod_seq_status(&lines, &st, &err), 0);
	assert_int_equal(st, POWER_OFF);
	gpiod_lines_release(&lines);
	assert_string_equal(log_since(&f->fake, 3), "release 0; release 1; release 2");

	f->fake.input_level[0] = 0;  /* relay held low by its pull: board on */
	f->fake.n_lines = 0;
	take(f, &lines);
	assert_string_equal(f->fake.log[6], "take 0=0");
	assert_int_equal(gpiod_seq_status(&lines, &st, &err), 0);
	assert_int_equal(st, POWER_RUNNING);
	gpiod_lines_release(&lines);
}

static void test_sequences(void **state)
{
	struct fixture *f = *state;
	struct gpiod_lines lines;
	struct rig_err err = { 0 };
	size_t mark;

	take(f, &lines);
	mark = f->fake.n_log;
	assert_int_equal(gpiod_seq_on(&lines, &err), 0);
	assert_int_equal(gpiod_seq_off(&lines, &err), 0);
	assert_string_equal(log_since(&f->fake, mark), "set 0=0; set 0=1");

	mark = f->fake.n_log;
	assert_int_equal(gpiod_seq_press(&lines, 0, &err), 0);
	assert_int_equal(gpiod_seq_press(&lines, 750, &err), 0);
	assert_string_equal(log_since(&f->fake, mark), "set 1=1; sleep 200; set 1=0; "
			    "set 1=1; sleep 750; set 1=0");

	mark = f->fake.n_log;
	assert_int_equal(gpiod_seq_reset(&lines, &err), 0);
	assert_string_equal(log_since(&f->fake, mark), "set 2=0; sleep 200; set 2=1");

	mark = f->fake.n_log;
	assert_int_equal(gpiod_seq_cycle(&lines, &err), 0);
	assert_string_equal(log_since(&f->fake, mark), "set 0=1; sleep 2000; set 0=0");
	gpiod_lines_release(&lines);
}

/* No relay: off is a forced-off long press, on is unavailable, status unknown. */
static void test_button_only_board(void **state)
{
	struct fixture *f = *state;
	struct gpiod_lines lines;
	struct rig_err err = { 0 };
	enum power_state st;
	size_t mark;

	f->gpiod.power.chip = NULL;
	f->gpiod.reset.chip = NULL;
	take(f, &lines);
	mark = f->fake.n_log;
	assert_int_equal(gpiod_seq_off(&lines, &err), 0);
	assert_string_equal(log_since(&f->fake, mark), "set 1=1; sleep 5000; set 1=0");
	assert_int_equal(gpiod_seq_on(&lines, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	assert_int_equal(gpiod_seq_reset(&lines, &err), -1);
	assert_non_null(strstr(err.msg, "reset"));
	assert_int_equal(gpiod_seq_status(&lines, &st, &err), 0);
	assert_int_equal(st, POWER_UNKNOWN);
	gpiod_lines_release(&lines);
}

/* A power-good line on 3: status reads it; on presses the button when the board does not come
 * up by itself, and fails when even a press does not bring it up. */
static void test_power_good_line(void **state)
{
	struct fixture *f = *state;
	struct gpiod_lines lines;
	struct rig_err err = { 0 };
	enum power_state st;
	size_t mark;

	f->gpiod.sense = (struct board_gpio_line){ .chip = "gpiochip0", .offset = 3 };
	f->gpiod.power_good_ms = 300;
	take(f, &lines);
	assert_int_equal(gpiod_seq_status(&lines, &st, &err), 0);
	assert_int_equal(st, POWER_OFF);

	/* relay open, the board starts on power: no press */
	f->fake.input_level[3] = 1;
	mark = f->fake.n_log;
	assert_int_equal(gpiod_seq_on(&lines, &err), 0);
	assert_string_equal(log_since(&f->fake, mark), "set 0=0");
	assert_int_equal(gpiod_seq_status(&lines, &st, &err), 0);
	assert_int_equal(st, POWER_RUNNING);

	/* relay closed, board off (hibernated): pressed at once, up after the press */
	f->fake.input_level[3] = 0;
	f->fake.press_powers_up = true;
	mark = f->fake.n_log;
	assert_int_equal(gpiod_seq_on(&lines, &err), 0);
	assert_string_equal(log_since(&f->fake, mark), "set 1=1; sleep 200; set 1=0");

	/* a board that never comes up: waited for, pressed, waited for, refused */
	assert_int_equal(gpiod_seq_off(&lines, &err), 0);
	f->fake.input_level[3] = 0;
	f->fake.press_powers_up = false;
	mark = f->fake.n_log;
	assert_int_equal(gpiod_seq_on(&lines, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_INFRA);
	assert_non_null(strstr(err.msg, "power-good stayed low 300 ms after a press"));
	assert_string_equal(log_since(&f->fake, mark), "set 0=0; sleep 100; sleep 100; sleep 100; "
			    "set 1=1; sleep 200; set 1=0; sleep 100; sleep 100; sleep 100");
	gpiod_lines_release(&lines);
}

static void test_press_releases_after_failure(void **state)
{
	struct fixture *f = *state;
	struct gpiod_lines lines;
	struct rig_err err = { 0 };
	size_t mark;

	take(f, &lines);
	mark = f->fake.n_log;
	f->fake.fail_sets = 1;
	assert_int_equal(gpiod_seq_press(&lines, 0, &err), -1);
	assert_string_equal(err.msg, "fake set failure");
	assert_string_equal(log_since(&f->fake, mark), "fail 1; set 1=0");
	gpiod_lines_release(&lines);
}

static void test_request_parsing(void **state)
{
	struct power_request req;
	char why[64], line[32];

	(void)state;
	assert_int_equal(power_request_parse("on\n", &req, why, sizeof(why)), 0);
	assert_int_equal(req.verb, POWER_VERB_ON);
	assert_int_equal(power_request_parse("press 350", &req, why, sizeof(why)), 0);
	assert_int_equal(req.verb, POWER_VERB_PRESS);
	assert_int_equal(req.ms, 350);
	assert_int_equal(power_request_format(&req, line, sizeof(line)), 10);
	assert_string_equal(line, "press 350\n");
	req = (struct power_request){ .verb = POWER_VERB_STATUS };
	assert_int_equal(power_request_format(&req, line, sizeof(line)), 7);
	assert_string_equal(line, "status\n");
	assert_int_equal(power_request_parse("", &req, why, sizeof(why)), -1);
	assert_int_equal(power_request_parse("launch\n", &req, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "launch"));
	assert_int_equal(power_request_parse("on now\n", &req, why, sizeof(why)), -1);
	assert_int_equal(power_request_parse("press -1\n", &req, why, sizeof(why)), -1);
	assert_int_equal(power_request_parse("press 10 20\n", &req, why, sizeof(why)), -1);
}

static void test_reply_parsing(void **state)
{
	struct rig_err err = { 0 };
	char payload[32];

	(void)state;
	assert_int_equal(power_reply_parse("ok\n", payload, sizeof(payload), &err), 0);
	assert_string_equal(payload, "");
	assert_int_equal(power_reply_parse("ok suspended\n", payload, sizeof(payload), &err), 0);
	assert_string_equal(payload, "suspended");
	assert_int_equal(power_reply_parse("err relay stuck\n", payload, sizeof(payload), &err),
			 -1);
	assert_int_equal(err.class, RIG_EXIT_INFRA);
	assert_non_null(strstr(err.msg, "relay stuck"));
	assert_int_equal(power_reply_parse("okay\n", payload, sizeof(payload), &err), -1);
	assert_non_null(strstr(err.msg, "unexpected"));
}

static struct power *open_fake(struct fixture *f)
{
	struct rig_err err = { 0 };
	struct power *power;

	assert_int_equal(gpiod_power_open_direct(&f->board, &f->fake.io, &power, &err), 0);
	return power;
}

struct daemon_thread {
	struct power *power;
	int listen_fd;
	const struct power_daemon_opts *opts;
	volatile sig_atomic_t stop;
	int rc;
};

static void *daemon_main(void *arg)
{
	struct daemon_thread *d = arg;
	struct rig_err err = { 0 };

	d->rc = power_daemon_run(d->power, d->listen_fd, d->opts, &d->stop, &err);
	return NULL;
}

static void daemon_start(struct fixture *f, struct daemon_thread *d, pthread_t *thread)
{
	struct rig_err err = { 0 };

	d->stop = 0;
	d->power = open_fake(f);
	assert_int_equal(power_daemon_listen(f->socket, d->opts ? &d->opts->peers : NULL,
					     &d->listen_fd, &err), 0);
	assert_int_equal(pthread_create(thread, NULL, daemon_main, d), 0);
}

static void daemon_stop(struct fixture *f, struct daemon_thread *d, pthread_t thread)
{
	d->stop = 1;
	assert_int_equal(pthread_join(thread, NULL), 0);
	assert_int_equal(d->rc, 0);
	close(d->listen_fd);
	unlink(f->socket);
	power_close(d->power);
}

static int connect_unix(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", path);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* Everything the daemon says on fd until it closes it (or 5 s pass). */
static void read_until_closed(int fd, char *buf, size_t size)
{
	struct timeval tv = { .tv_sec = 5 };
	size_t n = 0;
	ssize_t r;

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	while (n < size - 1 && (r = read(fd, buf + n, size - 1 - n)) > 0)
		n += (size_t)r;
	buf[n] = '\0';
}

/* Several requests on one connection, bad ones answered with err. */
static void test_daemon_connection(void **state)
{
	struct fixture *f = *state;
	struct daemon_thread d = { 0 };
	const char *requests = "ping\non\nstatus\nlaunch\npress 50\noff\nstatus\n";
	char replies[256];
	pthread_t thread;
	int fd;

	daemon_start(f, &d, &thread);
	fd = connect_unix(f->socket);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, requests, strlen(requests)), (ssize_t)strlen(requests));
	shutdown(fd, SHUT_WR);
	read_until_closed(fd, replies, sizeof(replies));
	close(fd);
	assert_string_equal(replies, "ok\nok\nok on\nerr unknown request 'launch'\nok\nok\n"
			    "ok off\n");
	daemon_stop(f, &d, thread);
}

/* A client that trickles a request byte by byte holds nobody up, and is cut off at the request
 * deadline; before, it held the daemon as long as it kept trickling. */
static void test_daemon_trickler_holds_nobody(void **state)
{
	struct fixture *f = *state;
	const struct power_daemon_opts opts = { .peers = { .owner = getuid() }, .request_ms = 600 };
	struct daemon_thread d = { .opts = &opts };
	char reply[128];
	pthread_t thread;
	double t0, took;
	int slow, fast;

	daemon_start(f, &d, &thread);
	slow = connect_unix(f->socket);
	assert_true(slow >= 0);
	assert_int_equal(write(slow, "p", 1), 1);
	clock_sleep_ms(100);
	assert_int_equal(write(slow, "i", 1), 1);
	t0 = monotonic_seconds();
	fast = connect_unix(f->socket);
	assert_true(fast >= 0);
	assert_int_equal(write(fast, "status\n", 7), 7);
	shutdown(fast, SHUT_WR);
	read_until_closed(fast, reply, sizeof(reply));
	took = monotonic_seconds() - t0;
	close(fast);
	print_message("a second client's reply while one trickles: %.3f s\n", took);
	assert_string_equal(reply, "ok off\n");
	assert_true(took < 0.3);
	/* the trickler keeps going, but its request never came whole within 600 ms */
	assert_int_equal(write(slow, "n", 1), 1);
	read_until_closed(slow, reply, sizeof(reply));
	took = monotonic_seconds() - t0;
	close(slow);
	assert_string_equal(reply, "err no whole request within 600 ms\n");
	assert_true(took > 0.3 && took < 2.0);
	daemon_stop(f, &d, thread);
}

/* Whatever is at the socket path and is not a socket is someone's: never deleted. */
static void test_daemon_keeps_a_non_socket(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };
	struct stat st;
	FILE *file = fopen(f->socket, "w");
	int fd = -1, stale;
	struct sockaddr_un addr = { .sun_family = AF_UNIX };

	assert_non_null(file);
	fputs("precious\n", file);
	fclose(file);
	assert_int_equal(power_daemon_listen(f->socket, NULL, &fd, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	assert_non_null(strstr(err.msg, "is not a socket"));
	assert_int_equal(stat(f->socket, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_size, 9);
	unlink(f->socket);
	/* negative control: a stale socket (nobody listening) is replaced, by a 0600 one */
	stale = socket(AF_UNIX, SOCK_STREAM, 0);
	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", f->socket);
	assert_int_equal(bind(stale, (struct sockaddr *)&addr, sizeof(addr)), 0);
	close(stale);
	assert_int_equal(power_daemon_listen(f->socket, NULL, &fd, &err), 0);
	assert_int_equal(stat(f->socket, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	close(fd);
}

/* The second user the access tests run as: rig-lab-b (tests/lock/users.sh creates it with
 * useradd -M) or nobody. */
static uid_t other_uid(gid_t *gid)
{
	struct passwd *pw = getpwnam("rig-lab-b");

	if (!pw)
		pw = getpwnam("nobody");
	*gid = pw ? pw->pw_gid : 65534;
	return pw ? pw->pw_uid : 65534;
}

/* A child as the other user connects and pings: what it got back, or "connect: ERROR". */
static void ping_as(uid_t uid, gid_t gid, const char *path, char *out, size_t size)
{
	int fds[2], status;
	pid_t pid;
	ssize_t n;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char reply[256] = "";
		int fd;

		close(fds[0]);
		if (setgroups(0, NULL) != 0 || setresgid(gid, gid, gid) != 0 ||
		    setresuid(uid, uid, uid) != 0)
			_exit(3);
		fd = connect_unix(path);
		if (fd < 0) {
			snprintf(reply, sizeof(reply), "connect: %s", strerror(errno));
		} else {
			/* a refused peer may find the connection closed already (EPIPE): its
			 * refusal is what it reads next */
			if (send(fd, "ping\n", 5, MSG_NOSIGNAL) != 5 && errno != EPIPE &&
			    errno != ECONNRESET)
				_exit(4);
			shutdown(fd, SHUT_WR);   /* done asking: the daemon closes after its reply */
			read_until_closed(fd, reply, sizeof(reply));
		}
		if (write(fds[1], reply, strlen(reply)) < 0)
			_exit(5);
		_exit(0);
	}
	close(fds[1]);
	n = read(fds[0], out, size - 1);
	out[n > 0 ? n : 0] = '\0';
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* Root's daemon and another user: the socket file keeps them out; opened up (a umask 002, a
 * chmod), the peer's credentials still do; a --group that holds them lets them in. */
static void test_daemon_refuses_other_users(void **state)
{
	struct fixture *f = *state;
	gid_t gid;
	uid_t uid = other_uid(&gid);
	struct power_daemon_opts opts = { .peers = { .owner = getuid() } };
	struct daemon_thread d = { .opts = &opts };
	char reply[256];
	pthread_t thread;

	if (getuid() != 0)
		skip();   /* needs root to act as two users */
	daemon_start(f, &d, &thread);
	ping_as(uid, gid, f->socket, reply, sizeof(reply));
	assert_string_equal(reply, "connect: Permission denied");
	assert_int_equal(chmod(f->socket, 0666), 0);
	ping_as(uid, gid, f->socket, reply, sizeof(reply));
	print_message("uid %u: %s", (unsigned)uid, reply);
	assert_non_null(strstr(reply, "err rig powerd: refused: "));
	assert_non_null(strstr(reply, "may not drive this board; rig powerd serves root only"));
	daemon_stop(f, &d, thread);
	/* negative control: the same user, in the daemon's group, is served */
	opts.peers.has_group = true;
	opts.peers.group = gid;
	daemon_start(f, &d, &thread);
	assert_int_equal(chmod(f->socket, 0666), 0);
	ping_as(uid, gid, f->socket, reply, sizeof(reply));
	assert_string_equal(reply, "ok\n");
	daemon_stop(f, &d, thread);
}

/* `rig power` finds the daemon on the board's socket and goes through it. */
static void test_power_through_daemon(void **state)
{
	struct fixture *f = *state;
	struct daemon_thread d = { .power = open_fake(f) };
	struct rig_err err = { 0 };
	struct power *client;
	enum power_state st;
	pthread_t thread;
	size_t mark = f->fake.n_log;

	assert_int_equal(power_daemon_listen(f->socket, NULL, &d.listen_fd, &err), 0);
	assert_int_equal(pthread_create(&thread, NULL, daemon_main, &d), 0);
	assert_int_equal(power_open(&f->board, NULL, &client, &err), 0);
	assert_int_equal(power_on(client, &err), 0);
	assert_int_equal(power_status(client, &st, &err), 0);
	assert_int_equal(st, POWER_RUNNING);
	assert_int_equal(power_press(client, 40, &err), 0);
	assert_int_equal(power_off(client, &err), 0);
	assert_int_equal(power_status(client, &st, &err), 0);
	assert_int_equal(st, POWER_OFF);
	assert_int_equal(power_wakeup(client, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	power_close(client);
	/* A second daemon must not steal the socket. */
	{
		int second;

		assert_int_equal(power_daemon_listen(f->socket, NULL, &second, &err), -1);
		assert_non_null(strstr(err.msg, "another rig powerd"));
	}
	d.stop = 1;
	assert_int_equal(pthread_join(thread, NULL), 0);
	assert_int_equal(d.rc, 0);
	close(d.listen_fd);
	assert_string_equal(log_since(&f->fake, mark), "set 0=0; set 1=1; sleep 40; set 1=0; "
			    "set 0=1");
	power_close(d.power);
}

/* A rig on the daemon watches it: while it serves, power_check passes; once it is gone (its
 * lines released), power_check fails once and for all, naming the socket. */
static void test_daemon_gone_is_noticed(void **state)
{
	struct fixture *f = *state;
	struct daemon_thread d = { .power = open_fake(f) };
	struct rig_err err = { 0 };
	struct power *client;
	pthread_t thread;

	assert_int_equal(power_daemon_listen(f->socket, NULL, &d.listen_fd, &err), 0);
	assert_int_equal(pthread_create(&thread, NULL, daemon_main, &d), 0);
	assert_int_equal(power_open(&f->board, NULL, &client, &err), 0);
	assert_int_equal(power_check(client, &err), 0);
	assert_int_equal(power_on(client, &err), 0);
	assert_int_equal(power_check(client, &err), 0);
	d.stop = 1;
	assert_int_equal(pthread_join(thread, NULL), 0);
	close(d.listen_fd);
	assert_int_equal(power_check(client, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_INFRA);
	assert_non_null(strstr(err.msg, "went away mid-run"));
	assert_non_null(strstr(err.msg, f->socket));
	assert_non_null(strstr(err.msg, "relay:"));   /* its state: unreadable without a chip here */
	assert_int_equal(power_check(client, &err), -1);
	power_close(client);
	power_close(d.power);
}

/* No daemon and no GPIO chip on this machine: direct mode fails as infrastructure. */
static void test_direct_mode_without_chip(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };
	struct power *power = NULL;

	f->gpiod.power.chip = "rig-test-no-such-gpiochip";
	assert_int_equal(power_open(&f->board, NULL, &power, &err), -1);
	assert_null(power);
	assert_int_equal(err.class, RIG_EXIT_INFRA);
	assert_non_null(strstr(err.msg, "rig-test-no-such-gpiochip"));
}

static void test_powerd_usage_errors(void **state)
{
	struct fixture *f = *state;
	char *plain[] = { "powerd" };
	char *extra[] = { "powerd", "--now" };

	assert_int_equal(cmd_powerd(NULL, 1, plain), RIG_EXIT_USAGE);
	assert_int_equal(cmd_powerd(&f->board, 2, extra), RIG_EXIT_USAGE);
	f->gpiod.socket = NULL;
	assert_int_equal(cmd_powerd(&f->board, 1, plain), RIG_EXIT_USAGE);
	f->board.power.gpiod = NULL;
	assert_int_equal(cmd_powerd(&f->board, 1, plain), RIG_EXIT_USAGE);
}

/* The daemon cannot hold lines of a chip that does not exist, and says so before listening. */
static void test_powerd_without_chip(void **state)
{
	struct fixture *f = *state;
	char *plain[] = { "powerd" };

	f->gpiod.power.chip = "rig-test-no-such-gpiochip";
	assert_int_equal(cmd_powerd(&f->board, 1, plain), RIG_EXIT_INFRA);
	assert_int_equal(access(f->socket, F_OK), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_take_keeps_relay_level_and_releases_buttons,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_sequences, setup, teardown),
		cmocka_unit_test_setup_teardown(test_button_only_board, setup, teardown),
		cmocka_unit_test_setup_teardown(test_power_good_line, setup, teardown),
		cmocka_unit_test_setup_teardown(test_press_releases_after_failure, setup, teardown),
		cmocka_unit_test(test_request_parsing),
		cmocka_unit_test(test_reply_parsing),
		cmocka_unit_test_setup_teardown(test_daemon_connection, setup, teardown),
		cmocka_unit_test_setup_teardown(test_daemon_trickler_holds_nobody, setup, teardown),
		cmocka_unit_test_setup_teardown(test_daemon_keeps_a_non_socket, setup, teardown),
		cmocka_unit_test_setup_teardown(test_daemon_refuses_other_users, setup, teardown),
		cmocka_unit_test_setup_teardown(test_power_through_daemon, setup, teardown),
		cmocka_unit_test_setup_teardown(test_daemon_gone_is_noticed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_direct_mode_without_chip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_powerd_usage_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_powerd_without_chip, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
