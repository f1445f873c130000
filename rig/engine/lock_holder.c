/* Lock holder records and the kernel's view of who holds a lock file (lock_holder.h). */
#include "engine/lock_holder.h"
#include "util/account.h"

#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#define RECORD_MAX 4096

/* A process's command line from /proc/PID/cmdline, its NULs as spaces; "?" when unreadable. */
static void read_cmdline(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
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

static void host_name(char *buf, size_t size)
{
	if (gethostname(buf, size) != 0)
		snprintf(buf, size, "?");
	buf[size - 1] = '\0';
}

static void format_time(time_t t, char *buf, size_t size)
{
	struct tm tm;

	if (!localtime_r(&t, &tm) || !strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(buf, size, "?");
}

int lock_holder_write(int fd, const char *board)
{
	char cmdline[512], since[32], user[64], host[128];
	time_t now = time(NULL);
	json_t *info;
	char *text;
	ssize_t n;
	size_t len;

	read_cmdline("/proc/self/cmdline", cmdline, sizeof(cmdline));
	format_time(now, since, sizeof(since));
	account_user_name(getuid(), user, sizeof(user));
	host_name(host, sizeof(host));
	/* pid first: scripts wait for "\"pid\":N," to know a holder is in place */
	info = json_pack("{sisssssisssssssI}", "pid", (int)getpid(), "board", board, "user", user,
			 "uid", (int)getuid(), "host", host, "cmdline", cmdline, "since", since,
			 "started_at", (json_int_t)now);
	text = info ? json_dumps(info, JSON_COMPACT) : NULL;
	json_decref(info);
	if (!text) {
		errno = ENOMEM;
		return -1;
	}
	len = strlen(text);
	n = ftruncate(fd, 0) == 0 ? pwrite(fd, text, len, 0) : -1;
	free(text);
	if (n >= 0 && (size_t)n != len)
		errno = EIO;
	return n >= 0 && (size_t)n == len ? 0 : -1;
}

long lock_holder_flock_pid(int fd)
{
	struct stat st;
	char line[256];
	long found = 0;
	FILE *f;

	if (fstat(fd, &st) != 0 || !(f = fopen("/proc/locks", "re")))
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned maj, min;
		unsigned long ino;
		long pid;
		char kind[16];

		/* "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF"; waiters are "1: -> FLOCK ..." */
		if (sscanf(line, "%*d: %15s %*s %*s %ld %x:%x:%lu", kind, &pid, &maj, &min, &ino) == 5 &&
		    strcmp(kind, "FLOCK") == 0 && maj == major(st.st_dev) && min == minor(st.st_dev) &&
		    ino == (unsigned long)st.st_ino)
			found = pid;
	}
	fclose(f);
	return found;
}

static int alive(long pid)
{
	/* EPERM: it exists, it is another user's */
	return pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
}

static void copy_string(json_t *info, const char *key, char *buf, size_t size)
{
	const char *s = json_string_value(json_object_get(info, key));

	snprintf(buf, size, "%s", s ? s : "?");
}

static json_t *read_record(int fd)
{
	char buf[RECORD_MAX];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	return json_loads(buf, 0, NULL);
}

/* A process's start time: /proc/PID/stat field 22 (clock ticks after boot) plus boot time. */
static void process_since(long pid, char *buf, size_t size)
{
	char path[64], text[1024], *p;
	unsigned long long start = 0, btime = 0;
	FILE *f;
	size_t n;

	snprintf(buf, size, "?");
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if (!(f = fopen(path, "re")))
		return;
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	/* the command name may hold spaces and parentheses: fields start after the last ')' */
	if (!(p = strrchr(text, ')')) ||
	    sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d "
		   "%*d %llu", &start) != 1)
		return;
	if (!(f = fopen("/proc/stat", "re")))
		return;
	while (fgets(text, sizeof(text), f))
		if (sscanf(text, "btime %llu", &btime) == 1)
			break;
	fclose(f);
	if (btime && sysconf(_SC_CLK_TCK) > 0)
		format_time((time_t)(btime + start / (unsigned long long)sysconf(_SC_CLK_TCK)), buf,
			    size);
}

static void from_proc(long pid, struct lock_holder *h)
{
	char path[64];
	struct stat st;

	memset(h, 0, sizeof(*h));
	h->pid = pid;
	snprintf(path, sizeof(path), "/proc/%ld", pid);
	if (stat(path, &st) == 0)
		account_user_name(st.st_uid, h->user, sizeof(h->user));
	else
		snprintf(h->user, sizeof(h->user), "?");
	host_name(h->host, sizeof(h->host));
	snprintf(path, sizeof(path), "/proc/%ld/cmdline", pid);
	read_cmdline(path, h->cmdline, sizeof(h->cmdline));
	process_since(pid, h->since, sizeof(h->since));
}

int lock_holder_find(int fd, struct lock_holder *h)
{
	long kernel_pid = lock_holder_flock_pid(fd);
	json_t *info = read_record(fd), *pid = json_object_get(info, "pid");
	char here[128];
	int ok = 0;

	memset(h, 0, sizeof(*h));
	if (json_is_integer(pid)) {
		h->pid = (long)json_integer_value(pid);
		copy_string(info, "user", h->user, sizeof(h->user));
		copy_string(info, "host", h->host, sizeof(h->host));
		copy_string(info, "cmdline", h->cmdline, sizeof(h->cmdline));
		copy_string(info, "since", h->since, sizeof(h->since));
		h->from_record = 1;
		host_name(here, sizeof(here));
		/* A record from another host sharing the directory cannot be checked from here. */
		if (strcmp(h->host, "?") != 0 && strcmp(h->host, here) != 0)
			ok = 1;
		else
			ok = kernel_pid ? h->pid == kernel_pid : alive(h->pid);
	}
	json_decref(info);
	if (ok)
		return 0;
	if (kernel_pid > 0) {
		from_proc(kernel_pid, h);
		return 1;
	}
	return -1;
}

void lock_holder_describe(const struct lock_holder *h, char *buf, size_t size)
{
	snprintf(buf, size, "pid %ld (%s) of user %s on host %s since %s", h->pid, h->cmdline,
		 h->user, h->host, h->since);
}
