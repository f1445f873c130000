/* vbench-host: the host side of the virtual bench (vbench/README.md).
 *
 * It is the bench's cable and the DUT's power supply:
 *   - DIR/uart.pty: the bench VM's ttyS1, cabled to the DUT's console (cable.h);
 *   - DIR/wire.pty: the bench VM's ttyS2, on which vbench-wire reports every edge of the relay
 *     and button GPIO lines; they switch the DUT's QEMU (dut.h), and power-good goes back;
 *   - on a power cut the DUT's TX line drops, which the bench's UART sees as a break: sent with
 *     QMP chardev-send-break on the bench's monitor (DIR/bench-qmp.sock), as is a break a
 *     scenario asks for ("req break" on the wire).
 * Runs until SIGTERM or SIGINT, then cuts the DUT's power; its log is DIR/host.log. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cable.h"
#include "cli/context.h"
#include "dut.h"
#include "hostlog.h"
#include "pty.h"
#include "power/qmp.h"

#define LOOP_MS 20
#define WIRE_LINE_MAX 512

static const char usage[] =
	"usage: vbench-host --dir DIR [--dut-board BOARD] [--long-press-ms N]\n"
	"\n"
	"The virtual bench's host side: cable DIR/uart.pty (the bench's ttyS1) to the DUT's\n"
	"console, and switch the DUT (default board: qemu) as the bench's GPIO lines say on\n"
	"DIR/wire.pty (the bench's ttyS2). Until SIGTERM; log in DIR/host.log.\n";

struct host {
	char dir[PATH_MAX];
	struct cable cable;
	struct dut dut;
	int wire_master, wire_slave;
	char wire_buf[WIRE_LINE_MAX];
	size_t wire_have;
	int sense_sent;
	unsigned breaks;
	FILE *log;
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

#define logf_(h, ...) host_log((h)->log, __VA_ARGS__)

static int open_wire(struct host *h)
{
	char link[PATH_MAX + 16];

	snprintf(link, sizeof(link), "%s/wire.pty", h->dir);
	return pty_open_linked(link, &h->wire_master, &h->wire_slave);
}

static void wire_send(struct host *h, const char *line)
{
	size_t n = strlen(line);

	if (write(h->wire_master, line, n) != (ssize_t)n)
		logf_(h, "wire: could not send '%.*s'", (int)n - 1, line);
}

/* The DUT's TX line drops (power cut) or a scenario asks: a break on the bench's ttyS1. */
static void send_break(struct host *h, const char *why)
{
	char path[PATH_MAX + 32];
	struct qmp *qmp;
	struct rig_err err;
	json_t *args = json_pack("{s:s}", "id", "dutuart");

	snprintf(path, sizeof(path), "%s/bench-qmp.sock", h->dir);
	if (qmp_connect(path, 2000, &qmp, &err) < 0) {
		logf_(h, "break (%s): %s", why, err.msg);
	} else {
		if (qmp_execute(qmp, "chardev-send-break", args, 5000, NULL, &err) < 0)
			logf_(h, "break (%s): %s", why, err.msg);
		else
			logf_(h, "break on the bench's ttyS1 (%s)", why);
		qmp_close(qmp);
		h->breaks++;
	}
	json_decref(args);
}

static void on_wire_line(struct host *h, char *line)
{
	char name[32];
	int level;
	long long t;

	if (sscanf(line, "edge %31s %d %lld", name, &level, &t) == 3) {
		logf_(h, "wire: %s %s (bench clock %lld ms)", name, level ? "asserted" : "released", t);
		if (strcmp(name, "relay") == 0) {
			bool was = h->dut.relay_closed;

			dut_relay(&h->dut, level != 0);
			if (was && !level)
				send_break(h, "the DUT lost power");
		} else if (strcmp(name, "button") == 0) {
			dut_button(&h->dut, level != 0);
		}
	} else if (strncmp(line, "hello", 5) == 0) {
		logf_(h, "wire: the bench's wiring is up (%s)", line);
		h->sense_sent = -1;   /* tell it where power-good stands */
	} else if (strcmp(line, "req break") == 0) {
		send_break(h, "asked by the bench");
	} else if (*line) {
		logf_(h, "wire: ignored '%s'", line);
	}
}

static void pump_wire(struct host *h)
{
	ssize_t n = read(h->wire_master, h->wire_buf + h->wire_have,
			 sizeof(h->wire_buf) - 1 - h->wire_have);
	size_t start = 0;

	if (n <= 0)
		return;
	h->wire_have += (size_t)n;
	for (size_t i = 0; i < h->wire_have; i++) {
		if (h->wire_buf[i] != '\n')
			continue;
		h->wire_buf[i] = '\0';
		if (i > start && h->wire_buf[i - 1] == '\r')
			h->wire_buf[i - 1] = '\0';
		on_wire_line(h, h->wire_buf + start);
		start = i + 1;
	}
	memmove(h->wire_buf, h->wire_buf + start, h->wire_have - start);
	h->wire_have -= start;
	if (h->wire_have == sizeof(h->wire_buf) - 1)
		h->wire_have = 0;   /* a line too long for the protocol: noise */
}

static void update_sense(struct host *h)
{
	if (h->sense_sent == (int)h->dut.up)
		return;
	wire_send(h, h->dut.up ? "sense 1\n" : "sense 0\n");
	logf_(h, "power-good %s", h->dut.up ? "high" : "low");
	h->sense_sent = h->dut.up;
}

static int run(struct host *h)
{
	while (!stop) {
		struct pollfd pfd[3] = {
			{ .fd = h->cable.bench_master, .events = POLLIN },
			{ .fd = h->wire_master, .events = POLLIN },
			{ .fd = h->cable.dut_fd, .events = POLLIN },
		};

		if (poll(pfd, h->cable.dut_fd >= 0 ? 3 : 2, LOOP_MS) < 0 && errno != EINTR)
			return -1;
		if (pfd[0].revents & POLLIN)
			cable_pump(&h->cable, h->cable.bench_master);
		if (pfd[1].revents & POLLIN)
			pump_wire(h);
		if (h->cable.dut_fd >= 0 && (pfd[2].revents & (POLLIN | POLLHUP)))
			cable_pump(&h->cable, h->cable.dut_fd);
		dut_tick(&h->dut);
		update_sense(h);
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "dir", required_argument, NULL, 'd' }, { "dut-board", required_argument, NULL, 'b' },
		{ "long-press-ms", required_argument, NULL, 'l' }, { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct host h = { .sense_sent = -1 };
	struct cli_paths paths;
	struct board *board;
	struct rig_err err;
	const char *dir = NULL, *board_arg = "qemu";
	char path[PATH_MAX + 32], run_dir[PATH_MAX + 8];
	unsigned long_press_ms = 5000;
	struct sigaction sa = { .sa_handler = on_signal };
	int opt, rc;

	while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		if (opt == 'd')
			dir = optarg;
		else if (opt == 'b')
			board_arg = optarg;
		else if (opt == 'l')
			long_press_ms = (unsigned)strtoul(optarg, NULL, 10);
		else {
			fputs(usage, opt == 'h' ? stdout : stderr);
			return opt == 'h' ? 0 : 2;
		}
	}
	if (!dir || optind != argc) {
		fputs(usage, stderr);
		return 2;
	}
	snprintf(h.dir, sizeof(h.dir), "%s", dir);
	mkdir(h.dir, 0755);
	snprintf(path, sizeof(path), "%s/host.log", h.dir);
	if (!(h.log = fopen(path, "a"))) {
		fprintf(stderr, "vbench-host: %s: %s\n", path, strerror(errno));
		return 3;
	}
	cli_paths_init(&paths);
	if (snprintf(paths.run, sizeof(paths.run), "%s/dut", h.dir) >= (int)sizeof(paths.run)) {
		fprintf(stderr, "vbench-host: --dir too long\n");
		return 2;
	}
	snprintf(run_dir, sizeof(run_dir), "%s", paths.run);
	mkdir(run_dir, 0755);
	if (cli_load_board(&paths, board_arg, &board, &err) < 0) {
		fprintf(stderr, "vbench-host: %s\n", err.msg);
		return 2;
	}
	snprintf(path, sizeof(path), "%s/uart.pty", h.dir);
	if (cable_open(&h.cable, path, board->console.baud ? board->console.baud : 115200,
		       h.log) < 0 || open_wire(&h) < 0) {
		fprintf(stderr, "vbench-host: cannot make the bench's ptys: %s\n", strerror(errno));
		return 3;
	}
	if (dut_open(&h.dut, board, run_dir, &h.cable, long_press_ms, h.log) < 0)
		return 3;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	logf_(&h, "vbench-host: DUT %s, cable %s, wire %s/wire.pty", board->name, path, h.dir);
	rc = run(&h);
	logf_(&h, "vbench-host: stopping; DUT starts %u, power cuts %u, presses %u, wakes %u, "
	      "forced off %u; breaks %u; cable %llu bytes to the bench, %llu to the DUT, %llu "
	      "garbled, %llu overrun", h.dut.starts, h.dut.cuts, h.dut.presses, h.dut.wakes,
	      h.dut.forced_offs, h.breaks, h.cable.to_bench, h.cable.to_dut, h.cable.garbled,
	      h.cable.overrun);
	dut_close(&h.dut);
	cable_close(&h.cable);
	board_free(board);
	fclose(h.log);
	return rc < 0 ? 3 : 0;
}
