#include "engine/lease.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/number.h"

#define RETRY_MS 500

/* The holder's program is rig and its command `lock`: "/usr/bin/rig lock --board ..." */
static int is_rig_lock(const char *cmdline)
{
	const char *end = strchr(cmdline, ' ');
	const char *base;
	size_t n;

	if (!end)
		return 0;
	n = (size_t)(end - cmdline);
	base = memrchr(cmdline, '/', n);
	base = base ? base + 1 : cmdline;
	return (size_t)(end - base) == 3 && !strncmp(base, "rig", 3) && !strncmp(end, " lock ", 6);
}

int board_lease_shareable(long holder, const char *holder_cmdline, long self_parent,
			  long (*ppid_of)(long pid))
{
	long holder_parent;

	if (holder <= 1 || !is_rig_lock(holder_cmdline))
		return 0;
	if (holder == self_parent)
		return 1;
	holder_parent = ppid_of(holder);
	return holder_parent > 1 && holder_parent == self_parent;
}

static long proc_ppid(long pid)
{
	char path[64], buf[512], *p = NULL;
	long long ppid = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if (!(f = fopen(path, "re")))
		return -1;
	/* "pid (comm) state ppid ...": comm may hold spaces and parentheses, so go from the last ')' */
	if (fgets(buf, sizeof(buf), f))
		p = strrchr(buf, ')');
	fclose(f);
	if (!p || p[1] != ' ' || !p[2] || p[3] != ' ')
		return -1;
	p += 4;
	p[strcspn(p, " ")] = '\0';
	return parse_number(p, 0, LONG_MAX, &ppid) < 0 ? -1 : (long)ppid;
}

int board_lease_take(const char *board_name, double wait_s, struct board_lease *lease,
		     struct rig_err *err)
{
	double deadline = monotonic_seconds() + wait_s;
	int said = 0;

	lease->lock = NULL;
	lease->shared_with = 0;
	for (;;) {
		char cmdline[512];
		long holder;

		if (board_lock_acquire(board_name, NULL, &lease->lock, err) == 0)
			return 0;
		if (err->class != RIG_EXIT_INFRA || !strstr(err->msg, " is locked by "))
			return -1;
		if (board_lock_holder(board_name, NULL, &holder, cmdline, sizeof(cmdline)) == 0 &&
		    board_lease_shareable(holder, cmdline, (long)getppid(), proc_ppid)) {
			lease->shared_with = holder;
			return 0;
		}
		if (monotonic_seconds() + RETRY_MS / 1e3 > deadline)
			return -1;
		if (!said++)
			fprintf(stderr, "rig: waiting up to %.0f s: %s\n", wait_s, err->msg);
		clock_sleep_ms(RETRY_MS);
	}
}

void board_lease_release(struct board_lease *lease)
{
	board_lock_release(lease->lock);
	lease->lock = NULL;
	lease->shared_with = 0;
}
