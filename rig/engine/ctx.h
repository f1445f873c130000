/* State shared by the engine's files while a run is in progress (not a public interface). */
#ifndef RIG_ENGINE_CTX_H
#define RIG_ENGINE_CTX_H

#include <stdbool.h>
#include <stdint.h>

#include "config/board.h"
#include "config/plan.h"
#include "engine/engine.h"
#include "engine/session.h"
#include "results/cycle.h"
#include "results/db.h"
#include "judge/budget.h"
#include "judge/fio.h"
#include "judge/host_cpu.h"
#include "judge/timeline.h"
#include "judge/identity.h"
#include "judge/judge.h"
#include "judge/window.h"

struct board_state {              /* what the board said after its last boot */
	char kernel_version[64];
	int knob_freeze_filesystems;  /* -1 = absent (a kernel without the series) */
	int knob_sync_on_suspend;
	char boot_id[64];
	char build_id[72];            /* GNU build-id of the running kernel; "" = not reported */
};

struct engine_ctx {
	struct board *board;
	const struct plan *plan;
	const struct engine_options *opts;
	struct session *s;
	struct results_db *db;
	int64_t run_id;
	struct board_timeouts t;      /* board timeouts with the plan's overrides */
	struct board_state st;
	struct kernel_identity want;  /* the deployed kernel's (meta.json); version "" = unknown */
	bool wrong_kernel;            /* the board booted another kernel: the run ends (exit 3) */
	long s_id_offset;             /* struct super_block.s_id, -1 unknown */
	struct plan_knob knob;        /* what the plan last asked for */
	char *owner_pending;          /* a filesystem frozen from userspace before the next suspend */
	struct fio_acks fio_acked;    /* fio's verify states at the last checkpoint */
	bool needs_boot;              /* the board went down: boot before the next step */
	struct engine_totals *totals;
	unsigned cycle_no, cycle_total;
	double started_at;            /* monotonic: when the run began (its first boot) */
	double last_timeout_overrun_ms; /* how late the last timed-out wait noticed its deadline */
	long long last_wait_extended_ms; /* how long past its timeout the last wait let a busy board run */
	bool aborted_marked;          /* the run is already stored as aborted */
	/* this cycle's time budget (judge/budget.h): its console events as they are stored, */
	struct budget_state budget;
	long presync_ms;              /* rig-dut suspend's pre-suspend sync; -1 unknown */
	double collect_from;          /* monotonic: the collection after the resume began; 0 none */
	struct frozen_window budget_window;   /* rig-dut trace-read of the cycle */
	bool budget_traced;           /* budget_window was read */
	/* this cycle's host CPU samples (engine/starvation.h): its start, and a declared hang */
	struct host_cpu_sample host_from, host_hang;
	unsigned infra_in_a_row;      /* cycles ended by an infrastructure error since one did not */
};

/* Per-step runner: fills cyc (verdicts, measurements, status). Returns 0 when the step ran
 * (whatever its verdicts), 1 when the board hung (cycle marked as hang, board down), -1 on an
 * infrastructure error. */
int step_run(struct engine_ctx *ctx, const struct step *step, struct results_cycle *cyc,
	     struct rig_err *err);

/* Bring a freshly booted board to the plan's starting state: read its identity, set knobs,
 * arm the trace, start the workloads. */
int board_prepare(struct engine_ctx *ctx, struct rig_err *err);
/* Read the board's identity, set the plan's knobs, arm the trace (no workloads). */
int board_prepare_base(struct engine_ctx *ctx, struct rig_err *err);
int board_apply_knobs(struct engine_ctx *ctx, struct rig_err *err);
int board_start_workloads(struct engine_ctx *ctx, struct rig_err *err);
/* fio again after a checkpoint stopped it and the failure it was taken for did not happen (the
 * board came back by itself). */
int board_resume_fio(struct engine_ctx *ctx, struct rig_err *err);
/* Boot and wait for the agent only (a timeout is a "boot" hang: returns 1; stopped by a
 * signal: 2). */
int board_boot_only(struct engine_ctx *ctx, const char *extra_cmdline, struct results_cycle *cyc,
		    struct rig_err *err);
/* Boot, treating a boot timeout as a hang of phase "boot" recorded in cyc (may be NULL). */
int board_boot(struct engine_ctx *ctx, const char *extra_cmdline, struct results_cycle *cyc,
	       struct rig_err *err);

/* What the judge needs to know of the board right now (judge/judge.h). */
void judge_context_of(const struct engine_ctx *ctx, struct judge_context *c);
/* Store the judge's verdicts and measurements in the cycle, count them in the run's totals and
 * say every verdict that did not pass (store.c). */
int store_judgement(struct engine_ctx *ctx, struct results_cycle *cyc, const struct judgement *j,
		    struct rig_err *err);
/* A failed verdict store_judgement counted is not judged after all (judge/starvation.h): the
 * run's totals count it as a skip. */
void store_recount_as_skip(struct engine_ctx *ctx, const char *name);
/* Store the events of the step in the cycle (failures and PM milestones only); every event goes
 * to the cycle's time budget. */
int cycle_store_events(struct engine_ctx *ctx, struct results_cycle *cyc,
		       const struct judge_event *ev, size_t n, struct rig_err *err);
/* A new cycle: its time budget starts empty. */
void cycle_budget_begin(struct engine_ctx *ctx);
/* The cycle's time budget, one phase per row (unknown ones too), stored with the cycle. */
int cycle_store_budget(struct engine_ctx *ctx, struct results_cycle *cyc, struct rig_err *err);

/* The cycle's per-device timeline (plans with `timeline: true`), joined already, into the cycle. */
int store_timeline(struct results_cycle *cyc, const struct timeline *tl, struct rig_err *err);

enum results_knob knob_of(int value);

#endif
