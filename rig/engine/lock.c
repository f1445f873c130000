#include "engine/lock.h"
#include "util/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define HOLDER_MAX 4096        /* bytes of holder info read back */
#define CMDLINE_MAX 512
#define READ_RETRIES 10        /* the holder writes its info just after taking the lock */
#define READ_RETRY_MS 20

struct board_lock {
	int fd;
	char *path;
};

/* Board names become file names: keep them to a safe alphabet (no '/', no "..", no hidden files). */
static int check_board_name(const char *name, struct rig_err *err)
{
	if (!name || !*name || name[0] == '.' || strlen(name) > 128 ||
	    name[strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")])
		return rig_err_set(err, RIG_EXIT_USAGE, "board name '%s' cannot name a lock file "
				   "(use letters, digits, '.', '_', '-')", name ? name : "");
	return 0;
}

static int ensure_dir(const char *dir, mode_t mode)
{
	if (mkdir(dir, mode) == 0)
		return chmod(dir, mode);  /* umask must not take the sticky/shared bits away */
	return errno == EEXIST ? 0 : -1;
}

/* /tmp is shared: only accept a real directory we own, never a symlink someone planted. */
static int ensure_private_dir(const char *dir)
{
	struct stat st;

	if (ensure_dir(dir, 0700) || lstat(dir, &st))
		return -1;
	if (!S_ISDIR(st.st_mode) || st.st_uid != getuid()) {
		errno = EPERM;
		return -1;
	}
	return 0;
}

static int use_dir(char *buf, size_t len, const char *dir, struct rig_err *err)
{
	if ((size_t)snprintf(buf, len, "%s", dir) >= len)
		return rig_err_set(err, RIG_EXIT_USAGE, "lock dir '%s' is too long", dir);
	return 0;
}

int board_lock_dir(char *buf, size_t len, struct rig_err *err)
{
	const char *env = getenv("RIG_LOCK_DIR");
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	char path[4096];

	if (env && *env) {
		if (ensure_dir(env, 0755))
			return rig_err_set(err, RIG_EXIT_INFRA, "RIG_LOCK_DIR %s: %s", env,
					   strerror(errno));
		return use_dir(buf, len, env, err);
	}
	/* Shared by every user of the lab host, so sticky and world-writable like /tmp. */
	if (ensure_dir(BOARD_LOCK_SYSTEM_DIR, 01777) == 0 && access(BOARD_LOCK_SYSTEM_DIR, W_OK) == 0)
		return use_dir(buf, len, BOARD_LOCK_SYSTEM_DIR, err);
	if (xdg && *xdg) {
		snprintf(path, sizeof(path), "%s/suspend-rig", xdg);
		if (ensure_dir(path, 0700) == 0 && access(path, W_OK) == 0)
			return use_dir(buf, len, path, err);
	}
	snprintf(path, sizeof(path), "/tmp/suspend-rig-%u", (unsigned)getuid());
	if (ensure_private_dir(path))
		return rig_err_set(err, RIG_EXIT_INFRA, "lock dir %s: %s", path, strerror(errno));
	return use_dir(buf, len, path, err);
}

static void own_cmdline(char *buf, size_t len)
{
	FILE *f = fopen("/proc/self/cmdline", "re");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	while (n > 0 && buf[n - 1] == '\0')
		n--;
	for (size_t i = 0; i < n; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	buf[n] = '\0';
	if (n == 0)
		snprintf(buf, len, "?");
}

static int write_holder(struct board_lock *lock, const char *board, struct rig_err *err)
{
	char cmdline[CMDLINE_MAX], since[32];
	time_t now = time(NULL);
	struct tm tm;
	json_t *info;
	char *text;
	int ret = 0;

	own_cmdline(cmdline, sizeof(cmdline));
	if (!localtime_r(&now, &tm) || !strftime(since, sizeof(since), "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(since, sizeof(since), "?");
	info = json_pack("{sisssssssI}", "pid", (int)getpid(), "board", board, "cmdline", cmdline,
			 "since", since, "started_at", (json_int_t)now);
	text = info ? json_dumps(info, JSON_COMPACT) : NULL;
	json_decref(info);
	if (!text)
		return rig_err_set(err, RIG_EXIT_INFRA, "lock %s: out of memory", lock->path);
	if (ftruncate(lock->fd, 0) || pwrite(lock->fd, text, strlen(text), 0) != (ssize_t)strlen(text))
		ret = rig_err_set(err, RIG_EXIT_INFRA, "lock %s: writing holder info: %s", lock->path,
				  strerror(errno));
	free(text);
	return ret;
}

/* The holder's info, or NULL while it has not been written yet. */
static json_t *read_holder_once(int fd)
{
	char buf[HOLDER_MAX];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	return json_loads(buf, 0, NULL);
}

static json_t *read_holder(int fd)
{
	json_t *info = NULL;

	for (int i = 0; i < READ_RETRIES && !info; i++) {
		info = read_holder_once(fd);
		if (!info)
			clock_sleep_ms(READ_RETRY_MS);
	}
	return info;
}

static const char *string_or(json_t *info, const char *key, const char *fallback)
{
	const char *s = json_string_value(json_object_get(info, key));

	return s ? s : fallback;
}

static int busy_error(int fd, const char *board, const char *path, struct rig_err *err)
{
	json_t *info = read_holder(fd);
	json_t *pid = json_object_get(info, "pid");
	int ret;

	if (json_is_integer(pid))
		ret = rig_err_set(err, RIG_EXIT_INFRA,
				  "board %s is locked by pid %" JSON_INTEGER_FORMAT " (%s) since %s "
				  "(lock file %s)", board, json_integer_value(pid),
				  string_or(info, "cmdline", "?"), string_or(info, "since", "?"), path);
	else
		ret = rig_err_set(err, RIG_EXIT_INFRA, "board %s is locked by another process "
				  "(holder unknown; lock file %s)", board, path);
	json_decref(info);
	return ret;
}

static int take_flock(int fd)
{
	int rc;

	do
		rc = flock(fd, LOCK_EX | LOCK_NB);
	while (rc != 0 && errno == EINTR);
	return rc;
}

static int open_lock_file(struct board_lock *lock, const char *board, const char *dir,
			  struct rig_err *err)
{
	if (asprintf(&lock->path, "%s/%s.lock", dir, board) < 0) {
		lock->path = NULL;
		return rig_err_set(err, RIG_EXIT_INFRA, "lock: out of memory");
	}
	lock->fd = open(lock->path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (lock->fd < 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "lock file %s: %s", lock->path,
				   strerror(errno));
	return 0;
}

static int lock_board(struct board_lock *lock, const char *board, const char *dir,
		      struct rig_err *err)
{
	if (open_lock_file(lock, board, dir, err))
		return -1;
	if (take_flock(lock->fd) == 0)
		return write_holder(lock, board, err);
	if (errno == EWOULDBLOCK)
		return busy_error(lock->fd, board, lock->path, err);
	return rig_err_set(err, RIG_EXIT_INFRA, "lock file %s: flock: %s", lock->path,
			   strerror(errno));
}

int board_lock_acquire(const char *board_name, const char *lock_dir, struct board_lock **out,
		       struct rig_err *err)
{
	char dir[4096];
	struct board_lock *lock;

	*out = NULL;
	if (check_board_name(board_name, err))
		return -1;
	if (lock_dir && ensure_dir(lock_dir, 0755))
		return rig_err_set(err, RIG_EXIT_INFRA, "lock dir %s: %s", lock_dir, strerror(errno));
	if (!lock_dir && board_lock_dir(dir, sizeof(dir), err))
		return -1;
	lock = calloc(1, sizeof(*lock));
	if (!lock)
		return rig_err_set(err, RIG_EXIT_INFRA, "lock: out of memory");
	lock->fd = -1;
	if (lock_board(lock, board_name, lock_dir ? lock_dir : dir, err)) {
		if (lock->fd >= 0)
			close(lock->fd);
		free(lock->path);
		free(lock);
		return -1;
	}
	*out = lock;
	return 0;
}

void board_lock_release(struct board_lock *lock)
{
	if (!lock)
		return;
	/*
	 * Empty the file but never unlink it: a waiter may already hold a descriptor to this inode,
	 * and unlinking would let two rigs lock two different files for the same board.
	 */
	if (ftruncate(lock->fd, 0) != 0) {
		/* Harmless: the info is only read while someone holds the lock, and we are leaving. */
	}
	close(lock->fd);  /* closing drops the flock */
	free(lock->path);
	free(lock);
}

const char *board_lock_path(const struct board_lock *lock)
{
	return lock->path;
}

int board_lock_keep_on_exec(struct board_lock *lock, struct rig_err *err)
{
	int flags = fcntl(lock->fd, F_GETFD);

	if (flags < 0 || fcntl(lock->fd, F_SETFD, flags & ~FD_CLOEXEC) < 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "lock file %s: %s", lock->path,
				   strerror(errno));
	return 0;
}

int board_lock_holder(const char *board_name, const char *lock_dir, long *pid, char *cmdline,
		      size_t size)
{
	char dir[4096], *path = NULL;
	struct rig_err ignored;
	json_t *info = NULL, *p;
	int fd, ret = -1;

	if (check_board_name(board_name, &ignored) ||
	    (!lock_dir && board_lock_dir(dir, sizeof(dir), &ignored)) ||
	    asprintf(&path, "%s/%s.lock", lock_dir ? lock_dir : dir, board_name) < 0)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	free(path);
	if (fd < 0)
		return -1;
	/* No flock probe here: even a shared one would make a concurrent acquire fail. A released
	 * lock's file is empty; a crashed holder's names a process that is gone. */
	info = read_holder_once(fd);
	close(fd);
	p = json_object_get(info, "pid");
	if (json_is_integer(p) && kill((pid_t)json_integer_value(p), 0) == 0) {
		*pid = (long)json_integer_value(p);
		snprintf(cmdline, size, "%s", string_or(info, "cmdline", "?"));
		ret = 0;
	}
	json_decref(info);
	return ret;
}
