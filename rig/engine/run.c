/* The run loop: boot, then every cycle of the plan's steps, one results transaction per cycle. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deploy/deploy.h"
#include "engine/ctx.h"
#include "engine/dut.h"
#include "engine/engine.h"
#include "engine/hang.h"
#include "engine/progress.h"
#include "engine/starvation.h"
#include "util/clock.h"

/* meta.json of the kernel under test: its text (for the run row) and the s_id offset. */
static char *load_kernel_meta(const char *path, long *s_id_offset)
{
	json_error_t jerr;
	json_t *meta, *offsets, *sid;
	char *text;

	*s_id_offset = -1;
	if (!path || !(meta = json_load_file(path, 0, &jerr)))
		return NULL;
	offsets = json_object_get(meta, "offsets");
	sid = offsets ? json_object_get(offsets, "super_block.s_id") : NULL;
	if (json_is_integer(sid))
		*s_id_offset = (long)json_integer_value(sid);
	text = json_dumps(meta, JSON_COMPACT);
	json_decref(meta);
	return text;
}

/* The run row as far as the run knows itself: before the console is open there is no console
 * log, before the first boot no kernel version, build-id or knobs (results_run_describe() adds
 * them). */
static void run_info(const struct engine_ctx *ctx, const char *meta_text, json_t *meta,
		     struct results_run_info *info)
{
	*info = (struct results_run_info){
		.board = ctx->board->name,
		.board_file = ctx->board->path,
		.plan = ctx->plan->name,
		.plan_file = ctx->plan->path,
		.kernel_version = ctx->st.kernel_version[0] ? ctx->st.kernel_version : NULL,
		.kernel_build_id = ctx->st.build_id[0] ? ctx->st.build_id : NULL,
		.deploy = ctx->board->deploy.backend,
		.kernel_meta = meta_text,
		.knob_freeze_filesystems = knob_of(ctx->st.knob_freeze_filesystems),
		.knob_sync_on_suspend = knob_of(ctx->st.knob_sync_on_suspend),
		.console_log = ctx->s ? ctx->s->console_log : NULL,
		.rig_version = RIG_VERSION,
	};
	if (meta) {
		info->kernel_sha = json_string_value(json_object_get(meta, "git_sha"));
		info->freeze_series = json_string_value(json_object_get(meta, "freeze_series"));
	}
}

static int begin_run(struct engine_ctx *ctx, const char *meta_text, struct rig_err *err)
{
	struct results_run_info info;
	json_t *meta = meta_text ? json_loads(meta_text, 0, NULL) : NULL;
	int rc;

	run_info(ctx, meta_text, meta, &info);
	rc = results_run_begin(ctx->db, &info, &ctx->run_id, err);
	json_decref(meta);
	return rc;
}

static int describe_run(struct engine_ctx *ctx, struct rig_err *err)
{
	struct results_run_info info;

	run_info(ctx, NULL, NULL, &info);
	return results_run_describe(ctx->db, ctx->run_id, &info, err);
}

/* A run that failed before its first cycle (no kernel meta, no console, no boot) is stored as an
 * infra run, so an unreachable board shows on the dashboard. err keeps the first failure. */
static int end_early(struct engine_ctx *ctx, char *meta_text)
{
	struct rig_err ignored;

	if (ctx->opts->stop && *ctx->opts->stop)   /* Ctrl-C while the board first boots */
		(void)results_mark_aborted(ctx->db, ctx->run_id, NULL, 130, &ignored);
	else
		(void)results_run_end(ctx->db, ctx->run_id, RESULTS_RUN_INFRA, RIG_EXIT_INFRA,
				      &ignored);
	if (ctx->s)
		session_close(ctx->s);
	free(meta_text);
	return RIG_EXIT_INFRA;
}

static struct results_cycle *new_cycle(struct engine_ctx *ctx, const struct step *step, int idx,
				       const char *desc, struct rig_err *err)
{
	struct results_cycle_info info = {
		.idx = idx,
		.step_kind = step_kind_name(step->kind),
		.step_desc = desc,
		.knob_freeze_filesystems = knob_of(ctx->st.knob_freeze_filesystems),
		.knob_sync_on_suspend = knob_of(ctx->st.knob_sync_on_suspend),
		.kernel_version = ctx->st.kernel_version,
		.kernel_build_id = ctx->st.build_id,
		.console_from = -1,
	};

	return results_cycle_begin(ctx->run_id, &info, err);
}

/* knob and fsfreeze steps change the board's state for the steps after them. */
static int apply_modifier(struct engine_ctx *ctx, const struct step *step, struct rig_err *err)
{
	if (step->kind == STEP_KNOB) {
		if (step->u.knob.freeze_filesystems >= 0)
			ctx->knob.freeze_filesystems = step->u.knob.freeze_filesystems;
		if (step->u.knob.sync_on_suspend >= 0)
			ctx->knob.sync_on_suspend = step->u.knob.sync_on_suspend;
		return ctx->needs_boot ? 0 : board_apply_knobs(ctx, err);
	}
	if (ctx->needs_boot)
		return 0;
	if (dut_fsfreeze(ctx->s, ctx->t.command, step->u.fsfreeze.filesystem, "freeze", NULL, err) < 0)
		return -1;
	free(ctx->owner_pending);
	ctx->owner_pending = strdup(step->u.fsfreeze.filesystem);
	return 0;
}

static enum results_cycle_status cycle_status(const struct results_cycle *cyc)
{
	for (size_t i = 0; i < cyc->n_verdicts; i++)
		if ((cyc->verdicts[i].result == RESULTS_VERDICT_FAIL && !cyc->verdicts[i].known_issue) ||
		    cyc->verdicts[i].result == RESULTS_VERDICT_ERROR)
			return RESULTS_CYCLE_FAIL;
	return RESULTS_CYCLE_PASS;
}

/* A board that comes back from an infrastructure error (a reboot) is usable; one that fails this
 * many cycles in a row is not, and the run ends rather than burn the night on it. */
#define INFRA_IN_A_ROW_MAX 3

/* Events a hang, an abort or an infrastructure error left unread belong to this cycle, not to
 * the next one (whose clean-resume verdict would otherwise fail on them). */
static void keep_leftover_events(struct engine_ctx *ctx, struct results_cycle *cyc)
{
	struct rig_err ignored;
	size_t n;
	struct judge_event *ev = session_events_drain(ctx->s, &n);

	(void)cycle_store_events(ctx, cyc, ev, n, &ignored);
	session_events_free(ev, n);
}

/* Run one action step as a cycle. Returns 0 to go on, 1 to stop the run (hang with on_hang:
 * stop, or Ctrl-C), -1 on an infrastructure error. */
static int run_cycle(struct engine_ctx *ctx, const struct step *step, int idx, struct rig_err *err)
{
	struct results_cycle *cyc;
	char desc[128], eta[96];
	int rc;

	step_format(step, desc, sizeof(desc));
	progress_eta(monotonic_seconds() - ctx->started_at, ctx->cycle_no, ctx->cycle_total, eta,
		     sizeof(eta));
	ctx->cycle_no++;
	session_say(ctx->s, "cycle %u/%u: %s (%s)", ctx->cycle_no, ctx->cycle_total, desc, eta);
	if (!(cyc = new_cycle(ctx, step, idx, desc, err)))
		return -1;
	cycle_budget_begin(ctx);
	starvation_cycle_begin(ctx);
	rc = ctx->needs_boot ? board_boot(ctx, NULL, cyc, err) : 0;
	if (rc == 0)
		rc = step_run(ctx, step, cyc, err);
	keep_leftover_events(ctx, cyc);
	if (rc < 0) {
		struct rig_err ignored;

		ctx->totals->infra++;
		ctx->infra_in_a_row++;
		session_say(ctx->s, "  infrastructure error: %s", err->msg);
		(void)starvation_infra_end(ctx, cyc, err->msg, &ignored);   /* the figures, if it can */
		results_cycle_end(cyc, RESULTS_CYCLE_INFRA, 0, -1);
		ctx->needs_boot = true;
		(void)session_power_off(ctx->s, &ignored);
	} else if (rc == 2) {
		results_mark_aborted(ctx->db, ctx->run_id, cyc, 130, err);
		ctx->aborted_marked = true;
		results_cycle_free(cyc);
		return 1;
	} else {
		enum results_cycle_status status = rc == 1 ? RESULTS_CYCLE_HANG : cycle_status(cyc);

		/* a hang or failure a starved host explains is infra, not the kernel's */
		if (starvation_cycle_end(ctx, cyc, &status, err) < 0) {
			results_cycle_free(cyc);
			return -1;
		}
		results_cycle_end(cyc, status, 0, -1);
	}
	ctx->totals->cycles_done++;
	if (cycle_store_budget(ctx, cyc, err) < 0 || results_cycle_commit(ctx->db, cyc, NULL, err) < 0) {
		results_cycle_free(cyc);
		return -1;
	}
	session_say(ctx->s, "  cycle %u: %s", ctx->cycle_no, results_cycle_status_name(cyc->status));
	results_cycle_free(cyc);
	if (rc < 0 && ctx->wrong_kernel)
		return -1;   /* a wrong kernel stays wrong: no retry judges it */
	if (rc >= 0)
		ctx->infra_in_a_row = 0;
	if (ctx->infra_in_a_row >= INFRA_IN_A_ROW_MAX) {
		session_say(ctx->s, "%u infrastructure errors in a row: the board is not usable, the "
			    "run ends", ctx->infra_in_a_row);
		return -1;
	}
	if (rc < 0 && power_check(ctx->s->power, err) < 0)
		return -1;   /* its power controller is gone: nothing can switch the board any more */
	return rc == 1 && ctx->plan->on_hang == ON_HANG_STOP ? 1 : 0;
}

static unsigned action_steps(const struct plan *plan)
{
	unsigned n = 0;

	for (size_t i = 0; i < plan->n_steps; i++)
		n += plan->steps[i].kind != STEP_KNOB && plan->steps[i].kind != STEP_FSFREEZE;
	return n;
}

static int run_plan(struct engine_ctx *ctx, unsigned cycles, struct rig_err *err)
{
	int idx = 0;

	for (unsigned c = 0; c < cycles; c++) {
		for (size_t i = 0; i < ctx->plan->n_steps; i++) {
			const struct step *step = &ctx->plan->steps[i];
			int rc;

			if (ctx->opts->stop && *ctx->opts->stop)
				return 1;
			if (step->kind == STEP_KNOB || step->kind == STEP_FSFREEZE) {
				if (apply_modifier(ctx, step, err) < 0)
					return -1;
				continue;
			}
			rc = run_cycle(ctx, step, idx++, err);
			if (rc != 0)
				return rc;
		}
	}
	return 0;
}

static int exit_code(const struct engine_totals *t, bool strict, int loop_rc)
{
	if (loop_rc < 0)
		return RIG_EXIT_INFRA;
	if (t->fail || t->hangs || (strict && t->known))
		return RIG_EXIT_FAIL;
	if (t->infra)
		return RIG_EXIT_INFRA;
	return RIG_EXIT_PASS;
}

static enum results_run_status run_status(const struct engine_totals *t, int code, bool aborted)
{
	if (aborted)
		return RESULTS_RUN_ABORTED;
	if (code == RIG_EXIT_FAIL)
		return RESULTS_RUN_FAIL;
	if (code == RIG_EXIT_INFRA)
		return RESULTS_RUN_INFRA;
	return t->known ? RESULTS_RUN_KNOWN : RESULTS_RUN_PASS;
}

/* The command line the run's first boot adds: a hibernation image the run did not write (one an
 * interrupted run or a person left in the board's swap) would be restored by that boot, which
 * then never reaches the agent; noresume discards it (image/init re-makes the swap). A board
 * whose command line rig does not set cannot be told: its first boot restores such an image. */
static const char *first_boot_cmdline(const struct board *board)
{
	return deploy_can_set_cmdline(board) ? "noresume" : NULL;
}

int engine_run(struct board *board, const struct plan *plan, struct results_db *db,
	       const struct engine_options *opts, struct engine_totals *totals, struct rig_err *err)
{
	struct engine_ctx ctx = {
		.board = board, .plan = plan, .opts = opts, .db = db, .totals = totals,
		.knob = plan->knob,
	};
	unsigned cycles = opts->cycles ? opts->cycles : plan->cycles;
	char *meta_text = load_kernel_meta(opts->kernel_meta_path, &ctx.s_id_offset);
	int rc, code;

	memset(totals, 0, sizeof(*totals));
	ctx.started_at = monotonic_seconds();   /* the first boot counts: it is part of the run */
	plan_timeouts(plan, board, &ctx.t);
	ctx.cycle_total = cycles * action_steps(plan);
	totals->cycles = ctx.cycle_total;
	/* The run row first: whatever fails after this is an infra run, not a run never stored. */
	if (begin_run(&ctx, meta_text, err) < 0) {
		free(meta_text);
		return RIG_EXIT_INFRA;
	}
	totals->run_id = ctx.run_id;
	if (opts->kernel_meta_path && !meta_text) {
		rig_err_set(err, RIG_EXIT_INFRA, "kernel meta %s: not readable JSON",
			    opts->kernel_meta_path);
		return end_early(&ctx, meta_text);
	}
	if (meta_text) {
		char why[200];

		if (identity_from_meta(meta_text, &ctx.want, why, sizeof(why)) < 0) {
			rig_err_set(err, RIG_EXIT_INFRA, "%s: %s", opts->kernel_meta_path, why);
			return end_early(&ctx, meta_text);
		}
	}
	if (session_open(board, opts->run_dir, opts->progress, &ctx.s, err) < 0) {
		ctx.s = NULL;
		return end_early(&ctx, meta_text);
	}
	ctx.s->stop = opts->stop;
	if (describe_run(&ctx, err) < 0)
		return end_early(&ctx, meta_text);
	rc = board_boot(&ctx, first_boot_cmdline(board), NULL, err);
	if (rc != 0) {
		if (rc == 2 || (rc == 1 && opts->stop && *opts->stop))
			rig_err_set(err, RIG_EXIT_INFRA, "board %s: stopped during its first boot",
				    board->name);
		else if (rc == 1)
			rig_err_set(err, RIG_EXIT_INFRA, "board %s did not boot to its agent within %u s (see %s)",
				    board->name, ctx.t.boot, ctx.s->console_log);
		return end_early(&ctx, meta_text);
	}
	if (describe_run(&ctx, err) < 0)
		return end_early(&ctx, meta_text);
	results_add_artefact(db, ctx.run_id, 0, "console-log", ctx.s->console_log, err);
	rc = run_plan(&ctx, cycles, err);
	code = exit_code(totals, opts->strict, rc);
	if (rc == 1 && opts->stop && *opts->stop)
		code = RIG_EXIT_FAIL;
	{
		struct rig_err end_err;
		bool aborted = opts->stop && *opts->stop;

		/* Stopped between cycles: nothing in flight, but the run still ends as aborted
		 * (a stop inside a cycle was marked by run_cycle already). */
		if (aborted && !ctx.aborted_marked)
			(void)results_mark_aborted(db, ctx.run_id, NULL, 130, &end_err);
		if (!aborted && results_run_end(db, ctx.run_id, run_status(totals, code, false), code,
						&end_err) < 0 && code == RIG_EXIT_PASS) {
			*err = end_err;
			code = RIG_EXIT_INFRA;
		}
	}
	free(ctx.owner_pending);
	session_close(ctx.s);
	free(meta_text);
	return code;
}
