/* Volatile drive caches: the nbdkit log's account (judge/drive_cache.h) on written-out logs, the
 * nbdkit and QEMU command lines, and a real nbdkit whose cut loses what was not flushed and
 * keeps what was (written to through qemu-io, the NBD client of Debian's qemu-utils). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "deploy/deploy.h"
#include "judge/drive_cache.h"
#include "power/drive_cache.h"
#include "power/qemu_args.h"
#include "util/clock.h"

#define CONNECT "2026-12-04 16:59:31.758682 connection=1 Connect export=\"\" tls=0 " \
	"size=0x1000000 minsize=0x1 prefsize=0x10000 maxsize=0xffffffff write=1 flush=1\n"

static void feed(struct drive_cache_log *log, const char *const *lines)
{
	struct rig_err err = { 0 };

	for (; *lines; lines++)
		assert_int_equal(drive_cache_log_feed(log, *lines, &err), 0);
}

static double measured(const struct judgement *j, const char *name)
{
	for (size_t i = 0; i < j->n_measurements; i++)
		if (strcmp(j->measurements[i].name, name) == 0) {
			assert_string_equal(j->measurements[i].filesystem, "nvme0");
			return j->measurements[i].value;
		}
	fail_msg("no measurement %s", name);
	return -1;
}

/* Unflushed writes are what the cut loses; a flush that returned cleans what was written before
 * it was sent, not what came while it ran; FUA writes go through. */
static void log_counts_dirty_blocks_and_flushes(void **state)
{
	const char *before[] = {
		"2026-12-04 16:59:30.750416 Ready thread_model=3\n",
		CONNECT,
		/* 8 KiB at 0: blocks 0, 1 */
		"2026-12-04 16:59:31.759548 connection=1 Write id=1 offset=0x0 count=0x2000 fua=0 ...\n",
		"2026-12-04 16:59:31.759877 connection=1 ...Write id=1 return=0\n",
		"2026-12-04 16:59:32.058115 connection=1 Flush id=2 ...\n",
		/* written while the flush runs: block 16, stays dirty */
		"2026-12-04 16:59:32.058200 connection=1 Write id=3 offset=0x10000 count=0x200 fua=0 ...\n",
		"2026-12-04 16:59:32.058828 connection=1 ...Flush id=2 return=0\n",
		NULL,
	};
	const char *after[] = {
		/* 512 bytes straddling blocks 2 and 3 */
		"2026-12-04 16:59:33.000000 connection=1 Write id=4 offset=0x2f00 count=0x200 fua=0 ...\n",
		"2026-12-04 16:59:33.000100 connection=1 Zero id=5 offset=0x100000 count=0x1000 may_trim=1 fua=0 fast=0 ...\n",
		"2026-12-04 16:59:33.000200 connection=1 Write id=6 offset=0x10000 count=0x1000 fua=1 ...\n",
		"2026-12-04 16:59:33.000300 connection=1 Flush id=7 ...\n",   /* never returned */
		NULL,
	};
	struct drive_cache_log log;
	struct judgement j = { 0 };
	struct rig_err err = { 0 };

	(void)state;
	drive_cache_log_init(&log);
	feed(&log, before);
	drive_cache_log_mark(&log);
	feed(&log, after);
	assert_int_equal(log.before.flushes, 1);
	assert_int_equal(log.before.writes, 2);
	assert_int_equal(log.after.flushes, 1);
	assert_int_equal(log.after.writes, 2);
	assert_int_equal(log.after.fua_writes, 1);
	assert_int_equal(log.dirty_at_mark, 1);   /* block 16 */
	assert_int_equal(log.n_dirty, 3);         /* 2, 3 and the zeroed 256; 16 went through */
	assert_int_equal(log.bad_lines, 0);
	assert_int_equal(judge_drive_cache(&j, "nvme0", &log, &err), 0);
	assert_true(measured(&j, "drive_flushes_boot") == 1);
	assert_true(measured(&j, "drive_flushes_sleep") == 1);
	assert_true(measured(&j, "drive_fua_writes_sleep") == 1);
	assert_true(measured(&j, "drive_dirty_at_sleep") == 1);
	assert_true(measured(&j, "drive_dirty_dropped") == 3);
	for (size_t i = 0; i < j.n_measurements; i++)   /* no split given: no split measured */
		assert_null(strstr(j.measurements[i].name, "_freeze"));
	judgement_free(&j);
	drive_cache_log_free(&log);
}

/* Flushes after the mark split at a wall-clock time: those before it came with the filesystems'
 * freeze, those after with the devices' suspend. The log's stamps are local time. */
static void flushes_split_at_the_freeze(void **state)
{
	const char *lines[] = {
		CONNECT,
		"2026-12-04 16:59:40.100000 connection=1 Flush id=1 ...\n",
		"2026-12-04 16:59:40.200000 connection=1 Flush id=2 ...\n",
		"2026-12-04 16:59:41.500000 connection=1 Flush id=3 ...\n",
		NULL,
	};
	struct tm split = { .tm_year = 126, .tm_mon = 11, .tm_mday = 4, .tm_hour = 16,
			    .tm_min = 59, .tm_sec = 41, .tm_isdst = -1 };
	struct drive_cache_log log;
	struct judgement j = { 0 };
	struct rig_err err = { 0 };

	(void)state;
	setenv("TZ", "Europe/Paris", 1);   /* not UTC: the stamps are read as local time */
	tzset();
	drive_cache_log_init(&log);
	drive_cache_log_split(&log, (double)mktime(&split));
	feed(&log, (const char *[]){ lines[0], lines[1], NULL });
	drive_cache_log_mark(&log);
	feed(&log, lines + 2);
	assert_int_equal(log.after.flushes, 2);
	assert_int_equal(log.flushes_after_split, 1);
	assert_int_equal(judge_drive_cache(&j, "nvme0", &log, &err), 0);
	assert_true(measured(&j, "drive_flushes_freeze") == 1);
	assert_true(measured(&j, "drive_flushes_devices") == 1);
	judgement_free(&j);
	drive_cache_log_free(&log);
	unsetenv("TZ");
	tzset();
}

/* A flush that failed cleans nothing; a flush that returned cleans everything written before. */
static void failed_flush_cleans_nothing(void **state)
{
	const char *lines[] = {
		CONNECT,
		"t t connection=1 Write id=1 offset=0x0 count=0x1000 fua=0 ...\n",
		"t t connection=1 Flush id=2 ...\n",
		"t t connection=1 ...Flush id=2 return=-1 (Input/output error)\n",
		NULL,
	};
	const char *ok[] = {
		"t t connection=1 Flush id=3 ...\n",
		"t t connection=1 ...Flush id=3 return=0\n",
		NULL,
	};
	struct drive_cache_log log;

	(void)state;
	drive_cache_log_init(&log);
	feed(&log, lines);
	assert_int_equal(log.n_dirty, 1);
	feed(&log, ok);
	assert_int_equal(log.n_dirty, 0);
	assert_int_equal(log.n_listed, 0);
	/* dirty again after being cleaned: counted once */
	feed(&log, (const char *[]){ "t t connection=1 Write id=4 offset=0x0 count=0x1000 fua=0 ...\n",
				     "t t connection=1 Write id=5 offset=0x0 count=0x1000 fua=0 ...\n",
				     NULL });
	assert_int_equal(log.n_dirty, 1);
	assert_int_equal(log.n_listed, 1);
	drive_cache_log_free(&log);
}

/* Before the Connect line there is no drive to account for: no measurement, not zeros. */
static void no_connect_no_measurement(void **state)
{
	const char *lines[] = {
		"2026-12-04 16:59:30.750416 Ready thread_model=3\n",
		"garbage\n",
		"t t connection=1 Write id=1 offset=0x0 count=0x1000 fua=0 ...\n",
		NULL,
	};
	struct drive_cache_log log;
	struct judgement j = { 0 };
	struct rig_err err = { 0 };

	(void)state;
	drive_cache_log_init(&log);
	feed(&log, lines);
	assert_int_equal(judge_drive_cache(&j, "nvme0", &log, &err), 0);
	assert_int_equal(j.n_measurements, 0);
	drive_cache_log_free(&log);
}

static ssize_t argv_index(const struct qemu_argv *a, const char *word)
{
	for (size_t i = 0; i < a->argc; i++)
		if (strcmp(a->argv[i], word) == 0)
			return (ssize_t)i;
	return -1;
}

static void nbdkit_argv(void **state)
{
	struct board_disk d = { .id = "nvme0", .interface = "nvme", .file = "/d/n.img",
				.volatile_cache = true };
	struct rig_err err = { 0 };
	struct qemu_argv a;

	(void)state;
	assert_int_equal(drive_cache_argv(&d, "/run", &a, &err), 0);
	assert_string_equal(a.argv[0], "nbdkit");
	assert_true(argv_index(&a, "--foreground") > 0);
	assert_true(argv_index(&a, "--unix=/run/nbdkit-nvme0.sock") > 0);
	assert_true(argv_index(&a, "--pidfile=/run/nbdkit-nvme0.pid") > 0);
	/* the log outermost: it sees what the guest sent, before the cache */
	assert_true(argv_index(&a, "--filter=log") > 0);
	assert_true(argv_index(&a, "--filter=log") < argv_index(&a, "--filter=cache"));
	assert_true(argv_index(&a, "--filter=cache") < argv_index(&a, "file"));
	assert_true(argv_index(&a, "file=/d/n.img") > argv_index(&a, "file"));
	assert_true(argv_index(&a, "cache=writeback") > 0);
	assert_true(argv_index(&a, "logfile=/run/nbdkit-nvme0.log") > 0);
	assert_null(a.argv[a.argc]);
	qemu_argv_free(&a);
}

/* QEMU attaches a volatile disk through its nbdkit's socket, the others as files; mount options
 * ride on the kernel command line of every boot (deploy_boot_cmdline), before its extras. */
static void qemu_argv_with_volatile_disk(void **state)
{
	struct board_disk disks[] = {
		{ .id = "nvme0", .interface = "nvme", .file = "/d/n.img", .volatile_cache = true },
		{ .id = "sata0", .interface = "sata", .file = "/d/s.img" },
	};
	struct board_qemu q = { .binary = "qemu-system-x86_64", .disks = disks, .n_disks = 2 };
	struct board_filesystem fs[] = {
		{ .name = "nvme-ext4", .type = "ext4", .device = "/dev/nvme0n1p1", .mount = "/m/a",
		  .options = "barrier=0" },
		{ .name = "sata-xfs", .type = "xfs", .device = "/dev/sda1", .mount = "/m/b" },
	};
	struct board b = { .name = "t", .power = { .backend = "qemu", .qemu = &q },
			   .boot = { .kernel = "/k", .cmdline = "console=ttyS0" },
			   .deploy = { .backend = "qemu" }, .filesystems = fs, .n_filesystems = 2 };
	struct rig_err err = { 0 };
	struct qemu_argv a;
	char *line;

	(void)state;
	assert_true(drive_cache_any(&q));
	assert_int_equal(qemu_build_argv(&b, "/run", &a, &err), 0);
	assert_true(argv_index(&a, "driver=raw,file.driver=nbd,file.server.type=unix,"
			       "file.server.path=/run/nbdkit-nvme0.sock,if=none,id=nvme0,"
			       "cache=writeback") > 0);
	assert_true(argv_index(&a, "file=/d/s.img,if=none,id=sata0,format=raw,cache=writeback") > 0);
	qemu_argv_free(&a);
	assert_int_equal(deploy_boot_cmdline(&b, "noresume", &line, &err), 0);
	assert_string_equal(line, "console=ttyS0 rig.mountopts.nvme-ext4=barrier=0 noresume");
	free(line);
	fs[0].options = NULL;
	assert_int_equal(deploy_boot_cmdline(&b, NULL, &line, &err), 0);
	assert_string_equal(line, "console=ttyS0");
	free(line);
	disks[0].volatile_cache = false;
	assert_false(drive_cache_any(&q));
}

/* ---- a real nbdkit ---------------------------------------------------------------------- */

struct live {
	char dir[64], img[128], log[128], sock[128], uri[256];
	struct board_disk disk;
	struct board_qemu qemu;
	struct drive_caches dc;
};

static int live_setup(void **state)
{
	struct live *l = calloc(1, sizeof(*l));
	FILE *f;

	assert_non_null(l);
	strcpy(l->dir, "/tmp/rig-drive-cache-XXXXXX");
	assert_non_null(mkdtemp(l->dir));
	snprintf(l->img, sizeof(l->img), "%s/disk.img", l->dir);
	snprintf(l->log, sizeof(l->log), "%s/nbdkit-d0.log", l->dir);
	snprintf(l->sock, sizeof(l->sock), "%s/nbdkit-d0.sock", l->dir);
	snprintf(l->uri, sizeof(l->uri), "nbd+unix:///?socket=%s", l->sock);
	assert_non_null(f = fopen(l->img, "w"));
	assert_int_equal(ftruncate(fileno(f), 1 << 20), 0);
	fclose(f);
	l->disk = (struct board_disk){ .id = "d0", .interface = "nvme", .file = l->img,
				       .volatile_cache = true };
	l->qemu = (struct board_qemu){ .disks = &l->disk, .n_disks = 1 };
	*state = l;
	return 0;
}

static int live_teardown(void **state)
{
	struct live *l = *state;
	struct rig_err err = { 0 };
	char cmd[128];

	drive_cache_cut(&l->dc, &l->qemu, l->dir, &err);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", l->dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", l->dir);
	free(l);
	return 0;
}

static bool log_has(const char *path, const char *what)
{
	FILE *f = fopen(path, "r");
	char line[512];
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, what) != NULL;
	fclose(f);
	return found;
}

/* qemu-io writes through the NBD socket, one command at a time (on its stdin, kept open), each
 * sent once the log shows the previous one answered; then the drive loses power. steps: command,
 * the log line that says it was answered, and so on, NULL-terminated. */
static void write_then_cut(struct live *l, const char *const *steps)
{
	struct rig_err err = { 0 };
	char cmd[512];
	FILE *io;

	snprintf(cmd, sizeof(cmd), "qemu-io -t writeback -f raw '%s' >/dev/null 2>&1", l->uri);
	assert_int_equal(drive_cache_start(&l->dc, &l->qemu, l->dir, &err), 0);
	assert_non_null(io = popen(cmd, "w"));
	for (; *steps; steps += 2) {
		fputs(steps[0], io);
		fflush(io);
		for (long long end = monotonic_ms() + 20000; !log_has(l->log, steps[1]);) {
			if (monotonic_ms() > end)
				fail_msg("nbdkit's log never showed \"%s\"", steps[1]);
			clock_sleep_ms(20);
		}
	}
	if (drive_cache_cut(&l->dc, &l->qemu, l->dir, &err) != 0)
		fail_msg("cut: %s", err.msg);
	pclose(io);   /* its flush at exit finds no drive */
	assert_int_equal(access(l->sock, F_OK), -1);
}

static unsigned char byte_at(const char *path, long offset)
{
	FILE *f = fopen(path, "r");
	int c;

	assert_non_null(f);
	assert_int_equal(fseek(f, offset, SEEK_SET), 0);
	c = fgetc(f);
	fclose(f);
	return (unsigned char)c;
}

static void account(const char *path, struct drive_cache_log *log)
{
	char line[512];
	FILE *f = fopen(path, "r");
	struct rig_err err = { 0 };

	assert_non_null(f);
	drive_cache_log_init(log);
	while (fgets(line, sizeof(line), f))
		assert_int_equal(drive_cache_log_feed(log, line, &err), 0);
	fclose(f);
}

/* Negative control: written, acknowledged, never flushed: gone after the cut. */
static void cut_loses_unflushed_writes(void **state)
{
	struct live *l = *state;
	struct drive_cache_log log;

	write_then_cut(l, (const char *[]){ "write -P 0xab 0 8k\n", "...Write id=1 return=0",
					    NULL });
	assert_int_equal(byte_at(l->img, 0), 0);
	assert_int_equal(byte_at(l->img, 8191), 0);
	account(l->log, &log);
	assert_int_equal(log.before.writes, 1);
	assert_int_equal(log.n_dirty, 2);
	drive_cache_log_free(&log);
}

/* Positive control: flushed before the cut: on the image; what came after the flush is not. */
static void cut_keeps_flushed_writes(void **state)
{
	struct live *l = *state;
	struct drive_cache_log log;

	write_then_cut(l, (const char *[]){ "write -P 0xab 0 8k\n", "...Write id=1 return=0",
					    "flush\n", "...Flush id=2 return=0",
					    "write -P 0xcd 65536 4k\n", "...Write id=3 return=0",
					    NULL });
	assert_int_equal(byte_at(l->img, 0), 0xab);
	assert_int_equal(byte_at(l->img, 8191), 0xab);
	assert_int_equal(byte_at(l->img, 65536), 0);
	account(l->log, &log);
	assert_int_equal(log.before.flushes, 1);
	assert_int_equal(log.n_dirty, 1);
	drive_cache_log_free(&log);
	/* power on again: a fresh nbdkit and log; the flushed data is still there */
	write_then_cut(l, (const char *[]){ "write -P 0xee 0 4k\n", "...Write id=1 return=0",
					    NULL });
	assert_int_equal(byte_at(l->img, 0), 0xab);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(log_counts_dirty_blocks_and_flushes),
		cmocka_unit_test(flushes_split_at_the_freeze),
		cmocka_unit_test(failed_flush_cleans_nothing),
		cmocka_unit_test(no_connect_no_measurement),
		cmocka_unit_test(nbdkit_argv),
		cmocka_unit_test(qemu_argv_with_volatile_disk),
		cmocka_unit_test_setup_teardown(cut_loses_unflushed_writes, live_setup, live_teardown),
		cmocka_unit_test_setup_teardown(cut_keeps_flushed_writes, live_setup, live_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
