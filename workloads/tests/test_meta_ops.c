/* The metadata writer's operations and their verifier: every prefix of a group is recognised,
 * then negative controls: each kind of lost operation (a rename, an xattr, a hole punch, an
 * unlink undone, an O_DIRECT write, a whole group) and damaged data must be reported. */
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
#include <sys/xattr.h>
#include <unistd.h>

#include "lib/meta_ops.h"

struct fixture {
	char dir[256];
	int fd;
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	const char *tmp = getenv("TMPDIR");

	if (!fx)
		return -1;
	snprintf(fx->dir, sizeof(fx->dir), "%s/meta-ops-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(fx->dir) || (fx->fd = open(fx->dir, O_RDONLY | O_DIRECTORY)) < 0)
		return -1;
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	char cmd[300];

	close(fx->fd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fx->dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", fx->dir);
	free(fx);
	return 0;
}

static void apply(int fd, uint64_t from, uint64_t to)
{
	struct wl_err err = {{0}};

	for (uint64_t k = from; k <= to; k++)
		if (meta_apply(fd, k, &err) != 0)
			fail_msg("operation %llu: %s", (unsigned long long)k, err.msg);
}

static struct jv_result scan(int fd)
{
	struct wl_err err = {{0}};
	struct jv_result r;

	assert_int_equal(meta_scan(fd, &r, &err), 0);
	return r;
}

static void all_operations_visible(void **state)
{
	struct fixture *fx = *state;
	struct jv_result r;
	int id = openat(fx->fd, META_ID_FILE, O_WRONLY | O_CREAT, 0644);

	assert_true(id >= 0);
	assert_int_equal(write(id, "nvme-ext4-x1a\n", 14), 14);
	close(id);
	apply(fx->fd, 1, 45);   /* 5 whole groups and 5 operations of the sixth */
	r = scan(fx->fd);
	assert_int_equal(r.valid_prefix, 45);
	assert_int_equal(r.records, 45);
	assert_int_equal(r.holes, 0);
	assert_int_equal(r.corrupt, 0);
	assert_int_equal(r.first_problem, 0);
	assert_string_equal(r.id, "nvme-ext4-x1a");
}

/* Group 1 stopped after each of its operations in turn: that prefix is what the verifier sees. */
static void every_prefix_is_recognised(void **state)
{
	struct fixture *fx = *state;

	for (unsigned p = 0; p <= META_OPS_PER_GROUP; p++) {
		char sub[16];
		int fd, corrupt;

		snprintf(sub, sizeof(sub), "p%u", p);
		assert_int_equal(mkdirat(fx->fd, sub, 0755), 0);
		fd = openat(fx->fd, sub, O_RDONLY | O_DIRECTORY);
		assert_true(fd >= 0);
		apply(fd, 1, META_OPS_PER_GROUP + p);
		assert_int_equal(meta_group_state(fd, 0, &corrupt), META_OPS_PER_GROUP);
		assert_int_equal(meta_group_state(fd, 1, &corrupt), p);
		assert_int_equal(corrupt, 0);
		assert_int_equal(scan(fd).valid_prefix, META_OPS_PER_GROUP + p);
		close(fd);
	}
}

static void path(const struct fixture *fx, const char *name, char *buf, size_t size)
{
	snprintf(buf, size, "%s/%s", fx->dir, name);
}

/* An undone operation lowers its group's prefix (the last group, still being written), or leaves
 * a state no prefix fits (later operations are there): damaged. Either way acknowledged
 * operations after it are missing. */
static void lost_operations_are_reported(void **state)
{
	struct fixture *fx = *state;
	char a[300], b[300];
	struct jv_result r;
	int corrupt;

	apply(fx->fd, 1, 36);                           /* groups 0..3 whole, group 4 up to its xattr */
	path(fx, "r4", a, sizeof(a));
	assert_int_equal(removexattr(a, "user.rig"), 0);  /* group 4: its xattr lost */
	assert_int_equal(meta_group_state(fx->fd, 4, &corrupt), 3);
	assert_int_equal(corrupt, 0);
	path(fx, "r1", a, sizeof(a));
	assert_int_equal(removexattr(a, "user.rig"), 0);  /* group 1: the same, with later ones there */
	assert_int_equal(meta_group_state(fx->fd, 1, &corrupt), 0);
	assert_int_equal(corrupt, 1);
	path(fx, "r2", a, sizeof(a));
	path(fx, "c2", b, sizeof(b));
	assert_int_equal(rename(a, b), 0);              /* group 2: the rename lost */
	assert_int_equal(meta_group_state(fx->fd, 2, &corrupt), 0);
	assert_int_equal(corrupt, 1);
	path(fx, "r3", a, sizeof(a));                   /* group 3: the unlink lost */
	path(fx, "l3", b, sizeof(b));
	assert_int_equal(link(a, b), 0);
	assert_int_equal(meta_group_state(fx->fd, 3, &corrupt), 7);
	r = scan(fx->fd);
	assert_int_equal(r.valid_prefix, 8);
	assert_int_equal(r.records, 8 + 0 + 0 + 7 + 3);
	assert_int_equal(r.holes, 35 - r.records);
	assert_int_equal(r.corrupt, 2);
	assert_int_equal(r.first_problem, 9);
}

static void lost_hole_punch_direct_write_and_group(void **state)
{
	struct fixture *fx = *state;
	unsigned char block[META_BLOCK];
	char a[300];
	int corrupt, fd;

	apply(fx->fd, 1, 24);
	path(fx, "r0", a, sizeof(a));                   /* group 0: the O_DIRECT block lost */
	memset(block, 0, sizeof(block));
	fd = open(a, O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, block, sizeof(block), 3 * META_BLOCK), (ssize_t)sizeof(block));
	close(fd);
	assert_int_equal(meta_group_state(fx->fd, 0, &corrupt), 0);   /* l0 gone but block 3 not */
	assert_int_equal(corrupt, 1);
	path(fx, "r1", a, sizeof(a));                   /* group 1: the hole filled again */
	fd = open(a, O_WRONLY);
	assert_true(fd >= 0);
	memset(block, 0xee, sizeof(block));
	assert_int_equal(pwrite(fd, block, sizeof(block), META_BLOCK), (ssize_t)sizeof(block));
	close(fd);
	assert_int_equal(meta_group_state(fx->fd, 1, &corrupt), 0);
	path(fx, "r2", a, sizeof(a));                   /* group 2 gone entirely */
	assert_int_equal(unlink(a), 0);
	assert_int_equal(meta_group_state(fx->fd, 2, &corrupt), 0);
	assert_int_equal(corrupt, 0);
	assert_int_equal(scan(fx->fd).valid_prefix, 0);
	assert_int_equal(scan(fx->fd).holes, 0);   /* nothing visible above what is missing */
}

/* A file whose data is wrong fits no prefix: corrupt, and the prefix stops there. */
static void damaged_data_is_corrupt(void **state)
{
	struct fixture *fx = *state;
	char a[300];
	struct jv_result r;
	int fd;

	apply(fx->fd, 1, 16);
	path(fx, "r0", a, sizeof(a));
	fd = open(a, O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, "garbage", 7, 100), 7);
	close(fd);
	r = scan(fx->fd);
	assert_int_equal(r.corrupt, 1);
	assert_int_equal(r.valid_prefix, 0);
	assert_int_equal(r.first_problem, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(all_operations_visible, setup, teardown),
		cmocka_unit_test_setup_teardown(every_prefix_is_recognised, setup, teardown),
		cmocka_unit_test_setup_teardown(lost_operations_are_reported, setup, teardown),
		cmocka_unit_test_setup_teardown(lost_hole_punch_direct_write_and_group, setup, teardown),
		cmocka_unit_test_setup_teardown(damaged_data_is_corrupt, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
