/* After a step: what the board says about it (trace window, writers' telemetry, verification
 * after a forced failed resume) turned into measurements and verdicts. */
#include "engine/collect.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/kv.h"

/* "fs_freeze 123 ", "freeze_super 456 loop0" ... -> the window and the freeze order. */
int collect_trace(struct engine_ctx *ctx, struct frozen_window *w, struct rig_err *err)
{
	struct agent_reply reply;

	memset(w, 0, sizeof(*w));
	if (session_exec_verified(ctx->s, "rig-dut trace-read", ctx->t.command, &reply, err) < 0)
		return -1;
	for (size_t i = 0; i < reply.n_lines; i++) {
		char ev[32] = "", dev[40] = "";
		uint64_t ns = 0;

		if (sscanf(reply.lines[i], "%31s %" SCNu64 " %39s", ev, &ns, dev) < 2)
			continue;
		window_feed(w, ev, ns, dev);
	}
	agent_reply_free(&reply);
	return 0;
}

void collect_window_measurements(struct results_cycle *cyc, const struct frozen_window *w,
				 struct rig_err *err)
{
	if (!w->seen)
		return;
	if (w->freeze_done_ns > w->freeze_ns)
		results_cycle_add_measurement(cyc, "freeze_filesystems_ms", NULL,
					      (double)(w->freeze_done_ns - w->freeze_ns) / 1e6, "ms", err);
	if (w->thaw_done_ns > w->thaw_ns && w->thaw_ns)
		results_cycle_add_measurement(cyc, "thaw_filesystems_ms", NULL,
					      (double)(w->thaw_done_ns - w->thaw_ns) / 1e6, "ms", err);
	if (w->thaw_done_ns > w->freeze_ns)
		results_cycle_add_measurement(cyc, "frozen_ms", NULL,
					      (double)(w->thaw_done_ns - w->freeze_ns) / 1e6, "ms", err);
}

/* Writer ids are "<filesystem>-<mode>": the filesystem is everything before the last dash. */
static void writer_fs(const char *id, char *fs, size_t size)
{
	const char *dash = strrchr(id, '-');
	size_t n = dash ? (size_t)(dash - id) : strlen(id);

	snprintf(fs, size, "%.*s", (int)n, id);
}

struct fs_stall {
	long inside, wrote, blocked, errors;
	double longest_ms;
	bool any;
};

static int stall_fs_index(const struct board *b, const char *fs)
{
	for (size_t i = 0; i < b->n_filesystems; i++)
		if (strcmp(b->filesystems[i].name, fs) == 0)
			return (int)i;
	return -1;
}

/* The traced superblock of a board filesystem: its block device's name, or for an image file
 * (a loop mount) the first loop device. NULL when the kernel did not freeze it. */
static const struct frozen_dev *traced_dev(const struct frozen_window *w,
					   const struct board_filesystem *fs)
{
	bool is_image = strncmp(fs->device, "/dev/", 5) != 0;
	const char *base = strrchr(fs->device, '/');

	base = base ? base + 1 : fs->device;
	for (unsigned i = 0; i < w->n_frozen; i++) {
		if (is_image ? strncmp(w->devs[i].dev, "loop", 4) == 0
			     : strcmp(w->devs[i].dev, base) == 0)
			return &w->devs[i];
	}
	return NULL;
}

static int stall_skip_all(struct engine_ctx *ctx, struct results_cycle *cyc, const char *why,
			  struct rig_err *err)
{
	for (size_t i = 0; i < ctx->board->n_filesystems; i++)
		if (verdict_add(ctx, cyc, "stall", ctx->board->filesystems[i].name,
				RESULTS_VERDICT_SKIP, why, NULL, 0, err) < 0)
			return -1;
	return 0;
}

/* Stores that land in a page still mapped writable complete right after freeze_super() returns
 * (seen on TCG boards: up to 4 records, all within 60 ms, on every filesystem type, with one or
 * two CPUs and with hpet as the clock); a write that completes later than this grace is one
 * that went through a frozen filesystem. */
#define STALL_GRACE_NS ((uint64_t)100000000)

/* Ask the board for each writer's telemetry against its own filesystem's frozen window. */
static int query_stall(struct engine_ctx *ctx, const struct frozen_window *w, struct fs_stall *st,
		       size_t nfs, struct rig_err *err)
{
	char cmd[1024] = "rig-dut stall";
	size_t used = strlen(cmd);
	struct agent_reply reply;

	for (size_t i = 0; i < nfs; i++) {
		const struct frozen_dev *d = traced_dev(w, &ctx->board->filesystems[i]);

		if (d && d->frozen_ns)
			used += (size_t)snprintf(cmd + used, sizeof(cmd) > used ? sizeof(cmd) - used : 0,
						 " %s:%" PRIu64 ":%" PRIu64, ctx->board->filesystems[i].name,
						 d->frozen_ns + STALL_GRACE_NS,
						 d->thawed_ns ? d->thawed_ns : w->thaw_done_ns);
	}
	if (session_exec_verified(ctx->s, cmd, ctx->t.command, &reply, err) < 0)
		return -1;
	for (size_t i = 0; i < reply.n_lines; i++) {
		char id[64], fs[64];
		int k;
		double longest;

		if (!kv_get(reply.lines[i], "writer", id, sizeof(id)))
			continue;
		writer_fs(id, fs, sizeof(fs));
		if ((k = stall_fs_index(ctx->board, fs)) < 0 || (size_t)k >= nfs)
			continue;
		st[k].any = true;
		st[k].inside += kv_long(reply.lines[i], "completed_inside_window", 0);
		st[k].wrote += kv_long(reply.lines[i], "wrote_while_frozen", 0);
		st[k].blocked += kv_long(reply.lines[i], "blocked_across_window", 0);
		st[k].errors += kv_long(reply.lines[i], "errors_after_thaw", 0);
		longest = kv_double(reply.lines[i], "window_longest_ms", 0);
		if (longest > st[k].longest_ms)
			st[k].longest_ms = longest;
	}
	agent_reply_free(&reply);
	return 0;
}

static enum results_verdict_result stall_result(const struct fs_stall *st, bool frozen)
{
	if (!frozen)
		return RESULTS_VERDICT_FAIL;  /* the knob promised a freeze the kernel did not do */
	if (!st->any)
		return RESULTS_VERDICT_SKIP;
	if (st->wrote > 0 || st->errors > 0)
		return RESULTS_VERDICT_FAIL;
	/* No writer caught by the window is no evidence either way. */
	return st->blocked > 0 ? RESULTS_VERDICT_PASS : RESULTS_VERDICT_SKIP;
}

int collect_stall(struct engine_ctx *ctx, struct results_cycle *cyc, const struct frozen_window *w,
		  struct rig_err *err)
{
	struct fs_stall st[16] = { 0 };
	size_t nfs = ctx->board->n_filesystems < 16 ? ctx->board->n_filesystems : 16;

	if (ctx->st.knob_freeze_filesystems != 1)
		return stall_skip_all(ctx, cyc, "freeze_filesystems is not 1: the kernel promises no freeze", err);
	if (!w->seen)
		return stall_skip_all(ctx, cyc, "no filesystems_freeze seen in the kernel trace", err);
	if (ctx->plan->n_workloads && query_stall(ctx, w, st, nfs, err) < 0)
		return -1;
	for (size_t i = 0; i < nfs; i++) {
		const char *fs = ctx->board->filesystems[i].name;
		const struct frozen_dev *d = traced_dev(w, &ctx->board->filesystems[i]);
		enum results_verdict_result r = stall_result(&st[i], d != NULL);
		char detail[512];

		if (!d)
			snprintf(detail, sizeof(detail),
				 "not frozen: freeze_super never ran for %s while the knob is 1 (froze: %s)",
				 ctx->board->filesystems[i].device, *w->order ? w->order : "nothing");
		else
			snprintf(detail, sizeof(detail),
				 "%s frozen %.1f ms (checked from %" PRIu64 " ms after the freeze): wrote_while_frozen=%ld completed_inside_window=%ld blocked_across_window=%ld errors_after_thaw=%ld longest_in_window_ms=%.1f",
				 d->dev, d->thawed_ns > d->frozen_ns ? (double)(d->thawed_ns - d->frozen_ns) / 1e6 : 0.0,
				 STALL_GRACE_NS / 1000000, st[i].wrote, st[i].inside, st[i].blocked, st[i].errors, st[i].longest_ms);
		if (st[i].any && results_cycle_add_measurement(cyc, "stall_ms", fs, st[i].longest_ms,
								"ms", err) < 0)
			return -1;
		if (verdict_add(ctx, cyc, "stall", fs, r, detail, (const char *const[]){ detail }, 1,
				err) < 0)
			return -1;
	}
	return 0;
}

int collect_writers_alive(struct engine_ctx *ctx, char *dead, size_t size, struct rig_err *err)
{
	struct agent_reply reply;
	size_t used = 0;

	dead[0] = '\0';
	if (ctx->plan->n_workloads == 0)
		return 0;
	if (session_exec_verified(ctx->s, "rig-dut alive", ctx->t.command, &reply, err) < 0)
		return -1;
	for (size_t i = 0; i < reply.n_lines; i++) {
		char id[64];

		if (kv_long(reply.lines[i], "alive", 1) == 0 && kv_get(reply.lines[i], "writer", id, sizeof(id)))
			used += (size_t)snprintf(dead + used, size > used ? size - used : 0, "%s%s",
						 used ? "," : "", id);
	}
	agent_reply_free(&reply);
	return 0;
}

/* The s_id of the filesystem holding the board's first image filesystem (the one whose mount
 * point is the longest prefix of the image's path) into out: "" when unknown; NULL when the
 * board has no image filesystem. */
static const char *image_backing(const struct board *b, char *out, size_t size)
{
	size_t best = 0;
	bool any = false;

	out[0] = '\0';
	for (size_t i = 0; i < b->n_filesystems; i++) {
		const char *image = b->filesystems[i].device;

		if (strncmp(image, "/dev/", 5) == 0)
			continue;
		any = true;
		for (size_t k = 0; k < b->n_filesystems; k++) {
			const char *mnt = b->filesystems[k].mount, *dev = b->filesystems[k].device;
			size_t n = strlen(mnt);

			if (k != i && n > best && strncmp(image, mnt, n) == 0 && image[n] == '/' &&
			    strncmp(dev, "/dev/", 5) == 0) {
				best = n;
				snprintf(out, size, "%s", strrchr(dev, '/') + 1);
			}
		}
		break;
	}
	return any ? out : NULL;
}

static int order_verdict(struct engine_ctx *ctx, struct results_cycle *cyc,
			 const struct frozen_window *w, bool hung, struct rig_err *err)
{
	char backing[64], detail[512];
	enum results_verdict_result r =
		order_judge(w, ctx->st.knob_freeze_filesystems == 1,
			    image_backing(ctx->board, backing, sizeof(backing)), hung, detail,
			    sizeof(detail));

	return verdict_add(ctx, cyc, "order", NULL, r, detail,
			   r == RESULTS_VERDICT_FAIL ? (const char *const[]){ detail } : NULL,
			   r == RESULTS_VERDICT_FAIL ? 1 : 0, err);
}

int collect_order(struct engine_ctx *ctx, struct results_cycle *cyc, const struct frozen_window *w,
		  struct rig_err *err)
{
	return order_verdict(ctx, cyc, w, false, err);
}

/* The rig's trace events a SysRq-z dump put on the console since the last drain. Latency
 * format stamps are microseconds since the buffer's start (num), the default format's seconds
 * (value): only their order matters here. */
int collect_order_after_hang(struct engine_ctx *ctx, struct results_cycle *cyc,
			     struct rig_err *err)
{
	struct frozen_window w;

	memset(&w, 0, sizeof(w));
	for (size_t i = 0; i < ctx->s->n_events; i++) {
		const struct session_event *e = &ctx->s->events[i];
		char dev[40];
		uint64_t ns = e->ev.value > 0 ? (uint64_t)(e->ev.value * 1e9)
					      : (uint64_t)(e->ev.num > 0 ? e->ev.num : 0) * 1000;

		if (e->ev.kind != KEV_RIG_TRACE)
			continue;
		trace_line_dev(e->text, dev, sizeof(dev));
		window_feed(&w, e->ev.arg, ns, dev);
	}
	if (!w.seen)
		return 0;    /* no dump, or the hang came before any freeze: nothing to judge */
	return order_verdict(ctx, cyc, &w, true, err);
}

int collect_owner(struct engine_ctx *ctx, struct results_cycle *cyc, struct rig_err *err)
{
	char cmd[128], line[256];
	long frozen;
	int rc;

	if (!ctx->owner_pending)
		return 0;
	snprintf(cmd, sizeof(cmd), "rig-dut fsfreeze %s state", ctx->owner_pending);
	if (session_query(ctx->s, cmd, ctx->t.command, line, sizeof(line), err) < 0)
		return -1;
	frozen = kv_long(line, "frozen", -1);
	snprintf(cmd, sizeof(cmd), "rig-dut fsfreeze %s thaw", ctx->owner_pending);
	if (frozen == 1) {
		char thawed[256];

		rc = session_query(ctx->s, cmd, ctx->t.command, thawed, sizeof(thawed), err);
		if (rc < 0)
			return -1;
		rc = verdict_add(ctx, cyc, "owner", ctx->owner_pending, RESULTS_VERDICT_PASS,
				 "frozen by userspace before suspend, still frozen after resume; fsfreeze -u thawed it",
				 NULL, 0, err);
	} else {
		char detail[] = "frozen by userspace before suspend, but NOT frozen after resume: the kernel thawed a filesystem it did not freeze";

		rc = verdict_add(ctx, cyc, "owner", ctx->owner_pending, RESULTS_VERDICT_FAIL, detail,
				 (const char *const[]){ detail }, 1, err);
	}
	free(ctx->owner_pending);
	ctx->owner_pending = NULL;
	return rc;
}

int collect_verify(struct engine_ctx *ctx, struct results_cycle *cyc, const struct acks *acked,
		   struct rig_err *err)
{
	char cmd[1024] = "rig-dut verify";
	size_t used = strlen(cmd);
	struct agent_reply reply;

	if (acked->n == 0)
		return verdict_add(ctx, cyc, "no-loss", NULL, RESULTS_VERDICT_SKIP,
				   "no acknowledgement seen on the console before the failure", NULL, 0, err);
	for (size_t i = 0; i < acked->n; i++)
		used += (size_t)snprintf(cmd + used, sizeof(cmd) > used ? sizeof(cmd) - used : 0,
					 " %s=%" PRIu64, acked->writers[i].id, acked->writers[i].seq);
	if (session_exec_verified(ctx->s, cmd, ctx->t.command * 2, &reply, err) < 0)
		return -1;
	for (size_t i = 0; i < reply.n_lines; i++) {
		char id[64], fs[64], verdict[16] = "";
		const char *line = reply.lines[i];
		enum results_verdict_result r;

		if (!kv_get(line, "writer", id, sizeof(id)))
			continue;
		writer_fs(id, fs, sizeof(fs));
		kv_get(line, "no-loss", verdict, sizeof(verdict));
		r = strcmp(verdict, "pass") == 0   ? RESULTS_VERDICT_PASS
		    : strcmp(verdict, "fail") == 0 ? RESULTS_VERDICT_FAIL
						   : RESULTS_VERDICT_ERROR;
		results_cycle_add_measurement(cyc, "lost_records", fs, (double)kv_long(line, "lost", 0),
					      "records", err);
		if (verdict_add(ctx, cyc, "no-loss", fs, r, line, (const char *const[]){ line }, 1, err) < 0) {
			agent_reply_free(&reply);
			return -1;
		}
	}
	agent_reply_free(&reply);
	return 0;
}

bool plan_runs(const struct plan *plan, const char *workload)
{
	for (size_t i = 0; i < plan->n_workloads; i++)
		if (strcmp(plan->workloads[i], workload) == 0)
			return true;
	return false;
}

int collect_fio_checkpoint(struct engine_ctx *ctx, struct rig_err *err)
{
	struct agent_reply reply;

	memset(&ctx->fio_acked, 0, sizeof(ctx->fio_acked));
	if (!plan_runs(ctx->plan, "fio"))
		return 0;
	if (session_exec_verified(ctx->s, "rig-dut fio-checkpoint", ctx->t.command, &reply, err) < 0)
		return -1;
	for (size_t i = 0; i < reply.n_lines; i++)
		fio_ack_feed(&ctx->fio_acked, reply.lines[i]);
	agent_reply_free(&reply);
	for (size_t i = 0; i < ctx->fio_acked.n; i++) {
		const struct fio_ack *k = &ctx->fio_acked.items[i];

		if (*k->error)
			session_say(ctx->s, "  fio checkpoint on %s: %s", k->fs, k->error);
		else
			session_say(ctx->s, "  fio stopped on %s: %" PRIu64 " writes acknowledged",
				    k->fs, k->written);
	}
	return 0;
}

static int fio_verify_one(struct engine_ctx *ctx, struct results_cycle *cyc,
			  const struct fio_ack *k, struct rig_err *err)
{
	char cmd[2300], line[600] = "", detail[512];
	enum results_verdict_result r;
	long verified;

	if (!*k->error) {
		snprintf(cmd, sizeof(cmd), "rig-dut fio-verify %s=%s", k->fs, k->state);
		if (session_query(ctx->s, cmd, ctx->t.command * 2, line, sizeof(line), err) < 0)
			return -1;
	}
	r = fio_verify_judge(k, line, &verified, detail, sizeof(detail));
	results_cycle_add_measurement(cyc, "fio_blocks_acked", k->fs, (double)k->written, "blocks",
				      err);
	if (verified >= 0)
		results_cycle_add_measurement(cyc, "fio_blocks_verified", k->fs, (double)verified,
					      "blocks", err);
	return verdict_add(ctx, cyc, "no-loss", k->fs, r, detail,
			   r == RESULTS_VERDICT_PASS ? NULL : (const char *const[]){ detail },
			   r == RESULTS_VERDICT_PASS ? 0 : 1, err);
}

int collect_fio_verify(struct engine_ctx *ctx, struct results_cycle *cyc, struct rig_err *err)
{
	for (size_t i = 0; i < ctx->fio_acked.n; i++)
		if (fio_verify_one(ctx, cyc, &ctx->fio_acked.items[i], err) < 0)
			return -1;
	memset(&ctx->fio_acked, 0, sizeof(ctx->fio_acked));
	return 0;
}

int collect_fsck(struct engine_ctx *ctx, struct results_cycle *cyc, struct rig_err *err)
{
	struct agent_reply reply;

	if (session_exec_verified(ctx->s, "rig-dut fsck", ctx->t.command * 4, &reply, err) < 0)
		return -1;
	for (size_t i = 0; i < reply.n_lines; i++) {
		char fs[64];
		long rc = kv_long(reply.lines[i], "fsck_rc", -1);

		if (!kv_get(reply.lines[i], "fs", fs, sizeof(fs)) || rc < 0)
			continue;
		if (verdict_add(ctx, cyc, "fsck", fs, rc == 0 ? RESULTS_VERDICT_PASS : RESULTS_VERDICT_FAIL,
				reply.lines[i], (const char *const[]){ reply.lines[i] }, 1, err) < 0) {
			agent_reply_free(&reply);
			return -1;
		}
	}
	agent_reply_free(&reply);
	return 0;
}
