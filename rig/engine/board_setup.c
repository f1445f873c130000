/* Booting the board and bringing it to the plan's starting state. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/ctx.h"
#include "engine/hang.h"
#include "util/kv.h"

static int read_identity(struct engine_ctx *ctx, struct rig_err *err)
{
	char line[512];

	if (session_query(ctx->s, "rig-dut info", ctx->t.command, line, sizeof(line), err) < 0)
		return -1;
	if (!kv_get(line, "kernel", ctx->st.kernel_version, sizeof(ctx->st.kernel_version)))
		return rig_err_set(err, RIG_EXIT_INFRA, "board did not report its kernel: %s", line);
	ctx->st.knob_freeze_filesystems = (int)kv_long(line, "freeze_filesystems", -1);
	ctx->st.knob_sync_on_suspend = (int)kv_long(line, "sync_on_suspend", -1);
	kv_get(line, "boot_id", ctx->st.boot_id, sizeof(ctx->st.boot_id));
	return 0;
}

static int set_knob(struct engine_ctx *ctx, const char *name, int value, struct rig_err *err)
{
	char cmd[96], line[256];

	if (value < 0)
		return 0;
	snprintf(cmd, sizeof(cmd), "rig-dut knob %s %d", name, value);
	return session_query(ctx->s, cmd, ctx->t.command, line, sizeof(line), err);
}

int board_apply_knobs(struct engine_ctx *ctx, struct rig_err *err)
{
	if (set_knob(ctx, "freeze_filesystems", ctx->knob.freeze_filesystems, err) < 0 ||
	    set_knob(ctx, "sync_on_suspend", ctx->knob.sync_on_suspend, err) < 0)
		return -1;
	return read_identity(ctx, err);
}

static int arm_trace(struct engine_ctx *ctx, struct rig_err *err)
{
	char cmd[64], line[256];

	if (ctx->s_id_offset >= 0)
		snprintf(cmd, sizeof(cmd), "rig-dut trace-setup %ld", ctx->s_id_offset);
	else
		snprintf(cmd, sizeof(cmd), "rig-dut trace-setup");
	return session_query(ctx->s, cmd, ctx->t.command, line, sizeof(line), err);
}

int board_start_workloads(struct engine_ctx *ctx, struct rig_err *err)
{
	char cmd[256] = "rig-dut start-workloads", line[256];
	size_t used = strlen(cmd);

	/* fresh writers: an earlier checkpoint (a step that hung after it) no longer applies */
	memset(&ctx->fio_acked, 0, sizeof(ctx->fio_acked));
	if (ctx->plan->n_workloads == 0)
		return 0;
	for (size_t i = 0; i < ctx->plan->n_workloads; i++)
		used += (size_t)snprintf(cmd + used, sizeof(cmd) - used, " %s", ctx->plan->workloads[i]);
	acks_reset(&ctx->s->acks);
	if (session_query(ctx->s, cmd, ctx->t.command, line, sizeof(line), err) < 0)
		return -1;
	session_say(ctx->s, "workloads: %s", line);
	return 0;
}

int board_resume_fio(struct engine_ctx *ctx, struct rig_err *err)
{
	char line[256];

	if (ctx->fio_acked.n == 0)
		return 0;
	memset(&ctx->fio_acked, 0, sizeof(ctx->fio_acked));
	if (session_query(ctx->s, "rig-dut start-workloads fio", ctx->t.command, line, sizeof(line),
			  err) < 0)
		return -1;
	session_say(ctx->s, "fio restarted: %s", line);
	return 0;
}

int board_prepare_base(struct engine_ctx *ctx, struct rig_err *err)
{
	if (read_identity(ctx, err) < 0 || board_apply_knobs(ctx, err) < 0 || arm_trace(ctx, err) < 0)
		return -1;
	session_say(ctx->s, "board: kernel %s freeze_filesystems=%d sync_on_suspend=%d",
		    ctx->st.kernel_version, ctx->st.knob_freeze_filesystems,
		    ctx->st.knob_sync_on_suspend);
	return 0;
}

int board_prepare(struct engine_ctx *ctx, struct rig_err *err)
{
	if (board_prepare_base(ctx, err) < 0)
		return -1;
	return board_start_workloads(ctx, err);
}

int board_boot_only(struct engine_ctx *ctx, const char *extra_cmdline, struct results_cycle *cyc,
		    struct rig_err *err)
{
	int rc = session_boot(ctx->s, extra_cmdline, ctx->t.boot, err);

	if (rc == 1)
		return hang_record(ctx, cyc, "boot", err);
	if (rc < 0)
		return -1;
	ctx->needs_boot = false;
	return 0;
}

int board_boot(struct engine_ctx *ctx, const char *extra_cmdline, struct results_cycle *cyc,
	       struct rig_err *err)
{
	int rc = board_boot_only(ctx, extra_cmdline, cyc, err);

	if (rc != 0)
		return rc;
	return board_prepare(ctx, err);
}
