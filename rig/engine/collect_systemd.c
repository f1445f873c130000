/* What a systemd board adds after a step: systemd's own report of a sleep it entered, and
 * journald's view of its journal after a forced failed resume. Judged in rig/judge/. */
#include <stdio.h>
#include <string.h>

#include "engine/collect.h"
#include "judge/journald.h"
#include "judge/systemd_sleep.h"
#include "util/kv.h"

int collect_systemd_sleep(struct engine_ctx *ctx, struct results_cycle *cyc, const char *line,
			  struct rig_err *err)
{
	char detail[512];
	enum results_verdict_result r = systemd_sleep_judge(line, detail, sizeof(detail));
	long pre = kv_long(line, "sleep_pre_ms", -1), post = kv_long(line, "sleep_post_ms", -1);

	if (pre >= 0)
		results_cycle_add_measurement(cyc, "systemd_sleep_pre_ms", NULL, (double)pre, "ms", err);
	if (post >= 0)
		results_cycle_add_measurement(cyc, "systemd_sleep_post_ms", NULL, (double)post, "ms", err);
	return verdict_add(ctx, cyc, "systemd-sleep", NULL, r, detail,
			   r == RESULTS_VERDICT_PASS ? NULL : (const char *const[]){ detail },
			   r == RESULTS_VERDICT_PASS ? 0 : 1, err);
}

int collect_journald(struct engine_ctx *ctx, struct results_cycle *cyc, struct rig_err *err)
{
	struct agent_reply reply;
	const char *line = "";
	const char *evidence[8];
	size_t n_evidence = 0;
	char detail[512];
	enum results_verdict_result r;
	int rc;

	if (!plan_runs(ctx->plan, "journald"))
		return 0;
	if (session_exec_verified(ctx->s, "rig-dut journald-check", ctx->t.command * 2, &reply, err) < 0)
		return -1;
	for (size_t i = 0; i < reply.n_lines; i++) {
		if (strncmp(reply.lines[i], "journald verify=", 16) == 0)
			line = reply.lines[i];
		else if (strncmp(reply.lines[i], "journald ", 9) == 0 && n_evidence < 7)
			evidence[1 + n_evidence++] = reply.lines[i];
	}
	r = journald_judge(line, detail, sizeof(detail));
	evidence[0] = line;
	results_cycle_add_measurement(cyc, "journald_renamed_files", NULL,
				      (double)kv_long(line, "renamed", 0), "files", err);
	rc = verdict_add(ctx, cyc, "journald", NULL, r, detail,
			 r == RESULTS_VERDICT_PASS ? NULL : evidence,
			 r == RESULTS_VERDICT_PASS ? 0 : 1 + n_evidence, err);
	agent_reply_free(&reply);
	return rc;
}
