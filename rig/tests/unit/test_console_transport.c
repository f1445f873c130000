/* Transports: the factory, the QEMU socket (with connect retries), the pty backend, the
 * serial backend's failure path (libserialport refuses ptys, so no real UART here), and the
 * interactive console's escape keys. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "console/escape.h"
#include "console/transport.h"

static void socket_path(char *buf, size_t size)
{
	snprintf(buf, size, "/tmp/test_console_%d.sock", (int)getpid());
	unlink(buf);
}

static int listen_on(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	assert_true(fd >= 0);
	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", path);
	assert_int_equal(bind(fd, (struct sockaddr *)&addr, sizeof(addr)), 0);
	assert_int_equal(listen(fd, 1), 0);
	return fd;
}

static void test_factory_rejects(void **state)
{
	struct transport_params p = { .path = "/nonexistent" };
	struct console_transport *t = NULL;
	struct rig_err err = { 0 };

	(void)state;
	assert_int_equal(transport_open("telnet", &p, &t, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	p.path = "";
	assert_int_equal(transport_open("socket", &p, &t, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	assert_null(t);
}

static void test_socket_absent(void **state)
{
	char path[108];
	struct transport_params p = { .path = path, .connect_timeout_ms = 0 };
	struct console_transport *t = NULL;
	struct rig_err err = { 0 };

	(void)state;
	socket_path(path, sizeof(path));
	assert_int_equal(transport_open("socket", &p, &t, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_INFRA);
	assert_non_null(strstr(err.msg, path));
}

static void test_socket_round_trip(void **state)
{
	char path[108], buf[16];
	struct transport_params p = { .path = path };
	struct console_transport *t;
	struct rig_err err = { 0 };
	int lfd, qemu;

	(void)state;
	socket_path(path, sizeof(path));
	lfd = listen_on(path);
	assert_int_equal(transport_open("socket", &p, &t, &err), 0);
	qemu = accept(lfd, NULL, NULL);
	assert_true(qemu >= 0);
	assert_true(transport_poll_fd(t) >= 0);
	assert_int_equal(transport_read(t, buf, sizeof(buf), 0, &err), 0);
	assert_int_equal(write(qemu, "boot\r\n", 6), 6);
	assert_int_equal(transport_read(t, buf, sizeof(buf), 5000, &err), 6);
	assert_memory_equal(buf, "boot\r\n", 6);
	assert_int_equal(transport_write(t, "ls\n", 3, &err), 0);
	assert_int_equal(read(qemu, buf, sizeof(buf)), 3);
	assert_int_equal(transport_send_break(t, &err), -1);   /* no break on a raw socket */
	close(qemu);
	assert_int_equal(transport_read(t, buf, sizeof(buf), 5000, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_INFRA);
	transport_close(t);
	close(lfd);
	unlink(path);
}

static void test_socket_waits_for_qemu(void **state)
{
	char path[108];
	struct transport_params p = { .path = path, .connect_timeout_ms = 10000 };
	struct console_transport *t;
	struct rig_err err = { 0 };
	int status;
	pid_t pid;

	(void)state;
	socket_path(path, sizeof(path));
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* "QEMU" creates its socket a little later and keeps it open. */
		int lfd, c;

		usleep(150000);
		lfd = listen_on(path);
		c = accept(lfd, NULL, NULL);
		if (c >= 0)
			(void)!write(c, "x", 1);
		_exit(c >= 0 ? 0 : 1);
	}
	if (transport_open("socket", &p, &t, &err) != 0)
		fail_msg("%s", err.msg);
	waitpid(pid, &status, 0);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	transport_close(t);
	unlink(path);
}

static void test_pty_is_raw(void **state)
{
	struct transport_params p;
	struct console_transport *t;
	struct rig_err err = { 0 };
	char slave[64], buf[16];
	int master = posix_openpt(O_RDWR | O_NOCTTY);

	(void)state;
	assert_true(master >= 0);
	assert_int_equal(grantpt(master), 0);
	assert_int_equal(unlockpt(master), 0);
	assert_int_equal(ptsname_r(master, slave, sizeof(slave)), 0);
	p = (struct transport_params){ .path = slave };
	assert_int_equal(transport_open("pty", &p, &t, &err), 0);
	/* Raw: no echo back to the board, no \n -> \r\n on the way out. */
	assert_int_equal(transport_write(t, "a\n", 2, &err), 0);
	assert_int_equal(read(master, buf, sizeof(buf)), 2);
	assert_memory_equal(buf, "a\n", 2);
	assert_int_equal(write(master, "b\r", 2), 2);
	assert_int_equal(transport_read(t, buf, sizeof(buf), 5000, &err), 2);
	assert_memory_equal(buf, "b\r", 2);     /* no \r -> \n on the way in either */
	assert_int_equal(transport_read(t, buf, sizeof(buf), 0, &err), 0);
	transport_close(t);
	close(master);
}

static void test_pty_needs_a_terminal(void **state)
{
	struct transport_params p = { .path = "/dev/null" };
	struct console_transport *t;
	struct rig_err err = { 0 };

	(void)state;
	assert_int_equal(transport_open("pty", &p, &t, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_INFRA);
}

static void test_serial_missing_port(void **state)
{
	struct transport_params p = { .path = "/dev/ttyUSB-rig-test-absent", .baud = 115200 };
	struct console_transport *t;
	struct rig_err err = { 0 };

	(void)state;
	assert_int_equal(transport_open("serial", &p, &t, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_INFRA);
	assert_non_null(strstr(err.msg, p.path));
}

/* Feed keys; returns the action of the last one and what went to the board. */
static enum escape_action keys(const char *in, size_t n, char *sent, size_t *n_sent)
{
	struct escape_state st = { 0 };
	enum escape_action action = ESCAPE_NONE;
	unsigned char out[2];

	*n_sent = 0;
	for (size_t i = 0; i < n; i++) {
		size_t k;

		action = escape_feed(&st, (unsigned char)in[i], out, &k);
		memcpy(sent + *n_sent, out, k);
		*n_sent += k;
	}
	return action;
}

static void test_escape_keys(void **state)
{
	char sent[16];
	size_t n;

	(void)state;
	assert_int_equal(keys("ls\r", 3, sent, &n), ESCAPE_NONE);
	assert_int_equal(n, 3);
	assert_memory_equal(sent, "ls\r", 3);
	assert_int_equal(keys("\x1dq", 2, sent, &n), ESCAPE_QUIT);
	assert_int_equal(n, 0);
	assert_int_equal(keys("\x01\x18", 2, sent, &n), ESCAPE_QUIT);
	assert_int_equal(keys("\x1d" "b", 2, sent, &n), ESCAPE_BREAK);
	assert_int_equal(keys("\x1d\x1d", 2, sent, &n), ESCAPE_NONE);
	assert_int_equal(n, 1);
	assert_int_equal(sent[0], 0x1d);
	/* Ctrl-A followed by anything else reaches the shell (start of line). */
	assert_int_equal(keys("\x01" "e", 2, sent, &n), ESCAPE_NONE);
	assert_int_equal(n, 2);
	assert_memory_equal(sent, "\x01" "e", 2);
	assert_int_equal(keys("\x01\x01", 2, sent, &n), ESCAPE_NONE);
	assert_int_equal(n, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_factory_rejects),
		cmocka_unit_test(test_socket_absent),
		cmocka_unit_test(test_socket_round_trip),
		cmocka_unit_test(test_socket_waits_for_qemu),
		cmocka_unit_test(test_pty_is_raw),
		cmocka_unit_test(test_pty_needs_a_terminal),
		cmocka_unit_test(test_serial_missing_port),
		cmocka_unit_test(test_escape_keys),
	};

	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
