/* Booting the board and bringing it to the plan's starting state (through the board client). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/ctx.h"
#include "engine/dut.h"
#include "engine/hang.h"

static int read_identity(struct engine_ctx *ctx, struct rig_err *err)
{
	struct ev_identity id;

	if (dut_identity(ctx->s, ctx->t.command, &id, err) < 0)
		return -1;
	snprintf(ctx->st.kernel_version, sizeof(ctx->st.kernel_version), "%s", id.kernel);
	ctx->st.knob_freeze_filesystems = id.knob_freeze_filesystems;
	ctx->st.knob_sync_on_suspend = id.knob_sync_on_suspend;
	snprintf(ctx->st.boot_id, sizeof(ctx->st.boot_id), "%s", id.boot_id);
	snprintf(ctx->st.build_id, sizeof(ctx->st.build_id), "%s", id.build_id);
	if (ctx->want.version[0]) {
		char why[320];

		/* no cycle is judged on a kernel other than the one under test */
		if (identity_judge(&ctx->want, &id, why, sizeof(why)) < 0) {
			ctx->wrong_kernel = true;
			return rig_err_set(err, RIG_EXIT_INFRA, "wrong kernel: %s (%s)", why,
					   ctx->opts->kernel_meta_path);
		}
	}
	return 0;
}

int board_apply_knobs(struct engine_ctx *ctx, struct rig_err *err)
{
	if ((ctx->knob.freeze_filesystems >= 0 &&
	     dut_set_knob(ctx->s, ctx->t.command, "freeze_filesystems", ctx->knob.freeze_filesystems,
			  err) < 0) ||
	    (ctx->knob.sync_on_suspend >= 0 &&
	     dut_set_knob(ctx->s, ctx->t.command, "sync_on_suspend", ctx->knob.sync_on_suspend,
			  err) < 0))
		return -1;
	return read_identity(ctx, err);
}

int board_start_workloads(struct engine_ctx *ctx, struct rig_err *err)
{
	char line[256];

	/* fresh writers: an earlier checkpoint (a step that hung after it) no longer applies */
	memset(&ctx->fio_acked, 0, sizeof(ctx->fio_acked));
	if (ctx->plan->n_workloads == 0)
		return 0;
	acks_reset(&ctx->s->acks);
	if (dut_start_workloads(ctx->s, ctx->t.command, ctx->plan->workloads, ctx->plan->n_workloads,
				line, sizeof(line), err) < 0)
		return -1;
	session_say(ctx->s, "workloads: %s", line);
	return 0;
}

int board_resume_fio(struct engine_ctx *ctx, struct rig_err *err)
{
	char *fio[] = { "fio" };
	char line[256];

	if (ctx->fio_acked.n == 0)
		return 0;
	memset(&ctx->fio_acked, 0, sizeof(ctx->fio_acked));
	if (dut_start_workloads(ctx->s, ctx->t.command, fio, 1, line, sizeof(line), err) < 0)
		return -1;
	session_say(ctx->s, "fio restarted: %s", line);
	return 0;
}

/* Plans with `timeline: true`: the power events traced from this boot on (a board without them
 * says so and the run goes on: its cycles store "unavailable"). */
static int timeline_setup(struct engine_ctx *ctx, struct rig_err *err)
{
	char line[256];

	if (!ctx->plan->timeline)
		return 0;
	if (dut_timeline_setup(ctx->s, ctx->t.command, line, sizeof(line), err) < 0)
		return -1;
	session_say(ctx->s, "board: per-device timeline: %s", line);
	return 0;
}

int board_prepare_base(struct engine_ctx *ctx, struct rig_err *err)
{
	if (read_identity(ctx, err) < 0 || board_apply_knobs(ctx, err) < 0 ||
	    dut_trace_setup(ctx->s, ctx->t.command, ctx->s_id_offset, err) < 0 ||
	    timeline_setup(ctx, err) < 0)
		return -1;
	session_say(ctx->s, "board: kernel %s build-id %s (%s) freeze_filesystems=%d sync_on_suspend=%d",
		    ctx->st.kernel_version, ctx->st.build_id[0] ? ctx->st.build_id : "none",
		    ctx->want.version[0] ? "the deployed one" : "not checked: no meta.json",
		    ctx->st.knob_freeze_filesystems,
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

	if (rc == 2)
		return 2;   /* stopped by a signal: no hang to record, the caller marks it aborted */
	/* An oops or a panic on the way up is the board's state, not a hang to judge. */
	if (rc != 0 && session_check_boot_health(ctx->s, err) < 0)
		return -1;
	if (rc == 1)
		return hang_record(ctx, cyc, "boot", err);
	if (rc < 0 || session_check_boot_health(ctx->s, err) < 0)
		return -1;
	ctx->needs_boot = false;
	return 0;
}

int board_boot(struct engine_ctx *ctx, const char *extra_cmdline, struct results_cycle *cyc,
	       struct rig_err *err)
{
	int rc = board_boot_only(ctx, extra_cmdline, cyc, err);

	if (rc != 0 || board_prepare(ctx, err) < 0)
		return rc != 0 ? rc : -1;
	/* the setup (knobs, trace, workloads) ran on a healthy board too */
	return session_check_boot_health(ctx->s, err);
}
