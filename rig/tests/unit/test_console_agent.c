/* The agent protocol: POSIX cksum, request encoding, reply parsing (good, corrupt, refused),
 * and the real workloads/agent/rig-agent.sh under busybox sh on a pty. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "console/agent.h"
#include "console/base64.h"
#include "console/cksum.h"

#define MARKER "@@RIG@@"

/* ---- POSIX cksum and base64 ---- */

static void test_cksum_vectors(void **state)
{
	struct posix_cksum ck;

	(void)state;
	assert_int_equal(posix_cksum("123456789", 9), 930766865u);   /* printf 123456789 | cksum */
	assert_int_equal(posix_cksum("", 0), 4294967295u);           /* cksum </dev/null */
	posix_cksum_init(&ck);
	posix_cksum_update(&ck, "1234", 4);
	posix_cksum_update(&ck, "56789", 5);
	assert_int_equal(posix_cksum_final(&ck), posix_cksum("123456789", 9));
}

static void test_cksum_matches_the_cksum_tool(void **state)
{
	unsigned char data[3000];
	char cmd[64], out[64];
	unsigned long expected;
	FILE *f, *p;
	char path[] = "/tmp/test_cksum.XXXXXX";
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (unsigned char)(i * 131 + 7);
	assert_int_equal(write(fd, data, sizeof(data)), (ssize_t)sizeof(data));
	close(fd);
	snprintf(cmd, sizeof(cmd), "cksum < %s", path);
	p = popen(cmd, "r");
	if (!p || !fgets(out, sizeof(out), p)) {
		unlink(path);
		skip();
	}
	pclose(p);
	unlink(path);
	expected = strtoul(out, NULL, 10);
	assert_int_equal(posix_cksum(data, sizeof(data)), expected);
	(void)f;
}

static void test_base64(void **state)
{
	static const char *const in[] = { "", "f", "fo", "foo", "foob", "fooba", "foobar" };
	static const char *const out[] = { "", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=",
					   "Zm9vYmFy" };
	char buf[16];

	(void)state;
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		assert_int_equal(base64_encoded_len(strlen(in[i])), strlen(out[i]));
		base64_encode(in[i], strlen(in[i]), buf);
		assert_string_equal(buf, out[i]);
		/* and back, as the LAVA importer reads a recorded request */
		char back[16];

		assert_int_equal(base64_decode(out[i], back, sizeof(back)), (long)strlen(in[i]));
		assert_string_equal(back, in[i]);
	}
	assert_int_equal(base64_decode("Zm9", buf, sizeof(buf)), -1);        /* cut short */
	assert_int_equal(base64_decode("Zm=v", buf, sizeof(buf)), -1);       /* padding inside */
	assert_int_equal(base64_decode("Zm9v!mFy", buf, sizeof(buf)), -1);
	assert_int_equal(base64_decode("Zm9vYmFy", buf, 6), -1);             /* does not fit */
}

static void test_format_request(void **state)
{
	char *req = NULL;
	struct rig_err err = { 0 };
	char *big;

	(void)state;
	assert_int_equal(agent_format_request(42, "foo", &req, &err), 0);
	assert_string_equal(req, "@@RIG? 42 Zm9v\n");
	free(req);
	assert_int_equal(agent_format_request(1, "", &req, &err), -1);
	big = malloc(AGENT_MAX_COMMAND + 2);
	assert_non_null(big);
	memset(big, 'x', AGENT_MAX_COMMAND + 1);
	big[AGENT_MAX_COMMAND + 1] = '\0';
	assert_int_equal(agent_format_request(1, big, &req, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	free(big);
}

/* ---- reply parsing ---- */

static int feed_all(struct agent_reply *r, const char *const *lines, size_t n)
{
	int rc = 0;

	for (size_t i = 0; i < n && rc == 0; i++)
		rc = agent_reply_feed(r, MARKER, lines[i], NULL);
	return rc;
}

static void end_line(char *buf, size_t size, unsigned seq, int rc, const char *output,
		     size_t lines)
{
	snprintf(buf, size, MARKER " %u end rc=%d lines=%zu crc=%u", seq, rc, lines,
		 (unsigned)posix_cksum(output, strlen(output)));
}

static void test_reply_verified(void **state)
{
	struct agent_reply r;
	char end[128];
	const char *lines[] = {
		"rig# @@RIG? 7 ZWNobw==",           /* the tty's echo of the request */
		MARKER " 6 | stale line of an old request",
		MARKER " 7 begin",
		MARKER " 7 | hello world",
		MARKER " 7 |",
		MARKER " 7 | [   1.000000] looks like the kernel",
		end,
	};
	char *joined;

	(void)state;
	end_line(end, sizeof(end), 7, 3, "hello world\n\n[   1.000000] looks like the kernel\n", 3);
	agent_reply_init(&r, 7);
	assert_int_equal(feed_all(&r, lines, 7), 1);
	assert_int_equal(r.status, AGENT_OK);
	assert_int_equal(r.rc, 3);
	assert_int_equal(r.n_lines, 3);
	assert_string_equal(r.lines[0], "hello world");
	assert_string_equal(r.lines[1], "");
	joined = agent_reply_output(&r);
	assert_string_equal(joined, "hello world\n\n[   1.000000] looks like the kernel\n");
	free(joined);
	agent_reply_free(&r);
}

static void test_reply_lost_line_is_corrupt(void **state)
{
	struct agent_reply r;
	char end[128];
	const char *lines[] = { MARKER " 2 begin", MARKER " 2 | one", end };

	(void)state;
	end_line(end, sizeof(end), 2, 0, "one\ntwo\n", 2);
	agent_reply_init(&r, 2);
	assert_int_equal(feed_all(&r, lines, 3), 1);
	assert_int_equal(r.status, AGENT_CORRUPT);
	assert_int_equal(r.lines_expected, 2);
	agent_reply_free(&r);
}

static void test_reply_garbled_text_is_corrupt(void **state)
{
	struct agent_reply r;
	char end[128];
	const char *lines[] = { MARKER " 2 begin", MARKER " 2 | onX", MARKER " 2 | two", end };

	(void)state;
	end_line(end, sizeof(end), 2, 0, "one\ntwo\n", 2);
	agent_reply_init(&r, 2);
	assert_int_equal(feed_all(&r, lines, 4), 1);
	assert_int_equal(r.status, AGENT_CORRUPT);
	assert_int_not_equal(r.crc_actual, r.crc_expected);
	agent_reply_free(&r);
}

static void test_reply_garbled_end_and_missing_begin(void **state)
{
	struct agent_reply r;
	char end[128];
	const char *garbled[] = { MARKER " 4 begin", MARKER " 4 end rc=0 lines=0 crc=42[  1.0" };
	const char *no_begin[] = { MARKER " 5 | x", end };

	(void)state;
	agent_reply_init(&r, 4);
	assert_int_equal(feed_all(&r, garbled, 2), 1);
	assert_int_equal(r.status, AGENT_CORRUPT);
	agent_reply_free(&r);
	end_line(end, sizeof(end), 5, 0, "x\n", 1);
	agent_reply_init(&r, 5);
	assert_int_equal(feed_all(&r, no_begin, 2), 1);
	assert_int_equal(r.status, AGENT_CORRUPT);
	agent_reply_free(&r);
}

/* Numbers on the wire are read whole and range-checked (util/number): a sequence number that
 * wraps to ours, an exit status beyond int, a blank inside a field are not our reply. */
static void test_reply_numbers_out_of_range(void **state)
{
	struct agent_reply r;
	char end[128];
	const char *wrapped_seq[] = { MARKER " 4294967297 begin", MARKER " 4294967297 | x" };
	const char *big_rc[] = { MARKER " 3 begin", MARKER " 3 end rc=4294967296 lines=0 crc=4294967295" };
	const char *big_crc[] = { MARKER " 3 begin", MARKER " 3 end rc=0 lines=0 crc=4294967296" };
	const char *blank[] = { MARKER " 3 begin", MARKER " 3 end rc= 0 lines=0 crc=4294967295" };
	const char *spaced_seq[] = { MARKER "  3 begin" };
	const char *good[] = { MARKER " 3 begin", end };

	(void)state;
	agent_reply_init(&r, 1);
	assert_int_equal(feed_all(&r, wrapped_seq, 2), 0);
	assert_int_equal(r.status, AGENT_PENDING);
	assert_false(r.begun);
	agent_reply_free(&r);
	agent_reply_init(&r, 3);
	assert_int_equal(feed_all(&r, spaced_seq, 1), 0);
	assert_false(r.begun);
	agent_reply_free(&r);
	agent_reply_init(&r, 3);
	assert_int_equal(feed_all(&r, big_rc, 2), 1);
	assert_int_equal(r.status, AGENT_CORRUPT);
	agent_reply_free(&r);
	agent_reply_init(&r, 3);
	assert_int_equal(feed_all(&r, big_crc, 2), 1);
	assert_int_equal(r.status, AGENT_CORRUPT);
	agent_reply_free(&r);
	agent_reply_init(&r, 3);
	assert_int_equal(feed_all(&r, blank, 2), 1);
	assert_int_equal(r.status, AGENT_CORRUPT);
	agent_reply_free(&r);
	/* the positive control: the same reply, well formed, is ours */
	end_line(end, sizeof(end), 3, -2, "", 0);
	agent_reply_init(&r, 3);
	assert_int_equal(feed_all(&r, good, 2), 1);
	assert_int_equal(r.status, AGENT_OK);
	assert_int_equal(r.rc, -2);
	agent_reply_free(&r);
}

static void test_reply_refused(void **state)
{
	struct agent_reply r;
	const char *lines[] = { MARKER " 9 error bad base64" };

	(void)state;
	agent_reply_init(&r, 9);
	assert_int_equal(feed_all(&r, lines, 1), 1);
	assert_int_equal(r.status, AGENT_REFUSED);
	assert_string_equal(r.error, "bad base64");
	assert_string_equal(agent_status_name(r.status), "refused");
	agent_reply_free(&r);
}

/* A board that prints without end grew the reply's memory without bound: it stops at
 * AGENT_REPLY_MAX_BYTES, finished as "too long" with the lines kept so far. */
static void test_reply_too_long_is_cut(void **state)
{
	struct agent_reply r;
	size_t payload = 60 * 1024, lines = 0;
	char *line = malloc(payload + 32);
	int rc = 0;

	(void)state;
	assert_non_null(line);
	agent_reply_init(&r, 3);
	assert_int_equal(agent_reply_feed(&r, MARKER, MARKER " 3 begin", NULL), 0);
	snprintf(line, payload + 32, "%s 3 | ", MARKER);
	memset(line + strlen(line), 'x', payload);
	line[strlen(MARKER) + 5 + payload] = '\0';
	while (rc == 0 && lines < 2 * AGENT_REPLY_MAX_BYTES / payload) {
		rc = agent_reply_feed(&r, MARKER, line, NULL);
		lines++;
	}
	assert_int_equal(rc, 1);
	assert_int_equal(r.status, AGENT_TOO_LONG);
	assert_true(r.bytes <= AGENT_REPLY_MAX_BYTES);
	assert_int_equal(r.n_lines, AGENT_REPLY_MAX_BYTES / (payload + 1));
	assert_non_null(strstr(r.error, "reply cut"));
	assert_string_equal(agent_status_name(r.status), "too long");
	agent_reply_free(&r);
	free(line);
}

/* ---- the real agent under busybox sh on a pty ---- */

/* The engine's own call (engine/session.c): agent_run_verified, failing the test with the rig's
 * own message. */
static void run_ok(struct console *c, const char *cmd, struct agent_reply *r)
{
	struct rig_err err = { 0 };

	if (agent_run_verified(c, cmd, 10000, 3, NULL, NULL, NULL, r, &err) != 0)
		fail_msg("%s", err.msg);
}

/* The first line matching pattern (POSIX ERE) within timeout_ms; -1 when none came. */
static int wait_for_line(struct console *c, const char *pattern, int timeout_ms)
{
	struct rig_err err = { 0 };
	struct console_line line;
	regex_t re;
	int rc = -1;

	if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB) != 0)
		return -1;
	while (console_next_line(c, timeout_ms, &line, &err) == 1)
		if (regexec(&re, line.text, 0, NULL, 0) == 0) {
			rc = 0;
			break;
		}
	regfree(&re);
	return rc;
}

struct live {
	pid_t pid;
	struct console *console;
	char slave[64];
	unsigned suspend_events;
};

static void on_event(void *ctx, const struct kevent *ev)
{
	struct live *l = ctx;

	if (ev->kind == KEV_SUSPEND_ENTRY)
		l->suspend_events++;
}

static void exec_agent(const char *slave, const char *cksum_mode)
{
	const char *top = getenv("RIG_TOP");
	char script[1024];
	int fd;

	/* A shell started from a background job inherits SIGINT ignored, and a non-interactive
	 * shell cannot trap a signal ignored on entry: the agent's Ctrl-C handling would then be
	 * untestable (CI runs exactly like that). The board's init starts it with defaults. */
	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	setsid();
	fd = open(slave, O_RDWR);   /* first tty opened by a session leader: controlling tty */
	if (fd < 0)
		_exit(126);
	dup2(fd, 0);
	dup2(fd, 1);
	dup2(fd, 2);
	if (fd > 2)
		close(fd);
	snprintf(script, sizeof(script), "%s/workloads/agent/rig-agent.sh", top ? top : ".");
	setenv("RIG_AGENT_CKSUM", cksum_mode, 1);
	execlp("busybox", "busybox", "sh", script, (char *)NULL);
	_exit(127);
}

static int start_agent(struct live *l, const char *cksum_mode)
{
	struct rig_err err = { 0 };
	struct console_transport *t;
	struct console_options opts = { 0 };
	/* Close-on-exec: an agent holding its own master open would never see the hangup. */
	int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);

	if (master < 0 || grantpt(master) < 0 || unlockpt(master) < 0 ||
	    ptsname_r(master, l->slave, sizeof(l->slave)) != 0)
		return -1;
	l->pid = fork();
	if (l->pid < 0)
		return -1;
	if (l->pid == 0)
		exec_agent(l->slave, cksum_mode);
	/* RIG_TEST_CONSOLE_LOG=FILE keeps what the agent said, for debugging. */
	opts.log_path = getenv("RIG_TEST_CONSOLE_LOG");
	if (transport_from_fd(master, "pty master", &t, &err) < 0 ||
	    console_create(t, &opts, &l->console, &err) < 0)
		return -1;
	console_set_event_handler(l->console, on_event, l);
	return wait_for_line(l->console, "^@@RIG@@ agent ready$", 10000);
}

static int live_setup(void **state, const char *cksum_mode)
{
	struct live *l = calloc(1, sizeof(*l));

	if (!l || system("busybox true >/dev/null 2>&1") != 0) {
		free(l);
		*state = NULL;
		return 0;     /* the tests skip */
	}
	*state = l;
	return start_agent(l, cksum_mode) == 0 ? 0 : -1;
}

static int live_setup_cksum(void **state)
{
	return live_setup(state, "auto");
}

static int live_setup_awk(void **state)
{
	return live_setup(state, "awk");
}

static int live_teardown(void **state)
{
	struct live *l = *state;
	int status;

	if (!l)
		return 0;
	console_close(l->console);  /* hangs the pty up: the agent's read ends */
	if (l->pid > 0 && waitpid(l->pid, &status, WNOHANG) == 0) {
		usleep(100000);
		if (waitpid(l->pid, &status, WNOHANG) == 0) {
			kill(l->pid, SIGKILL);
			waitpid(l->pid, &status, 0);
		}
	}
	free(l);
	return 0;
}

static struct live *live_or_skip(void **state)
{
	if (!*state)
		skip();
	return *state;
}

static void test_live_command(void **state)
{
	struct live *l = live_or_skip(state);
	struct agent_reply r;
	struct rig_err err = { 0 };

	run_ok(l->console, "echo hello; echo oops >&2; printf 'a\\rb\\033c'; exit 3", &r);
	assert_int_equal(r.status, AGENT_OK);
	assert_int_equal(r.rc, 3);
	assert_int_equal(r.n_lines, 3);
	assert_string_equal(r.lines[0], "hello");
	assert_string_equal(r.lines[1], "oops");
	assert_string_equal(r.lines[2], "a?b?c");   /* control bytes are sent as '?' */
	agent_reply_free(&r);
	assert_int_equal(agent_run_verified(l->console, "true", 10000, 3, NULL, NULL, NULL, &r, &err), 0);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.n_lines, 0);
	agent_reply_free(&r);
}

static void test_live_quoting_survives(void **state)
{
	struct live *l = live_or_skip(state);
	struct agent_reply r;

	run_ok(l->console, "x='it''s \"quoted\" $HOME | * ;'; echo \"$x\"; seq 1 40", &r);
	assert_string_equal(r.lines[0], "its \"quoted\" $HOME | * ;");
	assert_int_equal(r.n_lines, 41);
	assert_string_equal(r.lines[40], "40");
	agent_reply_free(&r);
}

static void test_live_kernel_record_between_requests(void **state)
{
	struct live *l = live_or_skip(state);
	struct agent_reply r;
	const char *record = "[   41.530125] PM: suspend entry (deep)\r\n";
	int fd = open(l->slave, O_WRONLY | O_NOCTTY);

	/* Written straight to the tty like the kernel's console, while the prompt is waiting. */
	assert_true(fd >= 0);
	assert_int_equal(write(fd, record, strlen(record)), (ssize_t)strlen(record));
	close(fd);
	run_ok(l->console, "echo after", &r);
	assert_string_equal(r.lines[0], "after");
	assert_int_equal(l->suspend_events, 1);
	agent_reply_free(&r);
}

static void test_live_interactive_and_refused(void **state)
{
	struct live *l = live_or_skip(state);
	struct agent_reply r;
	struct rig_err err = { 0 };
	const char *bad = "@@RIG? 77 !!!notbase64\n";
	struct console_line line;
	int rc;

	assert_int_equal(console_send(l->console, "echo plain-$((1+2))\n", 20, &err), 0);
	assert_int_equal(wait_for_line(l->console, "plain-3$", 10000), 0);
	assert_int_equal(console_send(l->console, bad, strlen(bad), &err), 0);
	agent_reply_init(&r, 77);
	do {
		rc = console_next_line(l->console, 10000, &line, &err);
		assert_int_equal(rc, 1);
	} while (agent_reply_feed(&r, MARKER, line.text, &err) == 0);
	assert_int_equal(r.status, AGENT_REFUSED);
	agent_reply_free(&r);
}

/* After an unplugged console the rig asks for a reply again: the agent repeats its last one,
 * and refuses a request number that was not its last. */
static void read_reply(struct live *l, unsigned seq, struct agent_reply *r)
{
	struct rig_err err = { 0 };
	struct console_line line;

	agent_reply_init(r, seq);
	do
		assert_int_equal(console_next_line(l->console, 10000, &line, &err), 1);
	while (agent_reply_feed(r, MARKER, line.text, &err) == 0);
}

static void test_live_resend(void **state)
{
	struct live *l = live_or_skip(state);
	struct agent_reply r, again;
	struct rig_err err = { 0 };
	char *req;
	unsigned seq;

	run_ok(l->console, "echo once; exit 4", &r);
	seq = r.seq;
	agent_reply_free(&r);
	assert_int_equal(agent_format_resend(seq, &req, &err), 0);
	assert_int_equal(console_send(l->console, req, strlen(req), &err), 0);
	free(req);
	read_reply(l, seq, &again);
	assert_int_equal(again.status, AGENT_OK);
	assert_int_equal(again.rc, 4);
	assert_int_equal(again.n_lines, 1);
	assert_string_equal(again.lines[0], "once");
	agent_reply_free(&again);

	assert_int_equal(agent_format_resend(seq + 100, &req, &err), 0);
	assert_int_equal(console_send(l->console, req, strlen(req), &err), 0);
	free(req);
	read_reply(l, seq + 100, &again);
	assert_int_equal(again.status, AGENT_REFUSED);
	assert_non_null(strstr(again.error, "no reply to resend"));
	agent_reply_free(&again);
}

/* A reply that does not come in time is a timeout, and every line read while waiting went to
 * the caller's hook (the engine's event log and acknowledgement table hang on it). */
static void seen_line(void *ctx, const struct console_line *line)
{
	unsigned *acks = ctx;

	if (strstr(line->text, "rig-ack: id="))
		(*acks)++;
}

static void test_live_timeout_and_every_line_seen(void **state)
{
	struct live *l = live_or_skip(state);
	struct agent_reply r;
	struct rig_err err = { 0 };
	unsigned acks = 0;
	const char *record = "[   41.530125] rig-ack: id=x seq=1 boottime_ns=2\r\n";
	int fd = open(l->slave, O_WRONLY | O_NOCTTY);

	/* Written straight to the tty like the kernel's console, while the command runs. */
	assert_true(fd >= 0);
	assert_int_equal(agent_run(l->console, "sleep 5", 300, NULL, seen_line, &acks, &r, &err), 1);
	agent_reply_free(&r);
	assert_int_equal(write(fd, record, strlen(record)), (ssize_t)strlen(record));
	close(fd);
	assert_int_equal(agent_run(l->console, "true", 1000, NULL, seen_line, &acks, &r, &err), 1);
	assert_int_equal(r.status, AGENT_TIMEOUT);
	agent_reply_free(&r);
	assert_int_equal(agent_run_verified(l->console, "true", 1000, 1, NULL, NULL, NULL, &r, &err), -1);
	assert_non_null(strstr(err.msg, "no reply in 1 s"));
	assert_int_equal(acks, 1);
}

/* A board the host starves is given more time past a command's timeout, as long as the
 * patience hook says so; without it the same command times out (the negative control). */
struct patience_log {
	long long until_ms;   /* more time while the command has run less than this */
	unsigned asked;
};

static bool more_time_until(void *ctx, long long started_ms, long long now_ms,
			    long long timeout_ms)
{
	struct patience_log *log = ctx;

	assert_true(now_ms - started_ms >= timeout_ms);
	log->asked++;
	return now_ms - started_ms < log->until_ms;
}

static void test_live_patience_extends_a_timeout(void **state)
{
	struct live *l = live_or_skip(state);
	struct agent_reply r;
	struct rig_err err = { 0 };
	struct patience_log log = { .until_ms = 5000 };
	struct agent_patience patience = { .more_time = more_time_until, .ctx = &log };

	assert_int_equal(agent_run_verified(l->console, "sleep 1; echo late", 300, 1, &patience, NULL,
					    NULL, &r, &err), 0);
	assert_string_equal(r.lines[0], "late");
	assert_true(patience.waited_ms >= 900);
	assert_true(log.asked > 0);
	assert_true(patience.extended && !patience.timed_out);
	agent_reply_free(&r);

	log = (struct patience_log){ .until_ms = 0 };
	assert_int_equal(agent_run_verified(l->console, "sleep 2; echo late", 300, 1, &patience, NULL,
					    NULL, &r, &err), -1);
	assert_non_null(strstr(err.msg, "no reply in 0.3 s"));
	assert_true(patience.waited_ms < 1000);
	assert_int_equal(log.asked, 1);
	assert_true(!patience.extended && patience.timed_out);
}

/* Given up after an extension, the message says how long it waited and that it extended. */
static void test_live_patience_is_bounded(void **state)
{
	struct live *l = live_or_skip(state);
	struct agent_reply r;
	struct rig_err err = { 0 };
	struct patience_log log = { .until_ms = 1500 };
	struct agent_patience patience = { .more_time = more_time_until, .ctx = &log };

	assert_int_equal(agent_run_verified(l->console, "sleep 5", 300, 1, &patience, NULL, NULL, &r,
					    &err), -1);
	assert_true(patience.waited_ms >= 1500 && patience.waited_ms < 2500);
	assert_true(patience.extended && patience.timed_out);
	assert_non_null(strstr(err.msg, "s (its timeout 0.3 s, extended)"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cksum_vectors),
		cmocka_unit_test(test_cksum_matches_the_cksum_tool),
		cmocka_unit_test(test_base64),
		cmocka_unit_test(test_format_request),
		cmocka_unit_test(test_reply_verified),
		cmocka_unit_test(test_reply_lost_line_is_corrupt),
		cmocka_unit_test(test_reply_garbled_text_is_corrupt),
		cmocka_unit_test(test_reply_garbled_end_and_missing_begin),
		cmocka_unit_test(test_reply_numbers_out_of_range),
		cmocka_unit_test(test_reply_refused),
		cmocka_unit_test(test_reply_too_long_is_cut),
		cmocka_unit_test_setup_teardown(test_live_command, live_setup_cksum, live_teardown),
		cmocka_unit_test_setup_teardown(test_live_command, live_setup_awk, live_teardown),
		cmocka_unit_test_setup_teardown(test_live_quoting_survives, live_setup_awk,
						live_teardown),
		cmocka_unit_test_setup_teardown(test_live_kernel_record_between_requests,
						live_setup_cksum, live_teardown),
		cmocka_unit_test_setup_teardown(test_live_resend, live_setup_cksum, live_teardown),
		cmocka_unit_test_setup_teardown(test_live_interactive_and_refused, live_setup_cksum,
						live_teardown),
		cmocka_unit_test_setup_teardown(test_live_timeout_and_every_line_seen, live_setup_cksum,
						live_teardown),
		cmocka_unit_test_setup_teardown(test_live_patience_extends_a_timeout,
						live_setup_cksum, live_teardown),
		cmocka_unit_test_setup_teardown(test_live_patience_is_bounded, live_setup_cksum,
						live_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
