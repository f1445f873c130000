/* The cycle engine for real (engine_run) against a fake DUT: a thread serving the unix socket
 * the board's console points at. Every new connection is a fresh boot (kernel banner, then the
 * agent's ready line); requests are answered like workloads/agent/rig-agent.sh would, with
 * canned rig-dut outputs. The board's power commands are `true`, so the command backend has no
 * events and the engine sees the sleep through the console's ACPI S-state line.
 * Fixtures: rig/tests/data/engine/. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/unit/support.h"

#include <errno.h>
#include <ftw.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "config/board.h"
#include "config/plan.h"
#include "console/base64.h"
#include "console/cksum.h"
#include "engine/engine.h"
#include "judge/budget.h"
#include "config/known.h"
#include "lava/cases.h"
#include "lava/import.h"
#include "results/db.h"

#include <jansson.h>

#define DATA "rig/tests/data/engine/"
#define MAX_COMMANDS 256
#define FAKE_POLL_MS 50
#define FAKE_SLEEP_MS 200      /* how long the fake board "sleeps" between S3 entry and wake */

/* The fake's frozen window (CLOCK_BOOTTIME ns, as rig-dut trace-read prints them). */
#define FREEZE_NS 10000000000ull
#define FREEZE_SUPER_NS 10001000000ull
#define FREEZE_SUPER_RET_NS 10002000000ull
#define FREEZE_DONE_NS 10003000000ull
#define THAW_NS 12000000000ull
#define THAW_SUPER_NS 12001000000ull
#define THAW_DONE_NS 12002000000ull

#define FAKE_WARNING "WARNING: kernel/foo.c:12 at bar+0x1/0x2, CPU#0: sh/1"

/* One recorded board command: the kernel's messages while it ran, then its reply. A command
 * that is asked several times with the same answer (rig-dut info) is reusable. */
struct evidence {
	const char *suite;              /* the LAVA test definition that records it */
	const char *cmd;
	const char *kernel;             /* "\n"-separated printk messages, or NULL */
	const char *reply;
	int rc;
	bool reusable;
};

/* ---- the fake DUT ---- */

struct fake_dut {
	int listen_fd;
	pthread_t thread;
	atomic_bool quit;

	/* behaviour */
	bool warn_on_resume;            /* a WARNING between wake and suspend exit */
	bool premature_wake;            /* its wake line: asleep 10 ms of a 1 s alarm */
	bool presync;                   /* its result line says how long it synced (presync_ms) */
	bool refuse_freeze;             /* tasks refuse to freeze: the suspend fails, EBUSY */
	bool write_while_frozen;        /* a store completes well inside the frozen window */
	const struct evidence *script;  /* answer every command from this recorded evidence */
	size_t n_script;
	bool script_used[64];
	bool via_systemctl;             /* the suspend asked for was "... suspend" (systemctl) */
	bool s2idle;                    /* the suspend asked for was s2idle: asleep until power off */
	bool systemd_fails;             /* systemd reports that sleep as failed */
	unsigned hang_suspend;          /* 1-based suspend request never answered; 0 = none */
	unsigned unhealthy_boot;        /* 1-based boot that loses an interrupt line; 0 = none */
	unsigned stop_suspend;          /* suspend request on which *stop is set (never answered) */
	const char *stop_on_command;    /* *stop is set when this command arrives (then answered) */
	const char *die_on_command;     /* the console dies when this command first arrives */
	const char *die_pattern;        /* or, when set, on its Nth arrival if pattern[N-1] is 'x' */
	unsigned die_seen;
	const char *build_id;           /* what rig-dut info reports from /sys/kernel/notes */
	bool died;
	volatile sig_atomic_t *stop;

	/* what it saw; read by the test after fake_stop() joined the thread */
	unsigned connections, suspends;
	char *commands[MAX_COMMANDS];
	size_t n_commands;

	/* per connection */
	int fd;
	unsigned ktime_us;
	int knob_freeze;
	char pending[8192];
	size_t pending_len;
};

static bool fake_dies_now(struct fake_dut *f)
{
	unsigned n = f->die_seen++;

	if (!f->die_pattern) {
		bool first = !f->died;

		f->died = true;
		return first;
	}
	return n < strlen(f->die_pattern) && f->die_pattern[n] == 'x';
}

static int fake_write(struct fake_dut *f, const char *text)
{
	size_t len = strlen(text), done = 0;

	while (done < len) {
		ssize_t n = send(f->fd, text + done, len - done, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		done += (size_t)n;
	}
	return 0;
}

/* A printk record as the kernel writes it on the serial console. */
static int fake_kernel(struct fake_dut *f, const char *message)
{
	char line[512];

	f->ktime_us += 1000;
	snprintf(line, sizeof(line), "[%5u.%06u] %s\r\n", f->ktime_us / 1000000,
		 f->ktime_us % 1000000, message);
	return fake_write(f, line);
}

/* begin, the output lines, end with the POSIX cksum of "line\n"... as the agent sends it. */
static int fake_reply(struct fake_dut *f, unsigned seq, int rc, const char *output)
{
	char line[1024];
	size_t n_lines = 0;
	const char *p = output;

	snprintf(line, sizeof(line), "@@RIG@@ %u begin\r\n", seq);
	if (fake_write(f, line) < 0)
		return -1;
	while (*p) {
		size_t len = strcspn(p, "\n");

		snprintf(line, sizeof(line), "@@RIG@@ %u | %.*s\r\n", seq, (int)len, p);
		if (fake_write(f, line) < 0)
			return -1;
		n_lines++;
		p += len + (p[len] == '\n');
	}
	snprintf(line, sizeof(line), "@@RIG@@ %u end rc=%d lines=%zu crc=%" PRIu32 "\r\n", seq, rc,
		 n_lines, posix_cksum(output, strlen(output)));
	return fake_write(f, line);
}

static void fake_sleep_ms(int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* rig-dut suspend: the kernel's lines around an S3 sleep, then the result line. */
static int fake_suspend(struct fake_dut *f, unsigned seq)
{
	unsigned n = ++f->suspends;

	/* s2idle: no S-state line; the debug line rig-dut asks for, then nothing until the power
	 * is cut (kernel/power/suspend.c: s2idle_enter). */
	if (f->s2idle)
		return fake_kernel(f, "PM: suspend entry (s2idle)") < 0 ||
		       fake_kernel(f, "Freezing user space processes completed (elapsed 0.001 seconds)") < 0 ||
		       fake_kernel(f, "PM: suspend-to-idle") < 0 ? -1 : 0;
	if (fake_kernel(f, "PM: suspend entry (deep)") < 0 ||
	    fake_kernel(f, "PM: Syncing filesystems ... done.") < 0 ||
	    fake_kernel(f, "Freezing user space processes") < 0)
		return -1;
	if (f->refuse_freeze) {
		/* what 7.3 prints (kernel/power/process.c), then the shell's complaint before
		 * rig-dut's own report */
		if (fake_kernel(f, "Freezing user space processes failed after 20.004 seconds (1 tasks "
				   "refusing to freeze, wq_busy=0):") < 0 ||
		    fake_kernel(f, "task:journal-writer  state:D stack:0     pid:237   tgid:237   "
				   "ppid:1      task_flags:0x400000 flags:0x00080002") < 0 ||
		    fake_kernel(f, "Call Trace:") < 0 || fake_kernel(f, "Restarting tasks: Done") < 0 ||
		    fake_kernel(f, "PM: suspend exit") < 0)
			return -1;
		return fake_reply(f, seq, 0, "sh: write error: Device or resource busy\n"
				  "result=1 successes=0 slept_s=20 last_failed_step=freeze\n");
	}
	if (fake_kernel(f, "Freezing user space processes completed (elapsed 0.001 seconds)") < 0 ||
	    fake_kernel(f, "ACPI: PM: Preparing to enter system sleep state S3") < 0)
		return -1;
	if (n == f->stop_suspend && f->stop) {
		*f->stop = 1;
		return 0;
	}
	if (n == f->hang_suspend)
		return 0;   /* the resume never finishes: not one more byte */
	fake_sleep_ms(FAKE_SLEEP_MS);
	if (fake_kernel(f, "ACPI: PM: Waking up from system sleep state S3") < 0 ||
	    (f->warn_on_resume && fake_kernel(f, FAKE_WARNING) < 0) ||
	    fake_kernel(f, "Restarting tasks: Done") < 0 || fake_kernel(f, "PM: suspend exit") < 0)
		return -1;
	if (f->via_systemctl)
		return fake_reply(f, seq, 0,
				  f->systemd_fails
				  ? "result=1 successes=1 slept_s=1 last_failed_step= via=systemctl "
				    "systemd_result=exit-code user_freeze=froze user_thaw=thawed "
				    "sleep_pre_ms=300 sleep_post_ms=80 systemd_said=\"Failed to put system "
				    "to sleep. System resumed again: Input/output error\"\n"
				  : "result=0 successes=1 slept_s=1 last_failed_step= via=systemctl "
				    "systemd_result=success user_freeze=froze user_thaw=thawed "
				    "sleep_pre_ms=300 sleep_post_ms=80\n");
	/* rig-dut's wake accounting (workloads/tests/rig-dut-wake.sh): about what the alarm left;
	 * the premature one from a rig-dut before rtc=, so that its timing alone fails it */
	return fake_reply(f, seq, 0,
			  f->premature_wake
			  ? "result=0 successes=1 slept_s=1 last_failed_step=\n"
			    "wake irq=9 irq_name=acpi asleep_ms=10 awake_ms=20 sources=PNP0C0C_00:1:1\n"
			  : f->presync
			  ? "result=0 successes=1 slept_s=1 presync_ms=5 last_failed_step=\n"
			    "wake irq=8 irq_name=rtc0 asleep_ms=900 awake_ms=150 sources=rtc0:1:1 "
			    "rtc=rtc0 hw_sleep_ms=unavailable\n"
			  : "result=0 successes=1 slept_s=1 last_failed_step=\n"
			    "wake irq=8 irq_name=rtc0 asleep_ms=900 awake_ms=150 sources=rtc0:1:1 "
			    "rtc=rtc0 hw_sleep_ms=unavailable\n");
}

/* rig-dut trace-read: "event t_ns [dev]" lines of one suspend's frozen window. */
static void fake_trace_read(char *out, size_t size)
{
	snprintf(out, size,
		 "fs_freeze %llu \nfreeze_super %llu nvme0n1p1\nfreeze_super_ret %llu \n"
		 "fs_freeze_done %llu \nfs_thaw %llu \nthaw_super %llu nvme0n1p1\n"
		 "fs_thaw_done %llu \n",
		 FREEZE_NS, FREEZE_SUPER_NS, FREEZE_SUPER_RET_NS, FREEZE_DONE_NS, THAW_NS,
		 THAW_SUPER_NS, THAW_DONE_NS);
}

/* rig-dut stall-ops: the writer blocked from just after freeze_super until after its thaw
 * (and, if asked, a store that went through 500 ms into the frozen window). */
static void fake_stall_ops(const struct fake_dut *f, char *out, size_t size)
{
	int n = snprintf(out, size,
			 "window from_ns=%llu to_ns=%llu\n"
			 "writer=nvme-ext4-m tel ops=40 errors=0 longest_ns=2010500000 inflight_start_ns=0 retained=12\n"
			 "writer=nvme-ext4-m op start_ns=%llu end_ns=%llu err=0 kind=store seq=40\n",
			 FREEZE_NS, THAW_DONE_NS, FREEZE_SUPER_NS + 500000, THAW_SUPER_NS + 1000000);

	if (f->write_while_frozen)
		snprintf(out + n, size - (size_t)n,
			 "writer=nvme-ext4-m op start_ns=%llu end_ns=%llu err=0 kind=store seq=41\n",
			 FREEZE_SUPER_RET_NS + 500000000, FREEZE_SUPER_RET_NS + 500100000);
}

/* The board's rig-dut command that prints PART of a rig-dut collect reply. */
static const char *collect_part_command(const char *part, size_t len)
{
	static const struct { const char *part, *cmd; } parts[] = {
		{ "trace", "rig-dut trace-read" }, { "alive", "rig-dut alive" },
		{ "stall", "rig-dut stall-ops" },
	};

	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (strlen(parts[i].part) == len && strncmp(parts[i].part, part, len) == 0)
			return parts[i].cmd;
	return NULL;
}

/* The fake's own output of one rig-dut command (NULL: it has none). */
static const char *fake_output(const struct fake_dut *f, const char *cmd, char *out, size_t size)
{
	if (strcmp(cmd, "rig-dut trace-read") == 0)
		fake_trace_read(out, size);
	else if (strcmp(cmd, "rig-dut alive") == 0)
		snprintf(out, size, "writer=nvme-ext4-m alive=1\n");
	else if (strcmp(cmd, "rig-dut stall-ops") == 0)
		fake_stall_ops(f, out, size);
	else
		return NULL;
	return out;
}

/* The recorded evidence for cmd, its kernel messages sent; NULL when there is none. */
static const struct evidence *fake_recorded(struct fake_dut *f, const char *cmd)
{
	for (size_t i = 0; i < f->n_script; i++) {
		const struct evidence *e = &f->script[i];
		char msg[400];

		if (strcmp(e->cmd, cmd) != 0 || (f->script_used[i] && !e->reusable))
			continue;
		f->script_used[i] = true;
		for (const char *p = e->kernel; p && *p;) {
			size_t len = strcspn(p, "\n");

			snprintf(msg, sizeof(msg), "%.*s", (int)len, p);
			if (fake_kernel(f, msg) < 0)
				return NULL;
			p += len + (p[len] == '\n');
		}
		return e;
	}
	return NULL;
}

/* rig-dut collect PART...: as the board's rig-dut prints it, each part's command's output after
 * a "collect=PART" line (from the recorded evidence when the fake replays one). */
static int fake_collect(struct fake_dut *f, unsigned seq, const char *parts)
{
	char out[4096] = "", one[1024];
	size_t used = 0;

	for (const char *p = parts; *p;) {
		size_t len = strcspn(p, " ");
		const char *cmd = collect_part_command(p, len), *text = NULL;
		const struct evidence *e;

		if (!cmd)
			return fake_reply(f, seq, 1, "error=bad-argument\n");
		if (f->script)
			text = (e = fake_recorded(f, cmd)) ? e->reply : "";
		else
			text = fake_output(f, cmd, one, sizeof(one));
		used += (size_t)snprintf(out + used, sizeof(out) - used, "collect=%.*s\n%s",
					 (int)len, p, text);
		assert_true(used < sizeof(out));
		p += len + (p[len] == ' ');
	}
	return fake_reply(f, seq, 0, out);
}

/* The recorded evidence's answer to cmd: its kernel messages, then its reply. */
static int fake_scripted(struct fake_dut *f, unsigned seq, const char *cmd)
{
	const struct evidence *e;

	if (strncmp(cmd, "rig-dut collect ", 16) == 0)
		return fake_collect(f, seq, cmd + 16);
	if ((e = fake_recorded(f, cmd)))
		return fake_reply(f, seq, e->rc, e->reply);
	return fake_reply(f, seq, 127, "sh: not in the recorded evidence\n");
}

static int fake_command(struct fake_dut *f, unsigned seq, const char *cmd)
{
	char out[512], name[64];
	int value;

	if (f->n_commands < MAX_COMMANDS)
		f->commands[f->n_commands++] = strdup(cmd);
	if (f->script)
		return fake_scripted(f, seq, cmd);
	if (f->stop_on_command && f->stop && strcmp(cmd, f->stop_on_command) == 0)
		*f->stop = 1;
	if (f->die_on_command && strcmp(cmd, f->die_on_command) == 0 && fake_dies_now(f))
		return -1;   /* hang up without a reply */
	if (strcmp(cmd, "rig-dut info") == 0) {
		snprintf(out, sizeof(out),
			 "kernel=7.3.4-rig freeze_filesystems=%d sync_on_suspend=1 states=freeze,mem,disk "
			 "mem_sleep=s2idle,[deep] disk=[shutdown] boot_id=fake-%u build_id=%s\n",
			 f->knob_freeze, f->connections, f->build_id ? f->build_id : "");
		return fake_reply(f, seq, 0, out);
	}
	if (sscanf(cmd, "rig-dut knob %63s %d", name, &value) == 2) {
		if (strcmp(name, "freeze_filesystems") == 0)
			f->knob_freeze = value;
		snprintf(out, sizeof(out), "knob=%s value=%d\n", name, value);
		return fake_reply(f, seq, 0, out);
	}
	if (strncmp(cmd, "rig-dut trace-setup", 19) == 0)
		return fake_reply(f, seq, 0, "trace=on clock=boot events=7\n");
	if (strncmp(cmd, "rig-dut start-workloads ", 24) == 0)
		return fake_reply(f, seq, 0, "workloads=1\n");
	if (strncmp(cmd, "rig-dut suspend ", 16) == 0) {
		f->via_systemctl = strlen(cmd) > 8 && strcmp(cmd + strlen(cmd) - 8, " suspend") == 0;
		f->s2idle = strncmp(cmd, "rig-dut suspend s2idle ", 23) == 0;
		return fake_suspend(f, seq);
	}
	if (strncmp(cmd, "rig-dut collect ", 16) == 0)
		return fake_collect(f, seq, cmd + 16);
	if (fake_output(f, cmd, out, sizeof(out)))
		return fake_reply(f, seq, 0, out);
	return fake_reply(f, seq, 127, "sh: rig-dut: unknown command\n");
}

/* One console line from the host: an agent request, or something typed (ignored). */
static int fake_line(struct fake_dut *f, char *line)
{
	char b64[4096], cmd[3072];
	unsigned seq;

	line[strcspn(line, "\r")] = '\0';
	if (sscanf(line, "@@RIG? %u %4095s", &seq, b64) != 2)
		return 0;
	if (base64_decode(b64, cmd, sizeof(cmd)) < 0) {
		snprintf(cmd, sizeof(cmd), "@@RIG@@ %u error bad base64\r\n", seq);
		return fake_write(f, cmd);
	}
	return fake_command(f, seq, cmd);
}

static int fake_boot(struct fake_dut *f)
{
	f->ktime_us = 0;
	f->knob_freeze = 0;
	f->pending_len = 0;
	if (fake_kernel(f, "Linux version 7.3.4-rig (rig@lab) (gcc (Debian 12.2.0-14) 12.2.0) #1 SMP "
			   "PREEMPT_DYNAMIC") < 0 ||
	    fake_kernel(f, "Command line: console=ttyS0,115200 no_console_suspend") < 0)
		return -1;
	/* The board kernel without CONFIG_PCI_MSI: NVMe on a shared INTx line (issue 13). */
	if (f->unhealthy_boot == f->connections &&
	    (fake_kernel(f, "irq 10: nobody cared (try booting with the \"irqpoll\" option)") < 0 ||
	     fake_kernel(f, "handlers:") < 0 || fake_kernel(f, "[<00000000a1b2c3d4>] nvme_irq") < 0 ||
	     fake_kernel(f, "Disabling IRQ #10") < 0))
		return -1;
	if (fake_kernel(f, "Run /init as init process") < 0)
		return -1;
	return fake_write(f, "@@RIG@@ agent ready\r\n");
}

/* Serve one connection (one boot of the board) until the host hangs up. */
static void fake_serve(struct fake_dut *f)
{
	if (fake_boot(f) < 0)
		return;
	while (!atomic_load(&f->quit)) {
		struct pollfd p = { .fd = f->fd, .events = POLLIN };
		ssize_t n;
		char *nl;

		if (poll(&p, 1, FAKE_POLL_MS) <= 0)
			continue;
		n = read(f->fd, f->pending + f->pending_len, sizeof(f->pending) - 1 - f->pending_len);
		if (n <= 0)
			return;   /* the engine closed the console: a power cut */
		f->pending_len += (size_t)n;
		f->pending[f->pending_len] = '\0';
		while ((nl = strchr(f->pending, '\n')) != NULL) {
			*nl = '\0';
			if (fake_line(f, f->pending) < 0)
				return;
			f->pending_len -= (size_t)(nl + 1 - f->pending);
			memmove(f->pending, nl + 1, f->pending_len + 1);
		}
		if (f->pending_len == sizeof(f->pending) - 1)
			f->pending_len = 0;   /* a line longer than any request: drop it */
	}
}

static void *fake_main(void *arg)
{
	struct fake_dut *f = arg;

	while (!atomic_load(&f->quit)) {
		struct pollfd p = { .fd = f->listen_fd, .events = POLLIN };

		if (poll(&p, 1, FAKE_POLL_MS) <= 0)
			continue;
		f->fd = accept(f->listen_fd, NULL, NULL);
		if (f->fd < 0)
			continue;
		f->connections++;
		fake_serve(f);
		close(f->fd);
		f->fd = -1;
	}
	return NULL;
}

static void fake_start(struct fake_dut *f, const char *socket_path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };

	assert_true(strlen(socket_path) < sizeof(addr.sun_path));
	memcpy(addr.sun_path, socket_path, strlen(socket_path) + 1);
	f->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(f->listen_fd >= 0);
	assert_int_equal(bind(f->listen_fd, (struct sockaddr *)&addr, sizeof(addr)), 0);
	assert_int_equal(listen(f->listen_fd, 4), 0);
	f->fd = -1;
	atomic_store(&f->quit, false);
	assert_int_equal(pthread_create(&f->thread, NULL, fake_main, f), 0);
}

static void fake_stop(struct fake_dut *f)
{
	atomic_store(&f->quit, true);
	pthread_join(f->thread, NULL);
	close(f->listen_fd);
}

static unsigned fake_count(const struct fake_dut *f, const char *prefix)
{
	unsigned n = 0;

	for (size_t i = 0; i < f->n_commands; i++)
		n += f->commands[i] && strncmp(f->commands[i], prefix, strlen(prefix)) == 0;
	return n;
}

/* ---- a run: temp directory, board, plan, database, fake ---- */

struct run {
	char dir[64];
	char db_path[128];
	struct board *board;
	struct plan *plan;
	struct results_db *db;
	struct known_issues *known;
	struct fake_dut fake;
	volatile sig_atomic_t stop;
	struct engine_options opts;
	struct engine_totals totals;
	struct rig_err err;
	sqlite3 *sql;           /* the database read back after the run */
	bool fake_stopped;
};

static void run_setup_board(struct run *r, const char *board_file, const char *plan_file)
{
	struct board_paths paths;
	char *board_path = top_path(board_file), *plan_path = top_path(plan_file);
	char sock[128];

	memset(r, 0, sizeof(*r));
	snprintf(r->dir, sizeof(r->dir), "/tmp/rig-test-engine.XXXXXX");
	assert_non_null(mkdtemp(r->dir));
	paths = (struct board_paths){ .run = r->dir, .out = r->dir, .top = "." };
	if (board_load(board_path, &paths, &r->board, &r->err) < 0)
		fail_msg("%s", r->err.msg);
	if (plan_load(plan_path, &r->plan, &r->err) < 0)
		fail_msg("%s", r->err.msg);
	free(board_path);
	free(plan_path);
	snprintf(r->db_path, sizeof(r->db_path), "%s/results.db", r->dir);
	if (results_open(r->db_path, RESULTS_OPEN_CREATE, &r->db, &r->err) < 0)
		fail_msg("%s", r->err.msg);
	snprintf(sock, sizeof(sock), "%s/console.sock", r->dir);
	fake_start(&r->fake, sock);
	r->fake.stop = &r->stop;
	r->opts = (struct engine_options){ .run_dir = r->dir, .stop = &r->stop };
	if (getenv("RIG_TEST_VERBOSE"))
		r->opts.progress = stderr;   /* the engine's phase messages, for debugging */
}

static void run_setup(struct run *r, const char *plan_file)
{
	run_setup_board(r, DATA "board.yaml", plan_file);
}

static int setup_plan(void **state, const char *plan_file)
{
	struct run *r = calloc(1, sizeof(*r));

	assert_non_null(r);
	run_setup(r, plan_file);
	*state = r;
	return 0;
}

static int setup_suspend(void **state)
{
	return setup_plan(state, DATA "suspend.yaml");
}

static int setup_systemctl(void **state)
{
	return setup_plan(state, DATA "suspend-systemctl.yaml");
}

static int setup_power_cut_s2idle(void **state)
{
	return setup_plan(state, DATA "power-cut-s2idle.yaml");
}

static int setup_hang(void **state)
{
	return setup_plan(state, DATA "hang.yaml");
}

static void load_known(struct run *r)
{
	char *path = top_path(DATA "known.yaml");

	if (known_load(path, &r->known, &r->err) < 0)
		fail_msg("%s", r->err.msg);
	free(path);
	r->opts.known = r->known;
}

/* Run the engine, stop the fake, open the database for reading. */
static int run_engine(struct run *r)
{
	int code = engine_run(r->board, r->plan, r->db, &r->opts, &r->totals, &r->err);

	fake_stop(&r->fake);
	r->fake_stopped = true;
	results_close(r->db);
	r->db = NULL;
	assert_int_equal(sqlite3_open_v2(r->db_path, &r->sql, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	return code;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int teardown(void **state)
{
	struct run *r = *state;

	if (!r->fake_stopped)
		fake_stop(&r->fake);
	sqlite3_close(r->sql);
	results_close(r->db);
	known_free(r->known);
	plan_free(r->plan);
	board_free(r->board);
	for (size_t i = 0; i < r->fake.n_commands; i++)
		free(r->fake.commands[i]);
	assert_int_equal(nftw(r->dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS), 0);
	free(r);
	return 0;
}

/* One integer from a query with %Q/%d arguments (sqlite3_mprintf); -1 when no row. */
static long long sql_int(struct run *r, const char *fmt, ...)
{
	va_list ap;
	char *sql;
	sqlite3_stmt *st;
	long long v = -1;

	va_start(ap, fmt);
	sql = sqlite3_vmprintf(fmt, ap);
	va_end(ap);
	assert_non_null(sql);
	if (sqlite3_prepare_v2(r->sql, sql, -1, &st, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(r->sql));
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_free(sql);
	return v;
}

/* One text column into buf ("" when no row or NULL). */
static const char *sql_text(struct run *r, char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	char *sql;
	sqlite3_stmt *st;

	va_start(ap, fmt);
	sql = sqlite3_vmprintf(fmt, ap);
	va_end(ap);
	assert_non_null(sql);
	if (sqlite3_prepare_v2(r->sql, sql, -1, &st, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(r->sql));
	buf[0] = '\0';
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		snprintf(buf, size, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	sqlite3_free(sql);
	return buf;
}

static long long cycles_with(struct run *r, const char *status)
{
	return sql_int(r, "SELECT COUNT(*) FROM cycles WHERE run_id = %lld AND status = %Q",
		       (long long)r->totals.run_id, status);
}

static const char *cycle_status(struct run *r, int idx, char *buf, size_t size)
{
	return sql_text(r, buf, size, "SELECT status FROM cycles WHERE run_id = %lld AND idx = %d",
			(long long)r->totals.run_id, idx);
}

static const char *run_status(struct run *r, char *buf, size_t size)
{
	return sql_text(r, buf, size, "SELECT status FROM runs WHERE id = %lld",
			(long long)r->totals.run_id);
}

/* Verdicts of one cycle with that name and result. */
static long long verdicts(struct run *r, int idx, const char *name, const char *result)
{
	return sql_int(r,
		       "SELECT COUNT(*) FROM verdicts v JOIN cycles c ON v.cycle_id = c.id "
		       "WHERE c.run_id = %lld AND c.idx = %d AND v.name = %Q AND v.result = %Q",
		       (long long)r->totals.run_id, idx, name, result);
}

static long long events_of(struct run *r, int idx, const char *kind)
{
	return sql_int(r,
		       "SELECT COUNT(*) FROM events e JOIN cycles c ON e.cycle_id = c.id "
		       "WHERE c.run_id = %lld AND c.idx = %d AND e.kind = %Q",
		       (long long)r->totals.run_id, idx, kind);
}

/* ---- scenarios ---- */

static void assert_clean_cycle(struct run *r, int idx)
{
	char buf[64];

	assert_string_equal(cycle_status(r, idx, buf, sizeof(buf)), "pass");
	assert_int_equal(verdicts(r, idx, "suspend", "pass"), 1);
	assert_int_equal(verdicts(r, idx, "clean-resume", "pass"), 1);
	assert_int_equal(verdicts(r, idx, "stall", "pass"), 1);
	assert_int_equal(events_of(r, idx, "acpi-sleep"), 1);
	assert_int_equal(events_of(r, idx, "suspend-exit"), 1);
}

static void test_two_clean_suspends(void **state)
{
	struct run *r = *state;
	char buf[64];

	assert_int_equal(run_engine(r), RIG_EXIT_PASS);

	assert_int_equal(r->fake.connections, 1);
	assert_int_equal(r->fake.suspends, 2);
	assert_int_equal(fake_count(&r->fake, "rig-dut suspend deep rtc 1"), 2);
	assert_int_equal(fake_count(&r->fake, "rig-dut knob freeze_filesystems 1"), 1);
	assert_int_equal(fake_count(&r->fake, "rig-dut start-workloads journal"), 1);
	/* The board reports its writers' operations around the freeze; the judge holds them
	 * against the traced superblock's own window. */
	assert_int_equal(fake_count(&r->fake, "rig-dut collect trace alive stall"), 2);
	assert_int_equal(sql_int(r, "SELECT CAST(value AS INTEGER) FROM measurements m JOIN cycles c "
				     "ON m.cycle_id = c.id WHERE c.idx = 0 AND m.name = 'stall_ms'"),
			 (long long)((THAW_SUPER_NS + 1000000 - FREEZE_SUPER_NS - 500000) / 1000000));

	assert_int_equal(r->totals.cycles, 2);
	assert_int_equal(r->totals.cycles_done, 2);
	assert_int_equal(r->totals.fail + r->totals.hangs + r->totals.infra, 0);
	assert_string_equal(run_status(r, buf, sizeof(buf)), "pass");
	assert_int_equal(sql_int(r, "SELECT COUNT(*) FROM cycles WHERE run_id = %lld",
				 (long long)r->totals.run_id), 2);
	assert_int_equal(cycles_with(r, "pass"), 2);
	assert_clean_cycle(r, 0);
	assert_clean_cycle(r, 1);
	assert_string_equal(sql_text(r, buf, sizeof(buf), "SELECT kernel_version FROM runs WHERE id = %lld",
				     (long long)r->totals.run_id), "7.3.4-rig");
	/* The frozen window from the trace became measurements. */
	assert_int_equal(sql_int(r, "SELECT CAST(value AS INTEGER) FROM measurements m JOIN cycles c "
				     "ON m.cycle_id = c.id WHERE c.idx = 0 AND m.name = 'frozen_ms'"),
			 (long long)((THAW_DONE_NS - FREEZE_NS) / 1000000));
	/* Each cycle's time budget: every phase stored, known where the evidence shows it. The
	 * fake sleeps FAKE_SLEEP_MS between its S3 lines, 1 ms apart in printk time; its result
	 * line has no presync_ms, and the run's first boot is not cycle 0's reboot. */
	assert_int_equal(sql_int(r, "SELECT COUNT(*) FROM cycle_phases p JOIN cycles c ON "
				     "p.cycle_id = c.id WHERE c.run_id = %lld",
				 (long long)r->totals.run_id), 2 * BUDGET_N);
	assert_true(sql_int(r, "SELECT CAST(seconds * 1000 AS INTEGER) FROM cycle_phases p JOIN "
			       "cycles c ON p.cycle_id = c.id WHERE c.idx = 0 AND phase = 'asleep'")
		    >= FAKE_SLEEP_MS - 2);
	assert_int_equal(sql_int(r, "SELECT COUNT(*) FROM cycle_phases p JOIN cycles c ON "
				     "p.cycle_id = c.id WHERE c.idx = 0 AND seconds IS NOT NULL AND "
				     "phase IN ('collect', 'freeze_fs', 'device_suspend', 'resume')"), 4);
	assert_int_equal(sql_int(r, "SELECT COUNT(*) FROM cycle_phases p JOIN cycles c ON "
				     "p.cycle_id = c.id WHERE c.idx = 0 AND seconds IS NULL AND "
				     "phase IN ('presync', 'reboot')"), 2);
	/* The host's CPU accounting (engine/starvation.h): this board's power is shell commands,
	 * real hardware as far as the rig knows, so every cycle records "not applicable". */
	assert_int_equal(sql_int(r, "SELECT COUNT(*) FROM cycle_host_cpu h JOIN cycles c ON "
				     "h.cycle_id = c.id WHERE c.run_id = %lld AND h.applicable = 0 AND "
				     "h.qemu_wait_s IS NULL AND h.starved = 0 AND h.reclassified = 0",
				 (long long)r->totals.run_id), 2);
	/* The wake accounting came back in the suspend's own reply: no command more. */
	assert_int_equal(verdicts(r, 0, "wake-time", "pass"), 1);
	assert_int_equal(verdicts(r, 1, "wake-time", "pass"), 1);
	assert_string_equal(sql_text(r, buf, sizeof(buf), "SELECT wake || ':' || requested_ms || ':' "
				     "|| asleep_ms || ':' || awake_ms || ':' || irq || ':' || irq_name "
				     "|| ':' || sources || ':' || rescued FROM cycle_wakes w JOIN cycles c "
				     "ON w.cycle_id = c.id WHERE c.idx = 0"),
			    "rtc:1000:900:150:8:rtc0:rtc0:1:1:0");
	/* its reply has no presync_ms: when the alarm was armed is unknown, so is the entry
	 * (NULL, never 0), and the verdict judges the bounds */
	assert_int_equal(sql_int(r, "SELECT COUNT(*) FROM cycle_wakes WHERE entry_ms IS NULL"), 2);
}

/* rig-dut said how long it synced before arming the alarm and the host saw the board asleep:
 * the entry is known (host time from the request to the S3 event, less the sync), and the sleep
 * is judged against what the alarm left it. */
static void test_wake_time_with_the_entry_seen(void **state)
{
	struct run *r = *state;
	char buf[512];

	r->fake.presync = true;
	r->opts.cycles = 1;
	assert_int_equal(run_engine(r), RIG_EXIT_PASS);
	assert_int_equal(verdicts(r, 0, "wake-time", "pass"), 1);
	assert_true(sql_int(r, "SELECT entry_ms FROM cycle_wakes WHERE entry_ms IS NOT NULL") >= 0);
	assert_int_equal(sql_int(r, "SELECT COUNT(*) FROM cycle_wakes WHERE entry_ms IS NOT NULL"), 1);
	sql_text(r, buf, sizeof(buf), "SELECT detail FROM verdicts WHERE name = 'wake-time'");
	assert_non_null(strstr(buf, "asleep 900 ms of the "));
	assert_non_null(strstr(buf, "(alarm 1000 ms after arming, asleep "));
}

/* A board woken long before its alarm: wake-time fails the cycle, with the numbers and the
 * source it named. */
static void test_premature_wake_fails_wake_time(void **state)
{
	struct run *r = *state;
	char buf[512];

	r->fake.premature_wake = true;
	r->opts.cycles = 1;
	r->board->wake_timing.early_ms = 100;   /* the plan's alarm is 1 s: the default allows 2.5 */
	assert_int_equal(run_engine(r), RIG_EXIT_FAIL);
	assert_int_equal(verdicts(r, 0, "suspend", "pass"), 1);
	assert_int_equal(verdicts(r, 0, "wake-time", "fail"), 1);
	assert_string_equal(cycle_status(r, 0, buf, sizeof(buf)), "fail");
	sql_text(r, buf, sizeof(buf), "SELECT detail FROM verdicts WHERE name = 'wake-time'");
	assert_non_null(strstr(buf, "premature wake: back 30 ms after arming, 970 ms before its alarm"));
	assert_non_null(strstr(buf, "irq 9 (acpi), wakeup sources PNP0C0C_00:1:1"));
	assert_int_equal(sql_int(r, "SELECT asleep_ms FROM cycle_wakes"), 10);
}

/* The kernel's identity: meta.json of the deployed build against what the board reports. */
#define BUILD_A "1111111111111111111111111111111111111111"
static void write_meta(struct run *r, const char *build_id, char *path, size_t size)
{
	FILE *fp;

	snprintf(path, size, "%s/meta.json", r->dir);
	assert_non_null(fp = fopen(path, "w"));
	fprintf(fp, "{\"id\": \"aaaa\", \"version\": \"7.3.4-rig\", \"build_id\": \"%s\"}\n",
		build_id);
	assert_int_equal(fclose(fp), 0);
	r->opts.kernel_meta_path = path;
}

static void test_identity_checked_and_recorded(void **state)
{
	struct run *r = *state;
	char meta[256], buf[64];

	write_meta(r, BUILD_A, meta, sizeof(meta));
	r->fake.build_id = BUILD_A;
	r->opts.cycles = 1;
	assert_int_equal(run_engine(r), RIG_EXIT_PASS);
	assert_string_equal(sql_text(r, buf, sizeof(buf), "SELECT kernel_build_id FROM runs WHERE "
				     "id = %lld", (long long)r->totals.run_id), BUILD_A);
	assert_string_equal(sql_text(r, buf, sizeof(buf), "SELECT deploy FROM runs WHERE id = %lld",
				     (long long)r->totals.run_id), "none");
	assert_string_equal(sql_text(r, buf, sizeof(buf), "SELECT kernel_build_id FROM cycles WHERE "
				     "run_id = %lld AND idx = 0", (long long)r->totals.run_id),
			    BUILD_A);
}

/* The run's first boot discards a hibernation image the run did not write: where rig sets the
 * command line (here a command deploy) that boot gets noresume, and the later boots do not; a
 * board whose command line rig does not set (deploy none, the other tests) gets nothing. */
static void test_first_boot_discards_a_stale_image(void **state)
{
	struct run *r = *state;
	char path[300], line[512];
	unsigned boots = 0;
	FILE *log;

	free(r->board->deploy.backend);
	free(r->board->boot.kernel);
	free(r->board->boot.cmdline);
	r->board->deploy.backend = strdup("command");
	r->board->deploy.command = calloc(1, sizeof(*r->board->deploy.command));
	assert_non_null(r->board->deploy.command);
	r->board->deploy.command->run = strdup("true");
	r->board->deploy.command->timeout_s = 5;
	snprintf(path, sizeof(path), "%s/results.db", r->dir);
	r->board->boot.kernel = strdup(path);
	r->board->boot.cmdline = strdup("console=ttyS0");
	r->opts.cycles = 1;
	assert_int_equal(run_engine(r), RIG_EXIT_PASS);
	snprintf(path, sizeof(path), "%s/deploy.log", r->dir);
	assert_non_null(log = fopen(path, "r"));
	while (fgets(line, sizeof(line), log))
		if (strstr(line, "deploy command (boot ")) {
			boots++;
			if (boots == 1)
				assert_non_null(strstr(line, "'console=ttyS0 noresume'"));
			else
				assert_null(strstr(line, "noresume"));
		}
	fclose(log);
	assert_true(boots >= 1);
}

/* A run that failed before its first cycle is stored from the first moment as an infra run with
 * no cycles (it used to be stored not at all: "results: ... (run 0)", absent from the
 * dashboard). */
static void assert_early_infra_run(struct run *r)
{
	assert_true(r->totals.run_id > 0);
	assert_int_equal(sql_int(r, "SELECT COUNT(*) FROM runs"), 1);
	assert_int_equal(sql_int(r, "SELECT COUNT(*) FROM runs WHERE id = %lld AND status = 'infra'"
				    " AND exit_code = 3 AND ended_at IS NOT NULL",
				 (long long)r->totals.run_id), 1);
	assert_int_equal(sql_int(r, "SELECT COUNT(*) FROM cycles"), 0);
}

/* The board's console is not there (a missing device, a dead console server): an infra run. */
static void test_missing_console_is_an_infra_run(void **state)
{
	struct run *r = *state;
	char sock[128];

	snprintf(sock, sizeof(sock), "%s/console.sock", r->dir);
	assert_int_equal(unlink(sock), 0);
	assert_int_equal(run_engine(r), RIG_EXIT_INFRA);
	assert_int_equal(r->fake.connections, 0);
	assert_early_infra_run(r);
}

/* Negative control: the board booted another build of the same release (a stale TFTP root):
 * infrastructure, naming both, and no cycle is judged on it. */
static void test_wrong_kernel_is_infra_before_any_cycle(void **state)
{
	struct run *r = *state;
	char meta[256];

	write_meta(r, BUILD_A, meta, sizeof(meta));
	r->fake.build_id = "2222222222222222222222222222222222222222";
	assert_int_equal(run_engine(r), RIG_EXIT_INFRA);
	assert_non_null(strstr(r->err.msg, "wrong kernel: the board runs kernel 7.3.4-rig build-id "
			       "2222222222222222222222222222222222222222, not the deployed 7.3.4-rig "
			       "build-id " BUILD_A));
	assert_int_equal(fake_count(&r->fake, "rig-dut suspend deep rtc 1"), 0);
	assert_early_infra_run(r);
}

/* A meta.json without the identity (a kernel built before build.sh recorded it) is refused
 * before the board is even booted. */
static void test_meta_without_build_id_is_refused(void **state)
{
	struct run *r = *state;
	char meta[256];

	write_meta(r, "", meta, sizeof(meta));
	assert_int_equal(run_engine(r), RIG_EXIT_INFRA);
	assert_non_null(strstr(r->err.msg, "no valid \"build_id\""));
	assert_int_equal(r->fake.connections, 0);
	assert_early_infra_run(r);
}

/* Negative control of stall: a store that completes half a second into the frozen window. */
static void test_write_while_frozen_fails_stall(void **state)
{
	struct run *r = *state;

	r->fake.write_while_frozen = true;
	r->opts.cycles = 1;
	assert_int_equal(run_engine(r), RIG_EXIT_FAIL);
	assert_int_equal(verdicts(r, 0, "stall", "fail"), 1);
	assert_int_equal(verdicts(r, 0, "suspend", "pass"), 1);
}

/* A sleep through systemctl: rig-dut is asked for it, and systemd's report becomes the
 * systemd-sleep verdict and the systemd-sleep timing measurements. */
static void test_systemctl_suspend_is_judged_by_systemd(void **state)
{
	struct run *r = *state;

	assert_int_equal(run_engine(r), RIG_EXIT_PASS);
	assert_int_equal(fake_count(&r->fake, "rig-dut suspend deep rtc 1 suspend"), 1);
	assert_int_equal(verdicts(r, 0, "suspend", "pass"), 1);
	assert_int_equal(verdicts(r, 0, "systemd-sleep", "pass"), 1);
	assert_int_equal(sql_int(r, "SELECT CAST(value AS INTEGER) FROM measurements m JOIN cycles c "
				     "ON m.cycle_id = c.id WHERE c.idx = 0 AND m.name = 'systemd_sleep_pre_ms'"),
			 300);
}

static void test_systemd_reported_failure_fails(void **state)
{
	struct run *r = *state;

	r->fake.systemd_fails = true;
	assert_int_equal(run_engine(r), RIG_EXIT_FAIL);
	assert_int_equal(verdicts(r, 0, "systemd-sleep", "fail"), 1);
	assert_int_equal(sql_int(r, "SELECT COUNT(*) FROM verdicts WHERE name = 'systemd-sleep' AND "
				     "detail LIKE '%%Result=exit-code%%Input/output error%%'"), 1);
}

static void test_warning_fails_clean_resume(void **state)
{
	struct run *r = *state;
	char buf[64];

	r->fake.warn_on_resume = true;
	r->opts.cycles = 1;
	assert_int_equal(run_engine(r), RIG_EXIT_FAIL);
	assert_int_equal(verdicts(r, 0, "clean-resume", "fail"), 1);
	assert_int_equal(verdicts(r, 0, "suspend", "pass"), 1);
	assert_string_equal(cycle_status(r, 0, buf, sizeof(buf)), "fail");
	assert_string_equal(run_status(r, buf, sizeof(buf)), "fail");
	assert_non_null(strstr(sql_text(r, buf, sizeof(buf),
					"SELECT detail FROM verdicts WHERE name = 'clean-resume'"),
			       "kernel/foo.c:12"));
	assert_int_equal(events_of(r, 0, "warning"), 1);
	assert_int_equal(r->totals.fail, 1);
}

/* rig_fault=unfreezable-pagefault on the board: the suspend fails in the task freezer. */
static void test_tasks_refusing_to_freeze_fail_suspend_and_clean_resume(void **state)
{
	struct run *r = *state;
	char buf[256];

	r->fake.refuse_freeze = true;
	r->opts.cycles = 1;
	assert_int_equal(run_engine(r), RIG_EXIT_FAIL);
	assert_int_equal(verdicts(r, 0, "suspend", "fail"), 1);
	/* the verdict quotes rig-dut's report, not the shell's complaint printed before it */
	assert_non_null(strstr(sql_text(r, buf, sizeof(buf),
					"SELECT detail FROM verdicts WHERE name = 'suspend'"),
			       "last_failed_step=freeze"));
	assert_int_equal(verdicts(r, 0, "clean-resume", "fail"), 1);
	assert_non_null(strstr(sql_text(r, buf, sizeof(buf),
					"SELECT detail FROM verdicts WHERE name = 'clean-resume'"),
			       "task:journal-writer"));
	assert_int_equal(events_of(r, 0, "freeze-failed"), 1);
	assert_int_equal(events_of(r, 0, "freeze-stuck-task"), 1);
}

static void test_known_warning_passes(void **state)
{
	struct run *r = *state;
	char buf[64];

	load_known(r);
	r->fake.warn_on_resume = true;
	r->opts.cycles = 1;
	assert_int_equal(run_engine(r), RIG_EXIT_PASS);
	/* The raw result stays fail; the known issue's id explains it. */
	assert_int_equal(verdicts(r, 0, "clean-resume", "fail"), 1);
	assert_string_equal(sql_text(r, buf, sizeof(buf),
				     "SELECT known_issue FROM verdicts WHERE name = 'clean-resume'"),
			    "fake-foo-warning");
	assert_string_equal(cycle_status(r, 0, buf, sizeof(buf)), "pass");
	assert_string_equal(run_status(r, buf, sizeof(buf)), "known");
	assert_int_equal(r->totals.known, 1);
	assert_int_equal(r->totals.fail, 0);
}

static void test_known_warning_fails_when_strict(void **state)
{
	struct run *r = *state;
	char buf[64];

	load_known(r);
	r->fake.warn_on_resume = true;
	r->opts.cycles = 1;
	r->opts.strict = true;
	assert_int_equal(run_engine(r), RIG_EXIT_FAIL);
	assert_string_equal(sql_text(r, buf, sizeof(buf),
				     "SELECT known_issue FROM verdicts WHERE name = 'clean-resume'"),
			    "fake-foo-warning");
	assert_string_equal(run_status(r, buf, sizeof(buf)), "fail");
}

static void test_hung_resume_reboots_and_goes_on(void **state)
{
	struct run *r = *state;
	char buf[4096];

	r->fake.hang_suspend = 1;
	assert_int_equal(run_engine(r), RIG_EXIT_FAIL);

	/* Power-cycled: the console was reopened and the board booted again for cycle 1. */
	assert_int_equal(r->fake.connections, 2);
	assert_int_equal(fake_count(&r->fake, "rig-dut start-workloads journal"), 2);
	assert_int_equal(r->fake.suspends, 2);
	assert_int_equal(r->totals.hangs, 1);
	assert_string_equal(cycle_status(r, 0, buf, sizeof(buf)), "hang");
	assert_string_equal(sql_text(r, buf, sizeof(buf),
				     "SELECT hang_phase FROM cycles WHERE run_id = %lld AND idx = 0",
				     (long long)r->totals.run_id),
			    "resume");
	/* A real board's hang stays a hang: the host's CPU accounting does not apply to it, and
	 * its window closed when the hang was declared. */
	assert_string_equal(sql_text(r, buf, sizeof(buf),
				     "SELECT window_end || ' ' || applicable || ' ' || reclassified FROM "
				     "cycle_host_cpu h JOIN cycles c ON h.cycle_id = c.id WHERE "
				     "c.run_id = %lld AND c.idx = 0", (long long)r->totals.run_id),
			    "hang 0 0");
	/* The console tail ends with what the board said last. */
	assert_non_null(strstr(sql_text(r, buf, sizeof(buf),
					 "SELECT console_tail FROM cycles WHERE run_id = %lld AND idx = 0",
					 (long long)r->totals.run_id),
			       "Preparing to enter system sleep state S3"));
	/* The hung cycle keeps what the kernel said before it hung; the next cycle starts clean. */
	assert_int_equal(events_of(r, 0, "acpi-sleep"), 1);
	assert_clean_cycle(r, 1);
	assert_string_equal(run_status(r, buf, sizeof(buf)), "fail");
}

/* Boot health: a first boot that lost its NVMe interrupt line runs no cycle at all; the
 * engine says why with the kernel's lines. */
static void test_unhealthy_first_boot_is_infra(void **state)
{
	struct run *r = *state;

	r->fake.unhealthy_boot = 1;
	assert_int_equal(run_engine(r), RIG_EXIT_INFRA);
	assert_non_null(strstr(r->err.msg, "boot unhealthy (2 console lines): irq 10: nobody cared"));
	assert_non_null(strstr(r->err.msg, "| Disabling IRQ #10"));
	assert_int_equal(r->fake.suspends, 0);
	assert_int_equal(fake_count(&r->fake, "rig-dut start-workloads journal"), 0);
	assert_early_infra_run(r);
	/* the console was open: the run names its log, the evidence of the failed boot */
	assert_int_equal(sql_int(r, "SELECT COUNT(*) FROM runs WHERE console_log IS NOT NULL"), 1);
}

/* The reboot after a hang comes up unhealthy: that cycle is infra (never a kernel verdict) and
 * keeps the kernel's lines as its events; the hang before it stays a hang. */
static void test_unhealthy_reboot_is_an_infra_cycle(void **state)
{
	struct run *r = *state;
	char buf[64];

	r->fake.hang_suspend = 1;
	r->fake.unhealthy_boot = 2;
	assert_int_equal(run_engine(r), RIG_EXIT_FAIL);
	assert_int_equal(r->fake.connections, 2);
	assert_int_equal(r->fake.suspends, 1);
	assert_int_equal(r->totals.hangs, 1);
	assert_int_equal(r->totals.infra, 1);
	assert_string_equal(cycle_status(r, 0, buf, sizeof(buf)), "hang");
	assert_string_equal(cycle_status(r, 1, buf, sizeof(buf)), "infra");
	assert_int_equal(events_of(r, 1, "irq-nobody-cared"), 1);
	assert_int_equal(events_of(r, 1, "irq-disabled"), 1);
	assert_int_equal(sql_int(r, "SELECT COUNT(*) FROM verdicts v JOIN cycles c ON v.cycle_id = c.id "
				    "WHERE c.idx = 1"), 0);
}

/* Its positive control: the same hang, a healthy reboot, a clean cycle 1 (see
 * test_hung_resume_reboots_and_goes_on). */

/* A power cut in s2idle: the board is seen asleep by its "PM: suspend-to-idle" line (there is
 * no S-state and no QEMU SUSPEND event), the power is cut and the board booted again; waiting
 * for an S3 line instead was a hang in phase suspend (issue 13, 3 of 3). */
static void test_power_cut_in_s2idle(void **state)
{
	struct run *r = *state;
	char buf[64];

	run_engine(r);
	assert_int_equal(r->fake.suspends, 1);
	assert_int_equal(r->fake.connections, 2);
	assert_int_equal(fake_count(&r->fake, "rig-dut suspend s2idle external 0"), 1);
	assert_int_equal(r->totals.hangs, 0);
	assert_string_not_equal(cycle_status(r, 0, buf, sizeof(buf)), "hang");
	assert_int_equal(events_of(r, 0, "suspend-entry"), 1);
}

static void test_stop_aborts_cycle_in_flight(void **state)
{
	struct run *r = *state;
	char buf[64];

	r->fake.stop_suspend = 2;     /* set from the fake's thread while cycle 1 sleeps */
	assert_int_not_equal(run_engine(r), RIG_EXIT_PASS);
	assert_int_equal(r->stop, 1);
	assert_string_equal(cycle_status(r, 0, buf, sizeof(buf)), "pass");
	assert_string_equal(cycle_status(r, 1, buf, sizeof(buf)), "aborted");
	assert_string_equal(run_status(r, buf, sizeof(buf)), "aborted");
}

static void test_stop_between_cycles_ends_run_aborted(void **state)
{
	struct run *r = *state;
	char buf[64];

	/* Ctrl-C while cycle 0 collects its verdicts: the cycle completes, no cycle follows, and
	 * the run must not stay "running" for ever. */
	r->fake.stop_on_command = "rig-dut collect trace alive stall";
	assert_int_not_equal(run_engine(r), RIG_EXIT_PASS);
	assert_int_equal(r->fake.suspends, 1);
	assert_int_equal(sql_int(r, "SELECT COUNT(*) FROM cycles WHERE run_id = %lld",
				 (long long)r->totals.run_id), 1);
	assert_string_equal(cycle_status(r, 0, buf, sizeof(buf)), "pass");
	assert_string_equal(run_status(r, buf, sizeof(buf)), "aborted");
}

static void test_console_lost_is_infra_then_reboot(void **state)
{
	struct run *r = *state;
	char buf[64];

	/* The console dies while cycle 0 collects: an infrastructure failure of that cycle only;
	 * the board is booted again and cycle 1 runs. */
	r->fake.die_on_command = "rig-dut collect trace alive stall";
	assert_int_equal(run_engine(r), RIG_EXIT_INFRA);
	assert_int_equal(r->fake.connections, 2);
	assert_int_equal(r->totals.infra, 1);
	assert_string_equal(cycle_status(r, 0, buf, sizeof(buf)), "infra");
	assert_clean_cycle(r, 1);
	assert_string_equal(run_status(r, buf, sizeof(buf)), "infra");
}

/* A board that comes back from each infrastructure error is usable: two failing cycles, a good
 * one, two failing again, a good one: all six run. Three in a row end the run (the control). */
static void test_infra_ends_the_run_only_three_in_a_row(void **state)
{
	struct run *r = *state;
	char buf[64];

	r->fake.die_on_command = "rig-dut collect trace alive stall";
	r->fake.die_pattern = "xx.xx.";
	r->opts.cycles = 6;
	assert_int_equal(run_engine(r), RIG_EXIT_INFRA);
	assert_int_equal(r->totals.infra, 4);
	assert_int_equal(r->totals.cycles_done, 6);
	assert_string_equal(cycle_status(r, 2, buf, sizeof(buf)), "pass");
	assert_string_equal(cycle_status(r, 5, buf, sizeof(buf)), "pass");
}

static void test_three_infra_in_a_row_end_the_run(void **state)
{
	struct run *r = *state;

	r->fake.die_on_command = "rig-dut collect trace alive stall";
	r->fake.die_pattern = "x.xxxxxx";
	r->opts.cycles = 8;
	assert_int_equal(run_engine(r), RIG_EXIT_INFRA);
	assert_int_equal(r->totals.infra, 4);
	assert_int_equal(r->totals.cycles_done, 5);
	assert_int_equal(sql_int(r, "SELECT COUNT(*) FROM cycles WHERE run_id = %lld",
				 (long long)r->totals.run_id), 5);
}

/* ---- one run's evidence, judged both ways ---------------------------------------------- */

/* A board with two filesystems whose kernel froze only one (the skip-xfs-freeze fault kernel's
 * pattern), the lab's known lockdep warning on resume, the journal writers blocked across the
 * freeze: what rig-dut and the kernel said, command by command, in the order the LAVA test
 * definitions record it. */
#define SETUP "0_rig-setup-000"
#define CYCLE0 "1_cycle-000-suspend"
static const struct evidence recorded_run[] = {
	{ SETUP, "rig-dut knob freeze_filesystems 1", NULL, "knob=freeze_filesystems value=1\n", 0, true },
	{ SETUP, "rig-dut trace-setup", NULL, "trace=on clock=boot events=7\n", 0, true },
	{ SETUP, "rig-dut start-workloads journal", NULL, "workloads=2\n", 0, true },
	{ SETUP, "rig-dut info", NULL,
	  "kernel=7.3.4-rig freeze_filesystems=1 sync_on_suspend=1 states=freeze,mem,disk "
	  "mem_sleep=s2idle,[deep] disk=[shutdown] boot_id=7e57\n", 0, true },
	{ CYCLE0, "rig-dut suspend deep rtc 1",
	  "PM: suspend entry (deep)\nFilesystems sync: 0.011 seconds\n"
	  "Freezing user space processes\n"
	  "Freezing user space processes completed (elapsed 0.002 seconds)\n"
	  "ACPI: PM: Preparing to enter system sleep state S3\n"
	  "ACPI: PM: Waking up from system sleep state S3\n"
	  "WARNING: kernel/freezer.c:139 at __set_task_frozen+0x8b/0x90, CPU#1: journal-writer/231\n"
	  "Restarting tasks: Done\nPM: suspend exit",
	  "result=0 successes=1 slept_s=1 presync_ms=14 last_failed_step=\n", 0, false },
	{ CYCLE0, "rig-dut trace-read", NULL,
	  "fs_freeze 10000000000 \nfreeze_super 10001000000 nvme0n1p1\n"
	  "freeze_super_ret 10002000000 \nfs_freeze_done 10003000000 \nfs_thaw 12000000000 \n"
	  "thaw_super 12001000000 nvme0n1p1\nfs_thaw_done 12002000000 \n", 0, false },
	{ CYCLE0, "rig-dut alive", NULL, "writer=nvme-ext4-m1f3 alive=1\nwriter=sata-xfs-m9a0 alive=1\n", 0, false },
	{ CYCLE0, "rig-dut stall-ops", NULL,
	  "window from_ns=10000000000 to_ns=12002000000\n"
	  "writer=nvme-ext4-m1f3 tel ops=812 errors=0 longest_ns=1999500000 inflight_start_ns=0 retained=40\n"
	  "writer=nvme-ext4-m1f3 op start_ns=10001500000 end_ns=12001100000 err=0 kind=store seq=812\n"
	  "writer=sata-xfs-m9a0 tel ops=1609 errors=0 longest_ns=4000000 inflight_start_ns=0 retained=33\n"
	  "writer=sata-xfs-m9a0 op start_ns=10600000000 end_ns=10604000000 err=0 kind=store seq=1013\n",
	  0, false },
};
#define N_RECORDED (sizeof(recorded_run) / sizeof(recorded_run[0]))

static void log_line(FILE *f, double t, const char *lvl, json_t *msg)
{
	json_t *line = json_pack("{s:s, s:s, s:o}", "dt", "", "lvl", lvl, "msg", msg);
	char dt[40], *text;
	time_t secs = (time_t)t;
	struct tm tm;

	gmtime_r(&secs, &tm);
	strftime(dt, sizeof(dt), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(dt + strlen(dt), sizeof(dt) - strlen(dt), ".%06d", (int)((t - (double)secs) * 1e6));
	json_object_set_new(line, "dt", json_string(dt));
	assert_non_null(text = json_dumps(line, JSON_COMPACT));
	fprintf(f, "%s\n", text);
	free(text);
	json_decref(line);
}

static void target(FILE *f, double *t, const char *text)
{
	*t += 0.01;
	log_line(f, *t, "target", json_string(text));
}

/* The reply as rig-agent --record prints it: request, begin, lines, end with the checksum. */
static void record(FILE *f, double *t, unsigned seq, const struct evidence *e)
{
	char b64[512], line[1024];
	size_t n_lines = 0;
	unsigned ktime_ms = 20000 + seq * 100;

	base64_encode(e->cmd, strlen(e->cmd), b64);
	snprintf(line, sizeof(line), "@@RIG? %u %s", seq, b64);
	target(f, t, line);
	for (const char *p = e->kernel; p && *p; ktime_ms++) {
		size_t len = strcspn(p, "\n");

		snprintf(line, sizeof(line), "[%5u.%03u000] %.*s", ktime_ms / 1000, ktime_ms % 1000,
			 (int)len, p);
		target(f, t, line);
		p += len + (p[len] == '\n');
	}
	snprintf(line, sizeof(line), "@@RIG@@ %u begin", seq);
	target(f, t, line);
	for (const char *p = e->reply; *p; n_lines++) {
		size_t len = strcspn(p, "\n");

		snprintf(line, sizeof(line), "@@RIG@@ %u | %.*s", seq, (int)len, p);
		target(f, t, line);
		p += len + (p[len] == '\n');
	}
	snprintf(line, sizeof(line), "@@RIG@@ %u end rc=%d lines=%zu crc=%" PRIu32, seq, e->rc, n_lines,
		 posix_cksum(e->reply, strlen(e->reply)));
	target(f, t, line);
}

/* The dispatcher log of a LAVA job that ran the same board through the rig's test definitions. */
static void write_lava_log(const char *path, const char *board)
{
	FILE *f = fopen(path, "w");
	const char *suites[] = { SETUP, CYCLE0 };
	double t = 1764806400.0;
	char line[256];
	unsigned seq = 0;

	assert_non_null(f);
	target(f, &t, "[    0.000000] Linux version 7.3.4-rig (rig@lab) #1 SMP PREEMPT_DYNAMIC");
	for (size_t s = 0; s < 2; s++) {
		snprintf(line, sizeof(line), "<LAVA_SIGNAL_STARTRUN %s 1_1.1.%zu>", suites[s], s);
		target(f, &t, line);
		if (s == 0) {
			snprintf(line, sizeof(line), "board.%s", board);
			log_line(f, t, "results", json_pack("{s:s, s:s, s:s}", "case", line,
							    "definition", SETUP, "result", "pass"));
		}
		for (size_t i = 0; i < N_RECORDED; i++)
			if (strcmp(recorded_run[i].suite, suites[s]) == 0)
				record(f, &t, ++seq, &recorded_run[i]);
		snprintf(line, sizeof(line), "<LAVA_SIGNAL_ENDRUN %s 1_1.1.%zu>", suites[s], s);
		target(f, &t, line);
	}
	fclose(f);
}

/* Every verdict of every cycle of the database's one run, one line each, in a stable order. */
static char *verdict_table(sqlite3 *sql)
{
	sqlite3_stmt *st;
	size_t used = 0, cap = 4096;
	char *out = calloc(1, cap);

	assert_non_null(out);
	assert_int_equal(sqlite3_prepare_v2(sql,
		"SELECT c.idx, v.name, ifnull(v.filesystem, '-'), v.result, ifnull(v.known_issue, '-')"
		" FROM verdicts v JOIN cycles c ON v.cycle_id = c.id"
		" ORDER BY c.idx, v.name, v.filesystem", -1, &st, NULL), SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW && used < cap - 256)
		used += (size_t)snprintf(out + used, cap - used, "%d %s %s %s %s\n",
					 sqlite3_column_int(st, 0), sqlite3_column_text(st, 1),
					 sqlite3_column_text(st, 2), sqlite3_column_text(st, 3),
					 sqlite3_column_text(st, 4));
	sqlite3_finalize(st);
	return out;
}

static int setup_both_ways(void **state)
{
	struct run *r = calloc(1, sizeof(*r));

	assert_non_null(r);
	run_setup_board(r, DATA "board-two.yaml", DATA "suspend.yaml");
	*state = r;
	return 0;
}

/* One recorded run's evidence fed both ways, to the engine through a board that answers with it
 * and to rig lava import as the log of a LAVA job: the same verdicts, known issues applied both
 * ways, and the unfrozen filesystem's stall failing under LAVA too. */
static void test_one_judge_both_ways(void **state)
{
	struct run *r = *state;
	char *known_path = top_path("known-issues/known-issues.yaml"), log_path[160], db_path[160];
	char *by_engine, *by_lava;
	struct lava_cases cases = { 0 };
	struct results_db *db;
	struct lava_import_info info = { 0 };
	int64_t run_id;
	int code;
	sqlite3 *sql;

	if (known_load(known_path, &r->known, &r->err) < 0)
		fail_msg("%s", r->err.msg);
	free(known_path);
	r->opts.known = r->known;
	r->opts.cycles = 1;
	r->fake.script = recorded_run;
	r->fake.n_script = N_RECORDED;
	assert_int_equal(run_engine(r), RIG_EXIT_FAIL);
	by_engine = verdict_table(r->sql);

	snprintf(log_path, sizeof(log_path), "%s/lava.log", r->dir);
	snprintf(db_path, sizeof(db_path), "%s/lava.db", r->dir);
	write_lava_log(log_path, r->board->name);
	assert_int_equal(lava_cases_from_log(log_path, &cases, &r->err), 0);
	assert_int_equal(results_open(db_path, RESULTS_OPEN_CREATE, &db, &r->err), 0);
	info.board_def = r->board;
	info.known = r->known;
	if (lava_import(db, &cases, &info, &run_id, &code, &r->err) < 0)
		fail_msg("%s", r->err.msg);
	assert_int_equal(code, RIG_EXIT_FAIL);
	results_close(db);
	lava_cases_free(&cases);
	assert_int_equal(sqlite3_open_v2(db_path, &sql, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	by_lava = verdict_table(sql);
	sqlite3_close(sql);

	if (getenv("RIG_TEST_VERBOSE"))
		fprintf(stderr, "engine:\n%slava:\n%s", by_engine, by_lava);
	assert_string_equal(by_lava, by_engine);
	assert_non_null(strstr(by_lava, "0 stall sata-xfs fail -"));
	assert_non_null(strstr(by_lava, "0 stall nvme-ext4 pass -"));
	assert_non_null(strstr(by_lava, "0 clean-resume - fail lockdep-freezer-set-task-frozen"));
	assert_non_null(strstr(by_lava, "0 suspend - pass -"));
	free(by_engine);
	free(by_lava);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_two_clean_suspends, setup_suspend, teardown),
		cmocka_unit_test_setup_teardown(test_identity_checked_and_recorded, setup_suspend,
						teardown),
		cmocka_unit_test_setup_teardown(test_wrong_kernel_is_infra_before_any_cycle,
						setup_suspend, teardown),
		cmocka_unit_test_setup_teardown(test_meta_without_build_id_is_refused, setup_suspend,
						teardown),
		cmocka_unit_test_setup_teardown(test_write_while_frozen_fails_stall, setup_suspend, teardown),
		cmocka_unit_test_setup_teardown(test_first_boot_discards_a_stale_image, setup_suspend, teardown),
		cmocka_unit_test_setup_teardown(test_systemctl_suspend_is_judged_by_systemd,
						setup_systemctl, teardown),
		cmocka_unit_test_setup_teardown(test_systemd_reported_failure_fails, setup_systemctl,
						teardown),
		cmocka_unit_test_setup_teardown(test_warning_fails_clean_resume, setup_suspend, teardown),
		cmocka_unit_test_setup_teardown(test_premature_wake_fails_wake_time, setup_suspend,
						teardown),
		cmocka_unit_test_setup_teardown(test_wake_time_with_the_entry_seen, setup_suspend,
						teardown),
		cmocka_unit_test_setup_teardown(test_tasks_refusing_to_freeze_fail_suspend_and_clean_resume,
						setup_suspend, teardown),
		cmocka_unit_test_setup_teardown(test_known_warning_passes, setup_suspend, teardown),
		cmocka_unit_test_setup_teardown(test_one_judge_both_ways, setup_both_ways, teardown),
		cmocka_unit_test_setup_teardown(test_known_warning_fails_when_strict, setup_suspend,
						teardown),
		cmocka_unit_test_setup_teardown(test_hung_resume_reboots_and_goes_on, setup_hang,
						teardown),
		cmocka_unit_test_setup_teardown(test_unhealthy_first_boot_is_infra, setup_suspend,
						teardown),
		cmocka_unit_test_setup_teardown(test_missing_console_is_an_infra_run, setup_suspend,
						teardown),
		cmocka_unit_test_setup_teardown(test_unhealthy_reboot_is_an_infra_cycle, setup_hang,
						teardown),
		cmocka_unit_test_setup_teardown(test_power_cut_in_s2idle, setup_power_cut_s2idle,
						teardown),
		cmocka_unit_test_setup_teardown(test_stop_aborts_cycle_in_flight, setup_suspend,
						teardown),
		cmocka_unit_test_setup_teardown(test_stop_between_cycles_ends_run_aborted,
						setup_suspend, teardown),
		cmocka_unit_test_setup_teardown(test_infra_ends_the_run_only_three_in_a_row,
						setup_suspend, teardown),
		cmocka_unit_test_setup_teardown(test_three_infra_in_a_row_end_the_run, setup_suspend,
						teardown),
		cmocka_unit_test_setup_teardown(test_console_lost_is_infra_then_reboot, setup_suspend,
						teardown),
	};

	/* The fake writes with MSG_NOSIGNAL; the engine's console must not die either when the
	 * fake hangs up first. */
	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
