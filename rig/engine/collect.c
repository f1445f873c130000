/* After a step: what the board says about it (trace window, writers' telemetry, verification
 * after a forced failed resume) turned into measurements and verdicts. */
#include "engine/collect.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/kv.h"

static int query_lines(struct engine_ctx *ctx, const char *cmd, unsigned timeout_s,
		       struct agent_reply *reply, struct rig_err *err)
{
	for (int attempt = 0; attempt < 3; attempt++) {
		int rc = session_exec(ctx->s, cmd, timeout_s, reply, err);

		if (rc == 0 && reply->status == AGENT_OK)
			return 0;
		agent_reply_free(reply);
		if (rc != 0)
			return rc < 0 ? -1 : rig_err_set(err, RIG_EXIT_INFRA, "'%s': no reply", cmd);
	}
	return rig_err_set(err, RIG_EXIT_INFRA, "'%s': reply corrupt 3 times", cmd);
}

/* "fs_freeze 123 ", "freeze_super 456 loop0" ... -> the window and the freeze order. */
int collect_trace(struct engine_ctx *ctx, struct frozen_window *w, struct rig_err *err)
{
	struct agent_reply reply;

	memset(w, 0, sizeof(*w));
	if (query_lines(ctx, "rig-dut trace-read", ctx->t.command, &reply, err) < 0)
		return -1;
	for (size_t i = 0; i < reply.n_lines; i++) {
		char ev[32] = "", dev[40] = "";
		uint64_t ns = 0;

		if (sscanf(reply.lines[i], "%31s %" SCNu64 " %39s", ev, &ns, dev) < 2)
			continue;
		if (strcmp(ev, "fs_freeze") == 0 && !w->freeze_ns)
			w->freeze_ns = ns, w->seen = true;
		else if (strcmp(ev, "fs_freeze_done") == 0 && !w->freeze_done_ns)
			w->freeze_done_ns = ns;
		else if (strcmp(ev, "fs_thaw") == 0)
			w->thaw_ns = ns;
		else if (strcmp(ev, "fs_thaw_done") == 0)
			w->thaw_done_ns = ns;
		else if (strcmp(ev, "freeze_super") == 0 && *dev && w->thaw_ns == 0) {
			size_t used = strlen(w->order);

			snprintf(w->order + used, sizeof(w->order) - used, "%s%s", used ? "," : "", dev);
			w->n_frozen++;
		}
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
	long inside, blocked, errors;
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

int collect_stall(struct engine_ctx *ctx, struct results_cycle *cyc, const struct frozen_window *w,
		  struct rig_err *err)
{
	struct fs_stall st[16] = { 0 };
	struct agent_reply reply;
	char cmd[96];
	size_t nfs = ctx->board->n_filesystems < 16 ? ctx->board->n_filesystems : 16;

	if (ctx->st.knob_freeze_filesystems != 1 || !w->seen || !w->thaw_done_ns) {
		const char *why = ctx->st.knob_freeze_filesystems != 1
					  ? "freeze_filesystems is not 1: the kernel promises no freeze"
					  : "no freeze/thaw seen in the kernel trace";

		for (size_t i = 0; i < nfs; i++)
			if (verdict_add(ctx, cyc, "stall", ctx->board->filesystems[i].name,
					RESULTS_VERDICT_SKIP, why, NULL, 0, err) < 0)
				return -1;
		return 0;
	}
	snprintf(cmd, sizeof(cmd), "rig-dut stall %" PRIu64 " %" PRIu64, w->freeze_ns, w->thaw_done_ns);
	if (query_lines(ctx, cmd, ctx->t.command, &reply, err) < 0)
		return -1;
	for (size_t i = 0; i < reply.n_lines; i++) {
		char id[64], fs[64];
		int k;

		if (!kv_get(reply.lines[i], "writer", id, sizeof(id)))
			continue;
		writer_fs(id, fs, sizeof(fs));
		if ((k = stall_fs_index(ctx->board, fs)) < 0 || (size_t)k >= nfs)
			continue;
		st[k].any = true;
		st[k].inside += kv_long(reply.lines[i], "completed_inside_window", 0);
		st[k].blocked += kv_long(reply.lines[i], "blocked_across_window", 0);
		st[k].errors += kv_long(reply.lines[i], "errors_after_thaw", 0);
		double longest = kv_double(reply.lines[i], "longest_ms", 0);
		if (longest > st[k].longest_ms)
			st[k].longest_ms = longest;
	}
	agent_reply_free(&reply);
	for (size_t i = 0; i < nfs; i++) {
		const char *fs = ctx->board->filesystems[i].name;
		char detail[256];
		enum results_verdict_result r;

		snprintf(detail, sizeof(detail),
			 "completed_inside_window=%ld blocked_across_window=%ld errors_after_thaw=%ld longest_ms=%.1f",
			 st[i].inside, st[i].blocked, st[i].errors, st[i].longest_ms);
		if (!st[i].any)
			r = RESULTS_VERDICT_SKIP;
		else if (st[i].inside > 0 || st[i].errors > 0)
			r = RESULTS_VERDICT_FAIL;
		else if (st[i].blocked > 0)
			r = RESULTS_VERDICT_PASS;
		else
			r = RESULTS_VERDICT_SKIP;  /* no writer was caught by the window: no evidence */
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
	if (query_lines(ctx, "rig-dut alive", ctx->t.command, &reply, err) < 0)
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

/* The loop filesystem lives on sata-xfs: it must be frozen first (reverse superblock order). */
int collect_order(struct engine_ctx *ctx, struct results_cycle *cyc, const struct frozen_window *w,
		  struct rig_err *err)
{
	const char *loop = strstr(w->order, "loop");
	char detail[320];

	snprintf(detail, sizeof(detail), "freeze order: %s", *w->order ? w->order : "(none traced)");
	if (ctx->st.knob_freeze_filesystems != 1 || !loop)
		return verdict_add(ctx, cyc, "order", NULL, RESULTS_VERDICT_SKIP, detail, NULL, 0, err);
	/* Every device frozen before the loop device would be one frozen under it. */
	for (const char *p = w->order; p < loop; p++)
		if (strncmp(p, "sd", 2) == 0 || strncmp(p, "nvme", 4) == 0)
			return verdict_add(ctx, cyc, "order", NULL, RESULTS_VERDICT_FAIL, detail,
					   (const char *const[]){ detail }, 1, err);
	return verdict_add(ctx, cyc, "order", NULL, RESULTS_VERDICT_PASS, detail, NULL, 0, err);
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
	if (query_lines(ctx, cmd, ctx->t.command * 2, &reply, err) < 0)
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

int collect_fsck(struct engine_ctx *ctx, struct results_cycle *cyc, struct rig_err *err)
{
	struct agent_reply reply;

	if (query_lines(ctx, "rig-dut fsck", ctx->t.command * 4, &reply, err) < 0)
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
