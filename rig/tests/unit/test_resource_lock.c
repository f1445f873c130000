/* Locks on a board's physical resources (engine/resource_lock.h): which resources a board
 * names, one lock file per resource however it is spelled, and two boards of different names in
 * different lock directories that name one device excluding each other. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/resource_lock.h"

struct fixture {
	char dir[64];              /* scratch: the resource directory, lock directories, devices */
	char res[128], locks_a[128], locks_b[128], device[128], link[128];
};

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	FILE *fp;

	if (!f)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/test_resource_lock.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(f->res, sizeof(f->res), "%s/system", f->dir);
	snprintf(f->locks_a, sizeof(f->locks_a), "%s/locks-a", f->dir);
	snprintf(f->locks_b, sizeof(f->locks_b), "%s/locks-b", f->dir);
	/* a regular file stands in for /dev/ttyUSB0: nothing is opened before the locks */
	snprintf(f->device, sizeof(f->device), "%s/ttyUSB0", f->dir);
	snprintf(f->link, sizeof(f->link), "%s/by-id-usb-FTDI", f->dir);
	if (!(fp = fopen(f->device, "w")) || fclose(fp) != 0 || symlink(f->device, f->link) != 0)
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	int ret = nftw(f->dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);

	unsetenv("RIG_LOCK_DIR");
	free(f);
	return ret;
}

static struct board serial_board(const char *name, const char *console_path)
{
	return (struct board){
		.name = (char *)name,
		.console = { .transport = "serial", .path = (char *)console_path },
		.power = { .backend = "command" },
	};
}

/* A QEMU board names nothing physical: rigs in separate lock directories stay isolated. */
static void test_qemu_board_names_no_resource(void **state)
{
	struct board_resource res[BOARD_RESOURCE_MAX];
	struct board b = {
		.name = "qemu",
		.console = { .transport = "socket", .path = "/tmp/run/console.sock" },
		.power = { .backend = "qemu" },
	};

	(void)state;
	assert_int_equal(board_resources(&b, res), 0);
}

/* A gpiod board: its console and each GPIO line it uses, and its powerd socket; a chip given
 * as "0", "gpiochip0" or "/dev/gpiochip0" is one chip, a line used in two roles is one file. */
static void test_gpiod_board_names_console_lines_and_socket(void **state)
{
	struct board_resource res[BOARD_RESOURCE_MAX];
	struct board_gpiod g = {
		.power = { .chip = "0", .offset = 4 },
		.button = { .chip = "gpiochip0", .offset = 17 },
		.reset = { .chip = "/dev/gpiochip0", .offset = 17 },
		.socket = "/nonexistent/powerd.sock",
	};
	struct board b = {
		.name = "pi",
		.console = { .transport = "serial", .path = "/nonexistent/ttyUSB0" },
		.power = { .backend = "gpiod", .gpiod = &g },
	};

	(void)state;
	assert_int_equal(board_resources(&b, res), 5);
	assert_string_equal(res[0].file, "console-_2fnonexistent_2fttyUSB0.lock");
	assert_string_equal(res[0].what, "board pi's serial console /nonexistent/ttyUSB0");
	assert_string_equal(res[1].file, "gpio-gpiochip0_3a4.lock");
	assert_string_equal(res[2].file, "gpio-gpiochip0_3a17.lock");
	assert_string_equal(res[2].what, "board pi's GPIO button line (gpiochip0 line 17)");
	assert_string_equal(res[3].file, res[2].file);
	assert_string_equal(res[4].file, "powerd-_2fnonexistent_2fpowerd.sock.lock");
}

/* Names never collide by escaping ("/a_b" and "/a/b"), and an overlong path still fits a file
 * name, told apart from another of the same start by its hash. */
static void test_lock_file_names_are_distinct(void **state)
{
	struct board_resource r1[BOARD_RESOURCE_MAX], r2[BOARD_RESOURCE_MAX];
	char long1[600], long2[600];
	struct board b1 = serial_board("a", "/nonexistent/a_b");
	struct board b2 = serial_board("a", "/nonexistent/a/b");

	(void)state;
	assert_int_equal(board_resources(&b1, r1), 1);
	assert_int_equal(board_resources(&b2, r2), 1);
	assert_string_not_equal(r1[0].file, r2[0].file);
	memset(long1, 'x', sizeof(long1) - 1);
	long1[0] = '/';
	long1[sizeof(long1) - 1] = '\0';
	memcpy(long2, long1, sizeof(long2));
	long2[sizeof(long2) - 2] = 'y';
	b1 = serial_board("a", long1);
	b2 = serial_board("a", long2);
	assert_int_equal(board_resources(&b1, r1), 1);
	assert_int_equal(board_resources(&b2, r2), 1);
	assert_true(strlen(r1[0].file) < 255);
	assert_string_not_equal(r1[0].file, r2[0].file);
}

/* The same device through a symlink (/dev/serial/by-id/...) is the same lock file. */
static void test_symlink_is_the_device(void **state)
{
	struct fixture *f = *state;
	struct board_resource r1[BOARD_RESOURCE_MAX], r2[BOARD_RESOURCE_MAX];
	struct board b1 = serial_board("one", f->device), b2 = serial_board("two", f->link);

	assert_int_equal(board_resources(&b1, r1), 1);
	assert_int_equal(board_resources(&b2, r2), 1);
	assert_string_equal(r1[0].file, r2[0].file);
}

/* Two boards of different names, each rig with its own RIG_LOCK_DIR, one console device: the
 * second is refused naming the device and the holder, and keeps no lock of its own. */
static void test_one_device_two_boards_excluded(void **state)
{
	struct fixture *f = *state;
	struct board b1 = serial_board("bench-one", f->device), b2 = serial_board("bench-two", f->link);
	struct board_lock *l1 = NULL, *l2 = NULL, *again = NULL;
	struct rig_err err = { 0 };
	char want[512];

	setenv("RIG_LOCK_DIR", f->locks_a, 1);
	if (board_lock_acquire_board(&b1, f->res, &l1, &err) != 0)
		fail_msg("first board: %s", err.msg);
	setenv("RIG_LOCK_DIR", f->locks_b, 1);
	assert_int_equal(board_lock_acquire_board(&b2, f->res, &l2, &err), -1);
	assert_null(l2);
	assert_int_equal(err.class, RIG_EXIT_INFRA);
	snprintf(want, sizeof(want), "board bench-two's serial console %s is locked by pid %ld (",
		 f->device, (long)getpid());
	if (!strstr(err.msg, want))
		fail_msg("got  %s\nwant %s...", err.msg, want);
	assert_non_null(strstr(err.msg, f->res));
	/* nothing of bench-two stayed locked: its name lock is free */
	if (board_lock_acquire("bench-two", f->locks_b, &again, &err) != 0)
		fail_msg("bench-two's name lock stayed taken: %s", err.msg);
	board_lock_release(again);
	/* once the first is gone, the second gets the device */
	board_lock_release(l1);
	if (board_lock_acquire_board(&b2, f->res, &l2, &err) != 0)
		fail_msg("after release: %s", err.msg);
	board_lock_release(l2);
}

/* Negative control: other devices in separate lock directories do not exclude each other. */
static void test_other_devices_do_not_exclude(void **state)
{
	struct fixture *f = *state;
	char other[160];
	struct board b1 = serial_board("bench-one", f->device), b2 = serial_board("bench-two", other);
	struct board_lock *l1 = NULL, *l2 = NULL;
	struct rig_err err = { 0 };

	snprintf(other, sizeof(other), "%s/ttyUSB1", f->dir);
	setenv("RIG_LOCK_DIR", f->locks_a, 1);
	if (board_lock_acquire_board(&b1, f->res, &l1, &err) != 0)
		fail_msg("first board: %s", err.msg);
	setenv("RIG_LOCK_DIR", f->locks_b, 1);
	if (board_lock_acquire_board(&b2, f->res, &l2, &err) != 0)
		fail_msg("second board, another device: %s", err.msg);
	board_lock_release(l2);
	board_lock_release(l1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qemu_board_names_no_resource),
		cmocka_unit_test(test_gpiod_board_names_console_lines_and_socket),
		cmocka_unit_test(test_lock_file_names_are_distinct),
		cmocka_unit_test_setup_teardown(test_symlink_is_the_device, setup, teardown),
		cmocka_unit_test_setup_teardown(test_one_device_two_boards_excluded, setup, teardown),
		cmocka_unit_test_setup_teardown(test_other_devices_do_not_exclude, setup, teardown),
	};

	return cmocka_run_group_tests_name("resource_lock", tests, NULL, NULL);
}
