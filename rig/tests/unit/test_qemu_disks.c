/* Seeded disks (boards/README.md, disks[].seed): a board's disk is made from a prebuilt image
 * when missing or older than it, holes kept; a newer disk (the board's scratch state) is left
 * alone; a missing seed is an error that says what builds it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "power/qemu_args.h"

struct fixture {
	char dir[64], seed[128], disk[128];
	struct board_disk d;
	struct board_qemu q;
};

static void write_at(const char *path, off_t off, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT, 0644);

	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, text, strlen(text), off), (ssize_t)strlen(text));
	close(fd);
}

static void read_at(const char *path, off_t off, char *buf, size_t n)
{
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(pread(fd, buf, n, off), (ssize_t)n);
	buf[n] = '\0';
	close(fd);
}

static void set_mtime(const char *path, time_t t)
{
	struct timeval tv[2] = { { t, 0 }, { t, 0 } };

	assert_int_equal(utimes(path, tv), 0);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	strcpy(f->dir, "/tmp/rig-qemu-disks-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->seed, sizeof(f->seed), "%s/seed.img", f->dir);
	snprintf(f->disk, sizeof(f->disk), "%s/disks/board.img", f->dir);
	/* 64 MiB, data at the start and at 48 MiB, holes between */
	write_at(f->seed, 0, "partition table");
	write_at(f->seed, 48 << 20, "root filesystem");
	assert_int_equal(truncate(f->seed, 64 << 20), 0);
	f->d = (struct board_disk){ .id = "nvme0", .interface = "nvme", .file = f->disk,
				    .seed = f->seed };
	f->q = (struct board_qemu){ .disks = &f->d, .n_disks = 1 };
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	assert_int_equal(system(cmd), 0);
	free(f);
	return 0;
}

static void missing_disk_is_copied_sparse(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };
	struct stat st;
	char buf[32];

	assert_int_equal(qemu_create_disks(&f->q, &err), 0);
	assert_int_equal(stat(f->disk, &st), 0);
	assert_int_equal(st.st_size, 64 << 20);
	assert_true(st.st_blocks * 512 < (1 << 20));    /* the holes stayed holes */
	read_at(f->disk, 0, buf, 15);
	assert_string_equal(buf, "partition table");
	read_at(f->disk, 48 << 20, buf, 15);
	assert_string_equal(buf, "root filesystem");
}

static void newer_disk_is_kept_older_is_replaced(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };
	char buf[32];

	assert_int_equal(qemu_create_disks(&f->q, &err), 0);
	write_at(f->disk, 0, "board's own data");      /* what the board wrote since */
	set_mtime(f->seed, 1000000000);
	set_mtime(f->disk, 1000000100);
	assert_int_equal(qemu_create_disks(&f->q, &err), 0);
	read_at(f->disk, 0, buf, 16);
	assert_string_equal(buf, "board's own data");
	set_mtime(f->seed, 1000000200);                  /* the image was rebuilt */
	assert_int_equal(qemu_create_disks(&f->q, &err), 0);
	read_at(f->disk, 0, buf, 15);
	assert_string_equal(buf, "partition table");
}

static void missing_seed_says_what_builds_it(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };

	assert_int_equal(unlink(f->seed), 0);
	assert_int_equal(qemu_create_disks(&f->q, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_INFRA);
	assert_non_null(strstr(err.msg, f->seed));
	assert_non_null(strstr(err.msg, "make image-debian"));
	assert_int_equal(access(f->disk, F_OK), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(missing_disk_is_copied_sparse, setup, teardown),
		cmocka_unit_test_setup_teardown(newer_disk_is_kept_older_is_replaced, setup, teardown),
		cmocka_unit_test_setup_teardown(missing_seed_says_what_builds_it, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
