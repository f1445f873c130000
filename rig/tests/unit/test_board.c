/* board_load(): the shipped boards load with their values, bad files fail naming file:line and
 * key. Fixtures in rig/tests/data/boards mark the line an error must name with "# <- error". */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/unit/support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config/board.h"
#include "config/placeholder.h"
#include "power/qemu_args.h"

static const struct board_paths test_paths = { .run = "/r/run", .out = "/o/out", .top = "/t/top" };

/* 1-based line of the fixture holding the "# <- error" marker. */
static unsigned marked_line(const char *path)
{
	FILE *fp = fopen(path, "r");
	char line[512];
	unsigned n = 0;

	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp)) {
		n++;
		if (strstr(line, "# <- error")) {
			fclose(fp);
			return n;
		}
	}
	fclose(fp);
	fail_msg("%s has no \"# <- error\" marker", path);
	return 0;
}

static struct board *load_ok(const char *relative, const struct board_paths *paths)
{
	char *path = top_path(relative);
	struct rig_err err = { 0 };
	struct board *board = NULL;

	if (board_load(path, paths, &board, &err) != 0)
		fail_msg("%s: %s", path, err.msg);
	assert_string_equal(board->path, path);
	free(path);
	return board;
}

static bool has(char *const *items, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(items[i], name) == 0)
			return true;
	return false;
}

/* boards/qemu.yaml is edited as the image evolves: check what the rest of the rig relies on. */
static void qemu_board_loads(void **state)
{
	struct board *b = load_ok("boards/qemu.yaml", &test_paths);
	const struct board_qemu *q = b->power.qemu;
	bool nvme = false, sata = false;

	(void)state;
	assert_string_equal(b->name, "qemu");
	assert_string_equal(b->power.backend, "qemu");
	assert_string_equal(b->deploy.backend, "qemu");   /* the default for a QEMU board */
	assert_non_null(q);
	assert_null(b->power.gpiod);
	assert_null(b->power.command);
	assert_true(q->cpus >= 1 && q->memory_mb >= 64);
	/* Multi-threaded TCG oopses in the guest's text patching: the board says single. */
	assert_string_equal(q->accel, "tcg");
	assert_string_equal(q->tcg_thread, "single");
	for (size_t i = 0; i < q->n_disks; i++) {
		nvme |= strcmp(q->disks[i].interface, "nvme") == 0;
		sata |= strcmp(q->disks[i].interface, "sata") == 0;
		assert_true(strncmp(q->disks[i].file, "/o/out/", 7) == 0);
	}
	assert_true(nvme && sata);
	assert_string_equal(b->console.transport, "socket");
	assert_true(strncmp(b->console.path, "/r/run/", 7) == 0);
	assert_true(strncmp(b->boot.kernel, "/o/out/", 7) == 0);
	assert_non_null(strstr(b->boot.cmdline, "no_console_suspend"));
	assert_null(strchr(b->boot.cmdline, '\n'));  /* folded: one line */
	assert_true(has(b->sleep_states, b->n_sleep_states, "deep"));
	assert_true(has(b->sleep_states, b->n_sleep_states, "disk"));
	assert_true(has(b->wake_sources, b->n_wake_sources, "rtc"));
	assert_true(has(b->wake_sources, b->n_wake_sources, "qmp"));
	assert_true(b->n_filesystems > 0);
	assert_non_null(b->swap);
	assert_true(b->timeouts.boot > 0 && b->timeouts.restore > 0);
	board_free(b);
}

static void every_key_lands_in_its_field(void **state)
{
	struct board *b = load_ok("rig/tests/data/boards/every-key.yaml", &test_paths);
	const struct board_qemu *q = b->power.qemu;

	(void)state;
	assert_string_equal(b->name, "every-key");
	assert_string_equal(b->description, "all keys set");
	assert_string_equal(b->arch, "x86_64");
	assert_string_equal(b->boot.kernel, "/o/out/bzImage");
	assert_string_equal(b->boot.initrd, "/t/top/initrd.img");
	assert_string_equal(b->boot.cmdline, "console=ttyS0,57600 quiet");
	assert_string_equal(b->boot.ready_pattern, "READY");
	assert_string_equal(b->console.transport, "socket");
	assert_string_equal(b->console.path, "/r/run/con.sock");
	assert_int_equal(b->console.baud, 57600);
	assert_string_equal(q->binary, "/usr/local/bin/qemu-system-x86_64");
	assert_string_equal(q->machine, "q35");
	assert_string_equal(q->accel, "kvm");
	assert_int_equal(q->cpus, 4);
	assert_int_equal(q->memory_mb, 2048);
	assert_string_equal(q->qmp, "/r/run/q.sock");
	assert_string_equal(q->firmware, "/t/top/OVMF.fd");
	assert_int_equal(q->n_disks, 2);
	assert_string_equal(q->disks[0].id, "d0");
	assert_string_equal(q->disks[0].interface, "nvme");
	assert_string_equal(q->disks[0].file, "/o/out/d0.img");
	assert_int_equal(q->disks[0].size_mb, 10);
	assert_true(q->disks[0].volatile_cache);
	assert_false(q->disks[1].volatile_cache);   /* the default */
	assert_string_equal(q->disks[1].id, "d1");
	assert_string_equal(q->disks[1].interface, "sata");
	assert_string_equal(q->disks[1].file, "relative/d1.img");  /* relative paths stay */
	assert_int_equal(q->disks[1].size_mb, 0);
	assert_int_equal(q->n_extra_args, 2);  /* command-line words may repeat */
	assert_string_equal(q->extra_args[1], "-no-reboot");
	assert_int_equal(b->n_sleep_states, 2);
	assert_string_equal(b->sleep_states[0], "shallow");
	assert_string_equal(b->sleep_states[1], "disk");
	assert_int_equal(b->n_wake_sources, 2);
	assert_string_equal(b->wake_sources[0], "serial");
	assert_string_equal(b->wake_sources[1], "button");
	assert_int_equal(b->n_filesystems, 1);
	assert_string_equal(b->filesystems[0].name, "fs0");
	assert_string_equal(b->filesystems[0].type, "ext4");
	assert_string_equal(b->filesystems[0].device, "/dev/vda1");
	assert_string_equal(b->filesystems[0].mount, "/mnt/fs0");
	assert_string_equal(b->filesystems[0].options, "noatime,barrier=0");
	assert_string_equal(b->swap, "/dev/vda2");
	assert_int_equal(b->timeouts.boot, 1);
	assert_int_equal(b->timeouts.command, 2);
	assert_int_equal(b->timeouts.suspend, 3);
	assert_int_equal(b->timeouts.resume, 4);
	assert_int_equal(b->timeouts.hibernate, 5);
	assert_int_equal(b->timeouts.restore, 6);
	assert_int_equal(b->wake_timing.early_ms, 0);    /* 0 is a value: no early wake allowed */
	assert_int_equal(b->wake_timing.late_ms, 9000);
	assert_false(b->wake_timing.rtc_source);
	board_free(b);
}

static void placeholders_stay_without_paths(void **state)
{
	struct board *b = load_ok("boards/qemu.yaml", NULL);

	(void)state;
	assert_true(strncmp(b->console.path, "{run}/", 6) == 0);
	assert_true(strncmp(b->boot.kernel, "{out}/", 6) == 0);
	board_free(b);
}

static void placeholder_expand_handles_edges(void **state)
{
	const struct board_paths only_top = { .top = "/top" };
	struct {
		const char *in, *want;
		const struct board_paths *paths;
	} cases[] = {
		{ "{top}/a/{run}/{out}", "/t/top/a//r/run//o/out", &test_paths },
		{ "{top}{top}", "/t/top/t/top", &test_paths },
		{ "{tops}/x{", "{tops}/x{", &test_paths },
		{ "relative/path", "relative/path", &test_paths },
		{ "", "", &test_paths },
		{ "{top}/{run}", "/top/{run}", &only_top },
		{ "{run}", "{run}", NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = placeholder_expand(cases[i].in, cases[i].paths, false);

		assert_non_null(got);
		assert_string_equal(got, cases[i].want);
		free(got);
	}
}

static void defaults_fill_what_is_not_written(void **state)
{
	struct board *b = load_ok("rig/tests/data/boards/minimal-gpiod.yaml", &test_paths);
	const struct board_gpiod *g = b->power.gpiod;

	(void)state;
	assert_non_null(g);
	assert_null(b->power.qemu);
	assert_int_equal(b->console.baud, 115200);
	assert_int_equal(g->press_ms, 200);
	assert_int_equal(g->long_press_ms, 6000);
	assert_string_equal(g->button.chip, "gpiochip0");
	assert_int_equal(g->button.offset, 17);
	assert_false(g->button.active_low);
	assert_null(g->power.chip);
	assert_null(g->reset.chip);
	assert_null(g->socket);
	assert_null(b->boot.kernel);
	assert_null(b->boot.cmdline);
	assert_string_equal(b->deploy.backend, "none");   /* a real board boots what it has */
	assert_null(b->deploy.tftp);
	assert_null(b->deploy.command);
	assert_string_equal(b->boot.ready_pattern, "@@RIG@@ agent ready");
	assert_int_equal(b->timeouts.boot, 180);
	assert_int_equal(b->timeouts.command, 60);
	assert_int_equal(b->timeouts.suspend, 60);
	assert_int_equal(b->timeouts.resume, 60);
	assert_int_equal(b->timeouts.hibernate, 240);
	assert_int_equal(b->timeouts.restore, 240);
	assert_int_equal(b->wake_timing.early_ms, 2500);
	assert_int_equal(b->wake_timing.late_ms, 5000);
	assert_true(b->wake_timing.rtc_source);
	assert_int_equal(b->n_filesystems, 0);
	board_free(b);
}

static void zero_timeout_means_default(void **state)
{
	struct board *b = load_ok("rig/tests/data/boards/timeouts-zero.yaml", &test_paths);

	(void)state;
	assert_int_equal(b->timeouts.boot, 180);
	assert_int_equal(b->timeouts.hibernate, 30);
	assert_int_equal(b->timeouts.restore, 240);
	board_free(b);
}

static void laptop_example_loads(void **state)
{
	struct board *b = load_ok("boards/examples/laptop-x86.yaml", &test_paths);

	(void)state;
	assert_string_equal(b->power.backend, "gpiod");
	assert_non_null(b->power.gpiod);
	assert_non_null(b->power.gpiod->button.chip);
	assert_string_equal(b->console.transport, "serial");
	assert_string_equal(b->console.path, "/dev/ttyUSB0");
	assert_true(has(b->wake_sources, b->n_wake_sources, "button"));
	assert_true(b->n_filesystems > 0);
	assert_non_null(strstr(b->filesystems[0].device, "nvme"));
	assert_string_equal(b->deploy.backend, "tftp");
	assert_string_equal(b->deploy.tftp->format, "ipxe");
	board_free(b);
}

static void devboard_example_loads(void **state)
{
	struct board *b = load_ok("boards/examples/devboard-arm64.yaml", &test_paths);
	bool nvme = false, sata = false;

	(void)state;
	assert_string_equal(b->power.backend, "command");
	assert_non_null(b->power.command);
	assert_true(b->power.command->off || b->power.command->cycle);
	assert_string_equal(b->arch, "aarch64");
	for (size_t i = 0; i < b->n_filesystems; i++) {
		nvme |= strstr(b->filesystems[i].device, "nvme") != NULL;
		sata |= strstr(b->filesystems[i].device, "/dev/sd") != NULL;
	}
	assert_true(nvme && sata);
	board_free(b);
}

/* The volatile boards: both disks behind nbdkit, on disks of their own; the negative control
 * mounts ext4 and btrfs without flushes and hides the SATA cache from the kernel, the positive
 * control mounts with the defaults. */
static void volatile_boards_load(void **state)
{
	struct board *pos = load_ok("boards/qemu-volatile.yaml", &test_paths);
	struct board *neg = load_ok("boards/qemu-volatile-noflush.yaml", &test_paths);
	struct board *plain = load_ok("boards/qemu.yaml", &test_paths);

	(void)state;
	assert_int_equal(pos->power.qemu->n_disks, 2);
	for (size_t i = 0; i < 2; i++) {
		assert_true(pos->power.qemu->disks[i].volatile_cache);
		assert_true(neg->power.qemu->disks[i].volatile_cache);
		assert_false(plain->power.qemu->disks[i].volatile_cache);
		assert_string_not_equal(pos->power.qemu->disks[i].file,
					plain->power.qemu->disks[i].file);
		assert_string_not_equal(pos->power.qemu->disks[i].file,
					neg->power.qemu->disks[i].file);
	}
	for (size_t i = 0; i < pos->n_filesystems; i++)
		assert_null(pos->filesystems[i].options);
	assert_string_equal(neg->filesystems[0].name, "nvme-ext4");
	assert_string_equal(neg->filesystems[0].options, "barrier=0");
	assert_string_equal(neg->filesystems[1].options, "nobarrier");
	assert_null(neg->filesystems[2].options);  /* xfs has no nobarrier any more: */
	assert_non_null(strstr(neg->boot.cmdline, "rig.cache_type.sda=temporary_write_through"));
	board_free(pos);
	board_free(neg);
	board_free(plain);
}

static void tftp_deploy_loads(void **state)
{
	struct board *b = load_ok("rig/tests/data/boards/deploy-tftp-gpiod.yaml", &test_paths);

	(void)state;
	assert_string_equal(b->deploy.backend, "tftp");
	assert_non_null(b->deploy.tftp);
	assert_string_equal(b->deploy.tftp->root, "/r/run/tftp");   /* placeholders expanded */
	assert_string_equal(b->deploy.tftp->format, "ipxe");
	assert_null(b->deploy.tftp->config);
	assert_null(b->deploy.command);
	assert_string_equal(b->boot.kernel, "/o/out/kernel/bzImage");
	board_free(b);
}

/* The net-boot board: QEMU is not told the kernel (power/qemu_args.c), its firmware fetches what
 * the tftp deploy wrote into the root QEMU's user-mode TFTP serves. */
static void netboot_board_loads(void **state)
{
	struct board *b = load_ok("boards/qemu-netboot.yaml", &test_paths);
	struct rig_err err = { 0 };
	struct qemu_argv args;
	bool served = false, pxe = false;

	(void)state;
	assert_string_equal(b->deploy.backend, "tftp");
	assert_string_equal(b->deploy.tftp->root, "/r/run/tftp");
	assert_string_equal(b->deploy.tftp->format, "ipxe");
	assert_int_equal(qemu_build_argv(b, "/r/run", &args, &err), 0);
	for (size_t i = 0; i < args.argc; i++) {
		assert_string_not_equal(args.argv[i], "-kernel");
		served |= strstr(args.argv[i], "tftp=/r/run/tftp,bootfile=boot.ipxe") != NULL;
		pxe |= i > 0 && strcmp(args.argv[i - 1], "-boot") == 0 && strcmp(args.argv[i], "n") == 0;
	}
	assert_true(served && pxe);
	qemu_argv_free(&args);
	board_free(b);
}

static void missing_file_is_a_usage_error(void **state)
{
	struct rig_err err = { 0 };
	struct board *b = (struct board *)&err;  /* must be reset to NULL */

	(void)state;
	assert_int_equal(board_load("/nonexistent/board.yaml", NULL, &b, &err), -1);
	assert_null(b);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	assert_non_null(strstr(err.msg, "/nonexistent/board.yaml: cannot open"));
	board_free(NULL);
}

/* ---- bad files: each must fail at its marked line, naming the key ---- */

struct bad_case {
	const char *file;   /* under rig/tests/data/boards */
	const char *key;    /* key path the message names; "" for file-level errors */
	const char *what;   /* part of the message after the key */
};

static const struct bad_case bad_cases[] = {
	{ "unknown-key.yaml", "console.speed", "unknown key" },
	{ "wrong-type.yaml", "power.qemu.cpus", "expected an unsigned integer, got \"two\"" },
	{ "missing-name.yaml", "name", "required key missing" },
	{ "missing-cmdline.yaml", "boot.cmdline", "required key missing" },
	{ "bad-backend.yaml", "power.backend", "expected one of qemu, gpiod, command, got \"ipmi\"" },
	{ "bad-transport.yaml", "console.transport", "got \"usb\"" },
	{ "bad-sleep-state.yaml", "sleep.states[1]", "got \"mem\"" },
	{ "bad-wake.yaml", "sleep.wake[1]", "expected one of rtc, qmp, button, serial, got \"lid\"" },
	{ "missing-section.yaml", "power.gpiod", "section missing" },
	{ "missing-transport.yaml", "console.transport", "required key missing" },
	{ "missing-backend.yaml", "power.backend", "required key missing" },
	{ "duplicate-key.yaml", "name", "duplicate key (first given on line 1)" },
	{ "bad-disk.yaml", "power.qemu.disks[1].size_mb", "got \"-5\"" },
	{ "bad-bool.yaml", "power.gpiod.power.active_low", "expected a boolean" },
	{ "qmp-wake-on-gpiod.yaml", "sleep.wake[1]", "needs power.backend qemu" },
	{ "duplicate-filesystem.yaml", "filesystems[1].name", "already used by filesystems[0]" },
	{ "syntax-error.yaml", "", "YAML syntax error" },
	{ "not-a-mapping.yaml", "", "expected a mapping" },
	{ "two-documents.yaml", "", "a second YAML document" },
	{ "quoted-number.yaml", "console.baud", "the quoted string \"9600\"" },
	{ "tcg-thread-on-kvm.yaml", "power.qemu.tcg_thread", "given, but power.qemu.accel is not" },
	{ "bad-tcg-thread.yaml", "power.qemu.tcg_thread", "expected one of single, multi, got \"two\"" },
	{ "volatile-bad-id.yaml", "power.qemu.disks[1].id", "names files" },
	{ "mount-options-on-gpiod.yaml", "filesystems[0].options", "needs a deploy that sets" },
	{ "mount-options-two-words.yaml", "filesystems[1].options", "one word" },
	{ "deploy-missing-section.yaml", "deploy", "section missing: deploy.backend is \"tftp\"" },
	{ "deploy-qemu-on-gpiod.yaml", "deploy.backend", "needs power.backend qemu" },
	{ "deploy-none-with-kernel.yaml", "boot.kernel", "deploy.backend is \"none\"" },
	{ "deploy-bad-format.yaml", "deploy.tftp.format",
	  "expected one of ipxe, pxelinux, extlinux, got \"grub\"" },
	{ "deploy-command-no-run.yaml", "deploy.command.run", "required key missing" },
	{ "deploy-tftp-no-kernel.yaml", "boot.kernel", "required key missing (deploy.backend tftp" },
	{ "billion-laughs.yaml", "", "YAML alias *l0: aliases are refused" },
	{ "wake-timing-negative.yaml", "wake_timing.early_ms", "expected an unsigned integer, got \"-1\"" },
	{ "wake-timing-too-late.yaml", "wake_timing.late_ms", "must be at most 3600000, got 3600001" },
	{ "wake-timing-unknown-key.yaml", "wake_timing.early", "unknown key" },
	{ "wake-timing-rtc-source.yaml", "wake_timing.rtc_source", "expected a boolean (true/false, yes/no), got \"sometimes\"" },
};

static void bad_board_fails_at_its_line(void **state)
{
	const struct bad_case *c = *state;
	char relative[256], want[512];
	struct rig_err err = { 0 };
	struct board *b = NULL;
	char *path;

	snprintf(relative, sizeof(relative), "rig/tests/data/boards/%s", c->file);
	path = top_path(relative);
	assert_int_equal(board_load(path, &test_paths, &b, &err), -1);
	assert_null(b);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	/* The prefix (file:line: key) must match exactly; what follows must contain `what`. */
	snprintf(want, sizeof(want), "%s:%u: %s%s", path, marked_line(path), c->key,
		 *c->key ? ": " : "");
	if (strncmp(err.msg, want, strlen(want)) != 0 || !strstr(err.msg, c->what))
		fail_msg("got  \"%s\"\nwant \"%s...%s...\"", err.msg, want, c->what);
	free(path);
}

/* A scratch board file: head, then `repeat` copies of unit, then tail. Caller unlinks. */
static void write_scratch(char *path, size_t size, const char *head, const char *unit,
			  size_t repeat, const char *tail)
{
	int fd;
	FILE *fp;

	snprintf(path, size, "/tmp/rig-test-board-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	assert_non_null(fp);
	fputs(head, fp);
	for (size_t i = 0; i < repeat; i++)
		fputs(unit, fp);
	fputs(tail, fp);
	assert_int_equal(fclose(fp), 0);
}

static double now_seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* A board file nested 200k deep was still parsing after 60 s (libyaml is quadratic in the
 * depth): refused before libyaml builds anything, naming the file and line. The same loader
 * (config/yaml_doc.c) reads plans and known issues. */
static void deep_nesting_is_refused_at_once(void **state)
{
	struct board *board = NULL;
	struct rig_err err = { 0 };
	char path[64], want[128];
	double start;

	(void)state;
	write_scratch(path, sizeof(path), "name: deep\npower: ", "[", 200000, "\n");
	start = now_seconds();
	assert_int_equal(board_load(path, &test_paths, &board, &err), -1);
	assert_true(now_seconds() - start < 1.0);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	snprintf(want, sizeof(want), "%s:2: nested more than", path);
	assert_non_null(strstr(err.msg, want));
	unlink(path);
}

/* Nesting within the limit still loads as far as the schema, which names the wrong type. */
static void nesting_within_limit_reaches_the_schema(void **state)
{
	struct board *board = NULL;
	struct rig_err err = { 0 };
	char path[64];

	(void)state;
	write_scratch(path, sizeof(path), "name: deep\npower: ", "[", 60, "\n");
	assert_int_equal(board_load(path, &test_paths, &board, &err), -1);
	assert_null(strstr(err.msg, "nested more than"));
	unlink(path);
}

/* An alias is refused at once whatever it expands to. Each use is decoded again: a 1 MB
 * known-issues file of "- *i" lines, each a copy of one 100 KB entry, asked for 13 GB and ended
 * "out of memory" after 5.9 s. Here 100 000 uses of one scalar: refused at the first, by line. */
static void wide_alias_expansion_is_refused_at_once(void **state)
{
	struct board *board = NULL;
	struct rig_err err = { 0 };
	char path[64], want[128], head[128];
	double start;

	(void)state;
	snprintf(head, sizeof(head), "name: wide\nsleep:\n  states:\n    - &s deep\n");
	write_scratch(path, sizeof(path), head, "    - *s\n", 100000, "");
	start = now_seconds();
	assert_int_equal(board_load(path, &test_paths, &board, &err), -1);
	assert_true(now_seconds() - start < 1.0);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	snprintf(want, sizeof(want), "%s:5: YAML alias *s: aliases are refused", path);
	assert_memory_equal(err.msg, want, strlen(want));
	unlink(path);
}

/* An anchor no alias uses expands to nothing: the file loads as if it were not there, so the
 * refusal above is the alias's, not the anchor's. */
static void anchor_without_alias_loads(void **state)
{
	struct board *board = NULL;
	struct rig_err err = { 0 };
	char path[64];

	(void)state;
	write_scratch(path, sizeof(path), "name: &n anchored\nconsole: {transport: serial, "
		      "path: /dev/ttyUSB0}\npower: {backend: gpiod, gpiod: {button: {chip: "
		      "gpiochip0, offset: 17}}}\nsleep: {states: [deep], wake: &w [rtc]}\n", "", 0, "");
	if (board_load(path, &test_paths, &board, &err) != 0)
		fail_msg("%s", err.msg);
	assert_string_equal(board->name, "anchored");
	board_free(board);
	unlink(path);
}

/* A file over 1 MiB is refused by its size, before it is read. */
static void oversized_file_is_refused(void **state)
{
	struct board *board = NULL;
	struct rig_err err = { 0 };
	char path[64];

	(void)state;
	write_scratch(path, sizeof(path), "name: big\n", "# padding padding padding padding\n",
		      40000, "");
	assert_int_equal(board_load(path, &test_paths, &board, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	assert_non_null(strstr(err.msg, path));
	assert_non_null(strstr(err.msg, "bytes, more than"));
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest fixed[] = {
		cmocka_unit_test(qemu_board_loads),
		cmocka_unit_test(tftp_deploy_loads),
		cmocka_unit_test(netboot_board_loads),
		cmocka_unit_test(every_key_lands_in_its_field),
		cmocka_unit_test(placeholders_stay_without_paths),
		cmocka_unit_test(placeholder_expand_handles_edges),
		cmocka_unit_test(defaults_fill_what_is_not_written),
		cmocka_unit_test(zero_timeout_means_default),
		cmocka_unit_test(laptop_example_loads),
		cmocka_unit_test(devboard_example_loads),
		cmocka_unit_test(missing_file_is_a_usage_error),
		cmocka_unit_test(volatile_boards_load),
		cmocka_unit_test(deep_nesting_is_refused_at_once),
		cmocka_unit_test(nesting_within_limit_reaches_the_schema),
		cmocka_unit_test(oversized_file_is_refused),
		cmocka_unit_test(wide_alias_expansion_is_refused_at_once),
		cmocka_unit_test(anchor_without_alias_loads),
	};
	enum { N_FIXED = sizeof(fixed) / sizeof(fixed[0]),
	       N_BAD = sizeof(bad_cases) / sizeof(bad_cases[0]) };
	struct CMUnitTest tests[N_FIXED + N_BAD];

	memcpy(tests, fixed, sizeof(fixed));
	for (size_t i = 0; i < N_BAD; i++)
		tests[N_FIXED + i] = (struct CMUnitTest){
			.name = bad_cases[i].file,
			.test_func = bad_board_fails_at_its_line,
			.initial_state = (void *)&bad_cases[i],
		};
	return cmocka_run_group_tests_name("board", tests, NULL, NULL);
}
