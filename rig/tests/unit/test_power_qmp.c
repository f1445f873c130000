/* The QMP client against a scripted fake server on a socketpair.  The client's ids are
 * deterministic (capabilities = 1, then 2, 3, ...), so the server's whole side is written into
 * the socket before the client runs, and what the client sent is read back afterwards. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "power/power.h"
#include "power/qmp.h"
#include "util/clock.h"

#define GREETING "{\"QMP\": {\"version\": {\"qemu\": {\"micro\": 0, \"minor\": 2, " \
		 "\"major\": 7}}, \"capabilities\": []}}\r\n"
#define CAPS_OK "{\"return\": {}, \"id\": 1}\r\n"

struct fake {
	int client;   /* given to the QMP client */
	int server;   /* the test's end */
};

static struct fake fake_server(const char *script)
{
	int sv[2];
	struct fake f;

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	f.client = sv[0];
	f.server = sv[1];
	assert_int_equal(write(f.server, script, strlen(script)), (ssize_t)strlen(script));
	return f;
}

/* Everything the client wrote, parsed line by line into a JSON array. */
static json_t *client_sent(int server)
{
	char buf[8192];
	ssize_t n;
	json_t *all = json_array();
	char *line, *save = NULL;

	shutdown(server, SHUT_WR);
	n = recv(server, buf, sizeof(buf) - 1, MSG_DONTWAIT);
	assert_true(n > 0);
	buf[n] = '\0';
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		json_t *msg = json_loads(line, 0, NULL);

		assert_non_null(msg);
		json_array_append_new(all, msg);
	}
	return all;
}

static void test_handshake_sends_capabilities(void **state)
{
	struct fake f = fake_server(GREETING CAPS_OK);
	struct rig_err err = { 0 };
	struct qmp *qmp;
	json_t *sent;
	const char *cmd;
	json_int_t id;

	(void)state;
	assert_int_equal(qmp_open_fd(f.client, 1000, &qmp, &err), 0);
	qmp_close(qmp);
	sent = client_sent(f.server);
	assert_int_equal(json_array_size(sent), 1);
	assert_int_equal(json_unpack(json_array_get(sent, 0), "{s:s, s:I}", "execute", &cmd, "id",
				     &id), 0);
	assert_string_equal(cmd, "qmp_capabilities");
	assert_int_equal(id, 1);
	json_decref(sent);
	close(f.server);
}

static void test_bad_greeting(void **state)
{
	struct fake f = fake_server("{\"hello\": \"world\"}\r\n");
	struct rig_err err = { 0 };
	struct qmp *qmp = NULL;

	(void)state;
	assert_int_equal(qmp_open_fd(f.client, 1000, &qmp, &err), -1);
	assert_null(qmp);
	assert_int_equal(err.class, RIG_EXIT_INFRA);
	assert_non_null(strstr(err.msg, "greeting"));
	close(f.server);
}

static void test_garbage_greeting(void **state)
{
	struct fake f = fake_server("SSH-2.0-OpenSSH_9.2\r\n");
	struct rig_err err = { 0 };
	struct qmp *qmp = NULL;

	(void)state;
	assert_int_equal(qmp_open_fd(f.client, 1000, &qmp, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_INFRA);
	assert_non_null(strstr(err.msg, "malformed"));
	close(f.server);
}

static void test_silent_server_times_out(void **state)
{
	struct fake f = fake_server("");
	struct rig_err err = { 0 };
	struct qmp *qmp = NULL;

	(void)state;
	assert_int_equal(qmp_open_fd(f.client, 100, &qmp, &err), -1);
	assert_non_null(strstr(err.msg, "no greeting"));
	close(f.server);
}

static void test_error_reply(void **state)
{
	struct fake f = fake_server(GREETING CAPS_OK
		"{\"error\": {\"class\": \"GenericError\", \"desc\": \"boom\"}, \"id\": 2}\r\n");
	struct rig_err err = { 0 };
	struct qmp *qmp;

	(void)state;
	assert_int_equal(qmp_open_fd(f.client, 1000, &qmp, &err), 0);
	assert_int_equal(qmp_execute(qmp, "system_wakeup", NULL, 1000, NULL, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_INFRA);
	assert_non_null(strstr(err.msg, "system_wakeup"));
	assert_non_null(strstr(err.msg, "GenericError"));
	assert_non_null(strstr(err.msg, "boom"));
	qmp_close(qmp);
	close(f.server);
}

/* Events before and after the reply, and a stale reply with a foreign id, all arrive while the
 * client waits for its own reply. */
static void test_events_interleaved_with_replies(void **state)
{
	struct fake f = fake_server(GREETING
		"{\"event\": \"RESUME\", \"timestamp\": {\"seconds\": 100, \"microseconds\": 0}}\r\n"
		CAPS_OK
		"{\"return\": {\"status\": \"old\"}, \"id\": 99}\r\n"
		"{\"event\": \"SUSPEND\", \"timestamp\": {\"seconds\": 2000000000, "
		"\"microseconds\": 500}}\r\n"
		"{\"return\": {\"status\": \"suspended\", \"running\": false}, \"id\": 2}\r\n"
		"{\"event\": \"WAKEUP\", \"timestamp\": {\"seconds\": 2000000001, "
		"\"microseconds\": 0}}\r\n");
	struct rig_err err = { 0 };
	struct qmp *qmp;
	json_t *ret = NULL;

	(void)state;
	assert_int_equal(qmp_open_fd(f.client, 1000, &qmp, &err), 0);
	assert_int_equal(qmp_event_count(qmp, "RESUME"), 1);
	assert_int_equal(qmp_execute(qmp, "query-status", NULL, 1000, &ret, &err), 0);
	assert_string_equal(json_string_value(json_object_get(ret, "status")), "suspended");
	json_decref(ret);
	assert_int_equal(qmp_event_count(qmp, "SUSPEND"), 1);
	/* SUSPEND is queued already; WAKEUP is still in the socket. */
	assert_int_equal(qmp_wait_event(qmp, "SUSPEND", 1999999999.0, 0, &err), 1);
	assert_int_equal(qmp_wait_event(qmp, "SUSPEND", 2000000000.6, 50, &err), 0);
	assert_int_equal(qmp_wait_event(qmp, "WAKEUP", 2000000000.0, 1000, &err), 1);
	assert_int_equal(qmp_wait_event(qmp, "RESUME", 101.0, 50, &err), 0);
	assert_int_equal(qmp_event_count(qmp, NULL), 3);
	qmp_close(qmp);
	close(f.server);
}

static void test_execute_sends_arguments_and_ids(void **state)
{
	struct fake f = fake_server(GREETING CAPS_OK "{\"return\": {}, \"id\": 2}\r\n"
				    "{\"return\": {}, \"id\": 3}\r\n");
	struct rig_err err = { 0 };
	struct qmp *qmp;
	json_t *args = json_pack("{s:[{s:s, s:s}]}", "keys", "type", "qcode", "data", "s");
	json_t *sent, *keys;
	json_int_t id;

	(void)state;
	assert_int_equal(qmp_open_fd(f.client, 1000, &qmp, &err), 0);
	assert_int_equal(qmp_execute(qmp, "send-key", args, 1000, NULL, &err), 0);
	assert_int_equal(qmp_execute(qmp, "stop", NULL, 1000, NULL, &err), 0);
	qmp_close(qmp);
	sent = client_sent(f.server);
	assert_int_equal(json_array_size(sent), 3);
	assert_int_equal(json_unpack(json_array_get(sent, 1), "{s:I, s:{s:o}}", "id", &id,
				     "arguments", "keys", &keys), 0);
	assert_int_equal(id, 2);
	assert_true(json_equal(keys, json_object_get(args, "keys")));
	assert_null(json_object_get(json_array_get(sent, 2), "arguments"));
	json_decref(args);
	json_decref(sent);
	close(f.server);
}

static void test_connection_lost_mid_command(void **state)
{
	struct fake f = fake_server(GREETING CAPS_OK "{\"event\": \"SHUTDOWN\"}\r\n");
	struct rig_err err = { 0 };
	struct qmp *qmp;
	double before = wall_clock_seconds();

	(void)state;
	assert_int_equal(qmp_open_fd(f.client, 1000, &qmp, &err), 0);
	shutdown(f.server, SHUT_WR);
	assert_int_equal(qmp_execute(qmp, "quit", NULL, 1000, NULL, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_INFRA);
	assert_non_null(strstr(err.msg, "closed"));
	/* The event seen on the way is kept, stamped with its arrival time. */
	assert_int_equal(qmp_wait_event(qmp, "SHUTDOWN", before, 0, &err), 1);
	qmp_close(qmp);
	close(f.server);
}

static void test_connect_missing_socket(void **state)
{
	struct rig_err err = { 0 };
	struct qmp *qmp = NULL;

	(void)state;
	assert_int_equal(qmp_connect("/nonexistent/rig-test/qmp.sock", 100, &qmp, &err), -1);
	assert_null(qmp);
	assert_int_equal(err.class, RIG_EXIT_INFRA);
	assert_non_null(strstr(err.msg, "/nonexistent/rig-test/qmp.sock"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_handshake_sends_capabilities),
		cmocka_unit_test(test_bad_greeting),
		cmocka_unit_test(test_garbage_greeting),
		cmocka_unit_test(test_silent_server_times_out),
		cmocka_unit_test(test_error_reply),
		cmocka_unit_test(test_events_interleaved_with_replies),
		cmocka_unit_test(test_execute_sends_arguments_and_ids),
		cmocka_unit_test(test_connection_lost_mid_command),
		cmocka_unit_test(test_connect_missing_socket),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
