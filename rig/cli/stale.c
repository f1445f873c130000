#include "cli/stale.h"

#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "engine/lock.h"

static const char *this_host(char *buf, size_t len)
{
	if (gethostname(buf, len) != 0)
		return NULL;
	buf[len - 1] = '\0';
	return buf;
}

static int end_stale(struct results_db *db, const struct results_running *run, FILE *note,
		     int *n_fixed, struct rig_err *err)
{
	int changed;

	if (results_run_reconcile(db, run->id, &changed, err))
		return -1;
	if (changed) {
		(*n_fixed)++;
		fprintf(note, "run %lld (board %s): its rig is gone (the board is not locked); "
			"marked aborted\n", (long long)run->id, run->board);
	}
	return 0;
}

int cli_stale_reconcile_board(struct results_db *db, const char *board, FILE *note,
			      struct rig_err *err)
{
	char host[HOST_NAME_MAX + 1];
	const char *me = this_host(host, sizeof(host));
	struct results_running *runs;
	size_t n;
	int ret = 0, fixed = 0;

	if (!me)
		return 0;   /* without our name no run can be told to be ours */
	if (results_running_list(db, board, &runs, &n, err))
		return -1;
	for (size_t i = 0; !ret && i < n; i++)
		if (!strcmp(runs[i].host, me))
			ret = end_stale(db, &runs[i], note, &fixed, err);
	results_running_free(runs, n);
	return ret;
}

/* One running run: ask its board's lock. Busy: its rig (or another) is alive, leave it. */
static int repair_one(struct results_db *db, const struct results_running *run, const char *me,
		      FILE *out, int *n_fixed, struct rig_err *err)
{
	struct board_lock *lock;
	struct rig_err busy = { 0 };
	int ret;

	if (!me || strcmp(run->host, me)) {
		fprintf(out, "run %lld (board %s): left running: it ran on host %s, whose board "
			"locks are not here\n", (long long)run->id, run->board, run->host);
		return 0;
	}
	if (board_lock_acquire(run->board, NULL, &lock, &busy)) {
		fprintf(out, "run %lld (board %s): left running: %s\n", (long long)run->id,
			run->board, busy.msg);
		return 0;
	}
	ret = end_stale(db, run, out, n_fixed, err);
	board_lock_release(lock);
	return ret;
}

int cli_stale_repair(struct results_db *db, FILE *out, int *n_fixed, struct rig_err *err)
{
	char host[HOST_NAME_MAX + 1];
	const char *me = this_host(host, sizeof(host));
	struct results_running *runs;
	size_t n;
	int ret = 0;

	*n_fixed = 0;
	if (results_running_list(db, NULL, &runs, &n, err))
		return -1;
	for (size_t i = 0; !ret && i < n; i++)
		ret = repair_one(db, &runs[i], me, out, n_fixed, err);
	results_running_free(runs, n);
	if (!ret)
		fprintf(out, "repair: %d of %zu running run(s) marked aborted\n", *n_fixed, n);
	return ret;
}
