/*
 * Who holds a board's lock file (engine/lock.h). Two sources, because neither is enough alone:
 * the record the holder writes into the file (pid, user, host, command line, since; it also
 * works across hosts sharing the directory), and the kernel's own table of flocks, /proc/locks,
 * which names the pid that really holds the file on this host even when the holder could not
 * write its record (a lock file another user left behind, writable only by them) or crashed
 * before emptying it.
 */
#ifndef RIG_ENGINE_LOCK_HOLDER_H
#define RIG_ENGINE_LOCK_HOLDER_H

#include <stddef.h>
#include <sys/types.h>

struct lock_holder {
	long pid;
	char user[64];
	char host[128];
	char cmdline[512];
	char since[32];
	int from_record;    /* 1: the holder's own record; 0: pieced together from /proc */
};

/* Write this process's record into fd (truncating it). 0, or -1 with errno. */
int lock_holder_write(int fd, const char *board);

/* The pid holding an flock on the file open as fd, from /proc/locks: > 0, or 0 when no process
 * on this host holds one (or /proc/locks cannot be read). */
long lock_holder_flock_pid(int fd);

/*
 * The holder of the flock on fd: 0 from a record that matches the kernel's holder (or names a
 * live process, or another host, when /proc/locks knows none); 1 from /proc only (no matching
 * record yet: the caller may retry, the holder writes it just after locking); -1 unknown.
 */
int lock_holder_find(int fd, struct lock_holder *h);

/* "pid 1234 (rig run --board qemu) of user alice on host lab1 since 2026-12-05 05:10:00" */
void lock_holder_describe(const struct lock_holder *h, char *buf, size_t size);

#endif
