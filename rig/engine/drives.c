#include "engine/drives.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/collect.h"
#include "judge/drive_cache.h"
#include "util/clock.h"

static const struct board_qemu *qemu_of(const struct engine_ctx *ctx)
{
	return ctx->board->power.qemu;
}

void drives_mark(const struct engine_ctx *ctx, struct drive_marks *marks)
{
	const struct board_qemu *q = qemu_of(ctx);
	struct rig_err ignored;
	char path[4096];
	struct stat st;

	marks->since = wall_clock_seconds();
	for (size_t i = 0; i < DRIVE_CACHE_MAX_DISKS; i++)
		marks->offset[i] = -1;
	for (size_t i = 0; q && i < q->n_disks && i < DRIVE_CACHE_MAX_DISKS; i++)
		if (q->disks[i].volatile_cache &&
		    drive_cache_path(ctx->s->run_dir, q->disks[i].id, "log", path, sizeof(path),
				     &ignored) == 0 && stat(path, &st) == 0)
			marks->offset[i] = (long long)st.st_size;
}

/* Read one drive's log through the judge's account, marking it where it stood at the mark. */
static int read_log(const char *path, long long mark, struct drive_cache_log *log,
		    struct rig_err *err)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	long long at = 0;
	ssize_t n;
	int rc = 0;

	if (!f)
		return rig_err_set(err, RIG_EXIT_INFRA, "drive cache log %s: %s", path,
				   strerror(errno));
	if (mark <= 0)
		drive_cache_log_mark(log);
	while (rc == 0 && (n = getline(&line, &cap, f)) > 0) {
		if (!log->marked && at >= mark)
			drive_cache_log_mark(log);
		at += n;
		rc = drive_cache_log_feed(log, line, err);
	}
	if (rc == 0 && ferror(f))
		rc = rig_err_set(err, RIG_EXIT_INFRA, "read %s: %s", path, strerror(errno));
	if (!log->marked)
		drive_cache_log_mark(log);
	free(line);
	fclose(f);
	return rc;
}

/* When the board began to freeze its user space (after its filesystems froze, before its
 * devices suspended): the first such event since the mark; 0 when the console did not say. */
static double tasks_freezing(const struct engine_ctx *ctx, double since)
{
	for (size_t i = 0; i < ctx->s->n_events; i++)
		if (ctx->s->events[i].ev.kind == KEV_FREEZE_USER_BEGIN &&
		    ctx->s->events[i].host_ts >= since)
			return ctx->s->events[i].host_ts;
	return 0;
}

static int collect_one(struct engine_ctx *ctx, struct results_cycle *cyc,
		       const struct board_disk *d, long long mark, double since, struct rig_err *err)
{
	struct drive_cache_log log;
	struct judgement j = { 0 };
	char path[4096];
	int rc;

	if (drive_cache_path(ctx->s->run_dir, d->id, "log", path, sizeof(path), err) < 0)
		return -1;
	drive_cache_log_init(&log);
	drive_cache_log_split(&log, tasks_freezing(ctx, since));
	rc = read_log(path, mark, &log, err);
	if (rc == 0) {
		session_say(ctx->s, "  drive %s: %lu flushes (%lu after the filesystems froze) and %lu "
			    "FUA writes on the way to sleep; %lu blocks unflushed when asked to sleep, "
			    "%lu lost at the cut", d->id, log.after.flushes, log.flushes_after_split,
			    log.after.fua_writes, log.dirty_at_mark, log.n_dirty);
		rc = collect_store(ctx, cyc, &j, judge_drive_cache(&j, d->id, &log, err), err);
	}
	drive_cache_log_free(&log);
	return rc;
}

int drives_collect(struct engine_ctx *ctx, struct results_cycle *cyc,
		   const struct drive_marks *marks, struct rig_err *err)
{
	const struct board_qemu *q = qemu_of(ctx);

	for (size_t i = 0; q && i < q->n_disks && i < DRIVE_CACHE_MAX_DISKS; i++)
		if (q->disks[i].volatile_cache &&
		    collect_one(ctx, cyc, &q->disks[i], marks->offset[i], marks->since, err) < 0)
			return -1;
	return 0;
}
