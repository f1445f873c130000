#include "engine/lock.h"

#include "engine/lock_holder.h"
#include "util/account.h"
#include "util/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define READ_RETRIES 10        /* the holder writes its info just after taking the lock */
#define READ_RETRY_MS 20

struct board_lock {
	int fd;
	char *path;
	struct board_lock *next;   /* more lock files held with this one (board_lock_add) */
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

static int use_dir(char *buf, size_t len, const char *dir, struct rig_err *err)
{
	if ((size_t)snprintf(buf, len, "%s", dir) >= len)
		return rig_err_set(err, RIG_EXIT_USAGE, "lock dir '%s' is too long", dir);
	return 0;
}

int board_lock_dir(char *buf, size_t len, struct rig_err *err)
{
	const char *env = getenv("RIG_LOCK_DIR");

	/* Shared by every user of the lab host, so sticky and world-writable like /tmp. */
	if (env && *env) {
		if (ensure_dir(env, 01777))
			return rig_err_set(err, RIG_EXIT_INFRA, "RIG_LOCK_DIR %s: %s", env,
					   strerror(errno));
		return use_dir(buf, len, env, err);
	}
	/*
	 * No per-user fallback: a lock in a directory only one user sees excludes nobody. An existing
	 * directory we cannot write is still used: its lock files can be locked, and a missing one
	 * is refused naming the directory's mode.
	 */
	if (ensure_dir(BOARD_LOCK_SYSTEM_DIR, 01777))
		return rig_err_set(err, RIG_EXIT_INFRA, "lock dir %s: %s (create it mode 1777, or set "
				   "RIG_LOCK_DIR)", BOARD_LOCK_SYSTEM_DIR, strerror(errno));
	return use_dir(buf, len, BOARD_LOCK_SYSTEM_DIR, err);
}

/* The holder's message, waiting briefly for its record: it writes it just after taking the lock. */
static int busy_error(int fd, const char *what, const char *path, struct rig_err *err)
{
	struct lock_holder h;
	char who[1024];
	int found = -1;

	for (int i = 0; i < READ_RETRIES && found != 0; i++) {
		if (i)
			clock_sleep_ms(READ_RETRY_MS);
		found = lock_holder_find(fd, &h);
	}
	if (found < 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "%s is locked by another process "
				   "(holder unknown; lock file %s)", what, path);
	lock_holder_describe(&h, who, sizeof(who));
	return rig_err_set(err, RIG_EXIT_INFRA, "%s is locked by %s (lock file %s)", what, who,
			   path);
}

static int take_flock(int fd)
{
	int rc;

	do
		rc = flock(fd, LOCK_EX | LOCK_NB);
	while (rc != 0 && errno == EINTR);
	return rc;
}

/* Why a lock file cannot be opened, with what a lab engineer needs to fix it. */
static int open_error(const char *path, int errnum, struct rig_err *err)
{
	struct stat st;
	char owner[64] = "?";

	if (errnum == EACCES && lstat(path, &st) == 0) {
		account_user_name(st.st_uid, owner, sizeof(owner));
		return rig_err_set(err, RIG_EXIT_INFRA, "lock file %s (owner %s, mode %04o) cannot be "
				   "opened by uid %u: every lab user must be able to read it; ask its "
				   "owner or root to remove it (it holds nothing once its holder is gone)", path,
				   owner, (unsigned)(st.st_mode & 07777), (unsigned)getuid());
	}
	if (errnum == EACCES)
		return rig_err_set(err, RIG_EXIT_INFRA, "lock file %s: cannot be created here (%s): "
				   "the lock directory must be mode 1777 so any lab user can lock a "
				   "board", path, strerror(errnum));
	return rig_err_set(err, RIG_EXIT_INFRA, "lock file %s: %s", path, strerror(errnum));
}

/*
 * Open (creating) the board's lock file so that any lab user can lock it: created 0666 whatever
 * the umask, and a file another user left that we may only read is still lockable (flock needs
 * no write access; only our holder record is lost, and /proc/locks names us instead). A FIFO or
 * other non-file planted there is refused; O_NONBLOCK keeps a FIFO from hanging the open.
 */
static int open_lock_file(struct board_lock *lock, struct rig_err *err)
{
	const int flags = O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK;
	struct stat st;

	lock->fd = open(lock->path, O_RDWR | O_CREAT | flags, 0666);
	if (lock->fd < 0 && errno == EACCES)
		lock->fd = open(lock->path, O_RDONLY | flags);
	if (lock->fd < 0)
		return open_error(lock->path, errno, err);
	if (fstat(lock->fd, &st) != 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "lock file %s: %s", lock->path,
				   strerror(errno));
	if (!S_ISREG(st.st_mode))
		return rig_err_set(err, RIG_EXIT_INFRA, "lock file %s is not a regular file: remove it",
				   lock->path);
	/* Ours, e.g. made under umask 022 or by an older rig: let the next user lock it too. */
	if (st.st_uid == geteuid() && (st.st_mode & 0666) != 0666 && fchmod(lock->fd, 0666) != 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "lock file %s: chmod 0666: %s", lock->path,
				   strerror(errno));
	return 0;
}

/* Lock lock->path for what ("board qemu"), recording board as the holder's. */
static int lock_file(struct board_lock *lock, const char *what, const char *board,
		     struct rig_err *err)
{
	if (open_lock_file(lock, err))
		return -1;
	if (take_flock(lock->fd) == 0) {
		/* A file we may only read keeps its old record: /proc/locks names us instead. */
		if ((fcntl(lock->fd, F_GETFL) & O_ACCMODE) == O_RDWR && lock_holder_write(lock->fd, board) != 0)
			return rig_err_set(err, RIG_EXIT_INFRA, "lock %s: writing holder info: %s",
					   lock->path, strerror(errno));
		return 0;
	}
	if (errno == EWOULDBLOCK)
		return busy_error(lock->fd, what, lock->path, err);
	return rig_err_set(err, RIG_EXIT_INFRA, "lock file %s: flock: %s", lock->path,
			   strerror(errno));
}

/*
 * Locks in another directory than the system one (RIG_LOCK_DIR) do not exclude the rigs using
 * the system one: say so when one of those holds this board right now. Only the kernel's table
 * is asked (no flock probe, which would make that rig's next acquire fail).
 */
static void warn_other_place(const char *board, const char *dir)
{
	char ours[PATH_MAX], system[PATH_MAX], who[1024], *path = NULL;
	struct lock_holder h;
	int fd;

	if (!realpath(dir, ours) || !realpath(BOARD_LOCK_SYSTEM_DIR, system) ||
	    strcmp(ours, system) == 0 || asprintf(&path, "%s/%s.lock", system, board) < 0)
		return;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd >= 0 && lock_holder_flock_pid(fd) > 0 && lock_holder_find(fd, &h) >= 0) {
		lock_holder_describe(&h, who, sizeof(who));
		fprintf(stderr, "rig: warning: board %s is also held in the system lock directory by %s "
			"(lock file %s); the lock directory %s is a separate one, so both may drive the "
			"board\n", board, who, path, ours);
	}
	if (fd >= 0)
		close(fd);
	free(path);
}

/* A lock on dir/file for what, or NULL with err. */
static struct board_lock *new_lock(const char *dir, const char *file, const char *what,
				   const char *board, struct rig_err *err)
{
	struct board_lock *lock = calloc(1, sizeof(*lock));

	if (!lock) {
		rig_err_set(err, RIG_EXIT_INFRA, "lock: out of memory");
		return NULL;
	}
	lock->fd = -1;
	if (asprintf(&lock->path, "%s/%s", dir, file) < 0) {
		lock->path = NULL;
		rig_err_set(err, RIG_EXIT_INFRA, "lock: out of memory");
	} else if (lock_file(lock, what, board, err) == 0) {
		return lock;
	}
	if (lock->fd >= 0)
		close(lock->fd);
	free(lock->path);
	free(lock);
	return NULL;
}

int board_lock_acquire(const char *board_name, const char *lock_dir, struct board_lock **out,
		       struct rig_err *err)
{
	char dir[4096], file[160], what[160];

	*out = NULL;
	if (check_board_name(board_name, err))
		return -1;
	if (lock_dir && ensure_dir(lock_dir, 01777))
		return rig_err_set(err, RIG_EXIT_INFRA, "lock dir %s: %s", lock_dir, strerror(errno));
	if (!lock_dir && board_lock_dir(dir, sizeof(dir), err))
		return -1;
	snprintf(file, sizeof(file), "%s.lock", board_name);
	snprintf(what, sizeof(what), "board %s", board_name);
	if (!(*out = new_lock(lock_dir ? lock_dir : dir, file, what, board_name, err)))
		return -1;
	warn_other_place(board_name, lock_dir ? lock_dir : dir);
	return 0;
}

int board_lock_add(struct board_lock *lock, const char *dir, const char *file, const char *what,
		   const char *board, struct rig_err *err)
{
	struct board_lock *extra;

	if (ensure_dir(dir, 01777))
		return rig_err_set(err, RIG_EXIT_INFRA, "lock dir %s: %s", dir, strerror(errno));
	if (!(extra = new_lock(dir, file, what, board, err)))
		return -1;
	extra->next = lock->next;
	lock->next = extra;
	return 0;
}

void board_lock_release(struct board_lock *lock)
{
	if (!lock)
		return;
	board_lock_release(lock->next);
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
	for (; lock; lock = lock->next) {
		int flags = fcntl(lock->fd, F_GETFD);

		if (flags < 0 || fcntl(lock->fd, F_SETFD, flags & ~FD_CLOEXEC) < 0)
			return rig_err_set(err, RIG_EXIT_INFRA, "lock file %s: %s", lock->path,
					   strerror(errno));
	}
	return 0;
}

int board_lock_holder(const char *board_name, const char *lock_dir, long *pid, char *cmdline,
		      size_t size)
{
	char dir[4096], *path = NULL;
	struct rig_err ignored;
	struct lock_holder h;
	int fd, found;

	if (check_board_name(board_name, &ignored) ||
	    (!lock_dir && board_lock_dir(dir, sizeof(dir), &ignored)) ||
	    asprintf(&path, "%s/%s.lock", lock_dir ? lock_dir : dir, board_name) < 0)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	free(path);
	if (fd < 0)
		return -1;
	/* No flock probe here: even a shared one would make a concurrent acquire fail; the
	 * kernel's table (/proc/locks) is read instead. */
	found = lock_holder_find(fd, &h);
	close(fd);
	if (found < 0)
		return -1;
	*pid = h.pid;
	snprintf(cmdline, size, "%s", h.cmdline);
	return 0;
}
