/* Per-board lock: one holder, a clear message naming it, and release when the holder dies. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ftw.h>
#include <signal.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/lease.h"
#include "engine/lock.h"

struct fixture {
	char dir[64];
};

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/test_lock.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	int ret = nftw(f->dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);

	free(f);
	return ret;
}

static struct board_lock *acquire_ok(const char *board, const char *dir)
{
	struct rig_err err = { 0 };
	struct board_lock *lock = NULL;

	if (board_lock_acquire(board, dir, &lock, &err))
		fail_msg("acquire %s: %s", board, err.msg);
	return lock;
}

static void read_all(int fd, char *buf, size_t len)
{
	size_t n = 0;
	ssize_t r;

	while (n < len - 1 && (r = read(fd, buf + n, len - 1 - n)) > 0)
		n += (size_t)r;
	buf[n] = '\0';
}

/*
 * Child: wait for the parent to take the lock, try it, send the error message (or "ACQUIRED") up
 * the pipe, exit with the error class. Forked before the parent locks, so it inherits nothing.
 */
static void child_try_lock(const char *dir, int go_fd, int out_fd)
{
	struct rig_err err = { 0 };
	struct board_lock *lock = NULL;
	const char *msg;
	char c;

	if (read(go_fd, &c, 1) != 1)
		_exit(101);
	if (board_lock_acquire("qemu", dir, &lock, &err) == 0) {
		board_lock_release(lock);
		msg = "ACQUIRED";
	} else {
		msg = err.msg;
	}
	if (write(out_fd, msg, strlen(msg)) != (ssize_t)strlen(msg))
		_exit(100);
	_exit(lock ? 0 : (int)err.class);
}

static void test_holder_writes_its_pid(void **state)
{
	struct fixture *f = *state;
	struct board_lock *lock = acquire_ok("qemu", f->dir);
	json_t *info = json_load_file(board_lock_path(lock), 0, NULL);
	char expect[256];

	snprintf(expect, sizeof(expect), "%s/qemu.lock", f->dir);
	assert_string_equal(board_lock_path(lock), expect);
	assert_non_null(info);
	assert_int_equal(json_integer_value(json_object_get(info, "pid")), getpid());
	assert_non_null(strstr(json_string_value(json_object_get(info, "cmdline")), "test_lock"));
	assert_string_equal(json_string_value(json_object_get(info, "board")), "qemu");
	json_decref(info);
	board_lock_release(lock);
}

static void test_second_acquirer_is_told_who_holds_it(void **state)
{
	struct fixture *f = *state;
	struct board_lock *lock;
	char msg[1024], expect[64];
	int fds[2], go[2], status;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	assert_int_equal(pipe(go), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fds[0]), close(go[1]);
		child_try_lock(f->dir, go[0], fds[1]);
	}
	close(fds[1]), close(go[0]);
	lock = acquire_ok("qemu", f->dir);
	assert_int_equal(write(go[1], "G", 1), 1);
	close(go[1]);
	read_all(fds[0], msg, sizeof(msg));
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), RIG_EXIT_INFRA);
	snprintf(expect, sizeof(expect), "board qemu is locked by pid %d (", (int)getpid());
	assert_non_null(strstr(msg, expect));
	assert_non_null(strstr(msg, "test_lock"));
	assert_non_null(strstr(msg, ") of user "));
	assert_non_null(strstr(msg, " on host "));
	assert_non_null(strstr(msg, " since 2"));
	board_lock_release(lock);
}

/* Child: take the lock, say so, and hold it until killed. */
static void child_hold_lock(const char *dir, int ready_fd)
{
	struct rig_err err = { 0 };
	struct board_lock *lock = NULL;

	if (board_lock_acquire("qemu", dir, &lock, &err))
		_exit(1);
	if (write(ready_fd, "R", 1) != 1)
		_exit(2);
	for (;;)
		pause();
}

static void test_lock_of_dead_holder_is_free(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };
	struct board_lock *lock = NULL;
	int ready[2], status;
	char c, expect[64];
	pid_t pid;

	assert_int_equal(pipe(ready), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(ready[0]);
		child_hold_lock(f->dir, ready[1]);
	}
	close(ready[1]);
	assert_int_equal(read(ready[0], &c, 1), 1);
	assert_int_equal(board_lock_acquire("qemu", f->dir, &lock, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_INFRA);
	snprintf(expect, sizeof(expect), "locked by pid %d ", (int)pid);
	assert_non_null(strstr(err.msg, expect));
	/* SIGKILL: no release, no cleanup; the kernel alone must drop the flock. */
	assert_int_equal(kill(pid, SIGKILL), 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	close(ready[0]);
	assert_non_null(strstr(err.msg, "lock file"));  /* the stale file is still there ... */
	board_lock_release(acquire_ok("qemu", f->dir));  /* ... and does not block */
}

static void test_same_process_cannot_lock_twice(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };
	struct board_lock *first = acquire_ok("qemu", f->dir), *second = NULL;

	assert_int_equal(board_lock_acquire("qemu", f->dir, &second, &err), -1);
	assert_null(second);
	board_lock_release(acquire_ok("other-board", f->dir));  /* other boards are independent */
	board_lock_release(first);
	board_lock_release(acquire_ok("qemu", f->dir));
}

static void test_bad_board_names_are_refused(void **state)
{
	struct fixture *f = *state;
	static const char *const bad[] = { "../etc/passwd", "a/b", ".hidden", "", "sp ace" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct rig_err err = { 0 };
		struct board_lock *lock = NULL;

		assert_int_equal(board_lock_acquire(bad[i], f->dir, &lock, &err), -1);
		assert_int_equal(err.class, RIG_EXIT_USAGE);
		assert_null(lock);
	}
}

static void test_lock_dir_comes_from_environment(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };
	struct board_lock *lock = NULL;
	char sub[128], dir[256], expect[300];
	struct stat st;

	snprintf(sub, sizeof(sub), "%s/locks", f->dir);
	assert_int_equal(setenv("RIG_LOCK_DIR", sub, 1), 0);
	assert_int_equal(board_lock_dir(dir, sizeof(dir), &err), 0);
	assert_string_equal(dir, sub);
	assert_int_equal(stat(sub, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(board_lock_acquire("qemu", NULL, &lock, &err), 0);
	snprintf(expect, sizeof(expect), "%s/qemu.lock", sub);
	assert_string_equal(board_lock_path(lock), expect);
	board_lock_release(lock);
	assert_int_equal(unsetenv("RIG_LOCK_DIR"), 0);
}

/* Any lab user must be able to lock the file later: 0666 whatever the creator's umask. */
static void test_lock_file_is_lockable_by_everyone(void **state)
{
	struct fixture *f = *state;
	mode_t old = umask(077);
	struct board_lock *lock = acquire_ok("qemu", f->dir);
	char path[256];
	struct stat st;

	umask(old);
	snprintf(path, sizeof(path), "%s/qemu.lock", f->dir);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0666);
	board_lock_release(lock);
	/* a file left 0644 by an older rig (ours) is opened up too */
	assert_int_equal(chmod(path, 0644), 0);
	lock = acquire_ok("qemu", f->dir);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0666);
	board_lock_release(lock);
}

/* A FIFO planted as the lock file neither hangs the rig nor counts as a lock. */
static void test_lock_file_must_be_a_regular_file(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };
	struct board_lock *lock = NULL;
	char path[256];

	snprintf(path, sizeof(path), "%s/qemu.lock", f->dir);
	assert_int_equal(mkfifo(path, 0666), 0);
	assert_int_equal(board_lock_acquire("qemu", f->dir, &lock, &err), -1);
	assert_null(lock);
	assert_non_null(strstr(err.msg, "is not a regular file"));
}

/* A made-up process tree: 100 is lava-run, 101 its `rig lock` (connection or QEMU), 102 a sibling
 * `rig power`; 200 a shell elsewhere. */
static long fake_ppid(long pid)
{
	return pid == 101 || pid == 102 ? 100 : pid == 201 ? 200 : -1;
}

static void test_lease_shared_only_with_its_session(void **state)
{
	const char *lease = "/usr/bin/rig lock --board qemu --wait 600 -- qemu-system-x86_64 -m 768";

	(void)state;
	/* a sibling (same dispatcher) and a child of the lease share it */
	assert_true(board_lease_shareable(101, lease, 100, fake_ppid));
	assert_true(board_lease_shareable(101, lease, 101, fake_ppid));
	/* anyone else does not */
	assert_false(board_lease_shareable(201, lease, 100, fake_ppid));
	assert_false(board_lease_shareable(101, lease, 200, fake_ppid));
	/* rig run, rig boot, a program merely named like rig: exclusive */
	assert_false(board_lease_shareable(101, "/usr/bin/rig run --board qemu --plan smoke", 100,
					   fake_ppid));
	assert_false(board_lease_shareable(101, "/opt/trig lock --board qemu -- x", 100, fake_ppid));
	assert_false(board_lease_shareable(101, "rig lock", 100, fake_ppid));
	assert_true(board_lease_shareable(101, "rig lock --board qemu -- sleep 1", 100, fake_ppid));
	/* init is nobody's session */
	assert_false(board_lease_shareable(1, lease, 1, fake_ppid));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_holder_writes_its_pid, setup, teardown),
		cmocka_unit_test_setup_teardown(test_second_acquirer_is_told_who_holds_it, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_lock_of_dead_holder_is_free, setup, teardown),
		cmocka_unit_test_setup_teardown(test_same_process_cannot_lock_twice, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_board_names_are_refused, setup, teardown),
		cmocka_unit_test(test_lease_shared_only_with_its_session),
		cmocka_unit_test_setup_teardown(test_lock_file_is_lockable_by_everyone, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lock_file_must_be_a_regular_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lock_dir_comes_from_environment, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
