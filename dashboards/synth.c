#include "dashboards/synth.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "results/db.h"

#define SYNTH_EPOCH 1735732800.0   /* 2025-01-01 12:00 UTC: midday, so the local night is stable */
#define DAY 86400.0
#define KNOWN_ID "lockdep-freezer-set-task-frozen"

static const char *const filesystems[] = { "nvme-ext4", "sata-xfs" };
static const char *const phases[] = { "freeze_tasks_ms", "freeze_filesystems_ms", "suspend_ms",
				      "enter_sleep_ms", "resume_ms", "thaw_filesystems_ms" };

struct synth_run {
	int64_t id;
	int board, night;
	const char *status;     /* pass, fail, known, infra */
	uint32_t rng;
};

static uint32_t next_random(uint32_t *state)
{
	*state = *state * 1664525u + 1013904223u;
	return *state >> 8;
}

static const char *pick_status(uint32_t *rng)
{
	uint32_t r = next_random(rng) % 100;

	return r < 80 ? "pass" : r < 88 ? "fail" : r < 95 ? "known" : "infra";
}

static enum results_run_status run_status(const char *status)
{
	return status[0] == 'p' ? RESULTS_RUN_PASS : status[0] == 'f' ? RESULTS_RUN_FAIL
	       : status[0] == 'k' ? RESULTS_RUN_KNOWN : RESULTS_RUN_INFRA;
}

static int insert_run(struct results_db *db, struct synth_run *r, struct rig_err *err)
{
	char board[32], kernel[32], log[96];
	struct results_run_info info = {
		.board = board, .plan = "nightly", .kernel_version = kernel, .host = "synth",
		.knob_freeze_filesystems = r->board % 2 ? RESULTS_KNOB_ON : RESULTS_KNOB_OFF,
		.started_at = SYNTH_EPOCH + r->night * DAY + r->board * 600.0, .console_log = log,
	};

	snprintf(board, sizeof(board), "board-%02d", r->board);
	snprintf(kernel, sizeof(kernel), "6.16.0-rc%d", 1 + r->night / 30);
	snprintf(log, sizeof(log), "out/runs/%s/%d/console.log", board, r->night);
	if (results_run_begin(db, &info, &r->id, err))
		return -1;
	return results_add_artefact(db, r->id, 0, "console-log", log, err);
}

static int add_items(struct results_cycle *c, struct synth_run *r, int idx, struct rig_err *err)
{
	bool known = r->status[0] == 'k' && idx % 3 == 0;
	int ret = results_cycle_add_verdict(c, "suspend", NULL, RESULTS_VERDICT_PASS, NULL,
					    "synthetic detail", err);

	ret |= results_cycle_add_verdict(c, "clean-resume", NULL,
					 known ? RESULTS_VERDICT_FAIL : RESULTS_VERDICT_PASS,
					 known ? KNOWN_ID : NULL, "synthetic detail", err);
	ret |= results_cycle_add_verdict(c, "order", NULL, RESULTS_VERDICT_PASS, NULL,
					 "synthetic detail", err);
	for (size_t f = 0; f < 2; f++) {
		bool failed = r->status[0] == 'f' && f == 1 && idx % 2 == 0;

		ret |= results_cycle_add_verdict(c, "stall", filesystems[f],
						 failed ? RESULTS_VERDICT_FAIL : RESULTS_VERDICT_PASS,
						 NULL, "synthetic detail", err);
		ret |= results_cycle_add_verdict(c, "no-loss", filesystems[f], RESULTS_VERDICT_PASS,
						 NULL, "synthetic detail", err);
		ret |= results_cycle_add_measurement(c, "stall_ms", filesystems[f],
						     40 + next_random(&r->rng) % 60 + (failed ? 900 : 0),
						     "ms", err);
	}
	for (size_t p = 0; p < sizeof(phases) / sizeof(phases[0]); p++)
		ret |= results_cycle_add_measurement(c, phases[p], NULL,
						     5 + next_random(&r->rng) % 200, "ms", err);
	return ret ? -1 : 0;
}

static int insert_cycles(struct results_db *db, struct synth_run *r, int cycles,
			 struct rig_err *err)
{
	for (int idx = 0; idx < cycles; idx++) {
		bool infra = r->status[0] == 'i' && idx == cycles - 1;
		struct results_cycle_info info = {
			.idx = idx, .step_kind = idx % 2 ? "hibernate" : "suspend",
			.started_at = SYNTH_EPOCH + idx * 30.0, .console_from = -1,
		};
		struct results_cycle *c = results_cycle_begin(r->id, &info, err);
		int ret;

		if (!c)
			return -1;
		ret = infra ? 0 : add_items(c, r, idx, err);
		results_cycle_end(c, infra ? RESULTS_CYCLE_INFRA : r->status[0] == 'f' && idx % 2 == 0
				  ? RESULTS_CYCLE_FAIL : RESULTS_CYCLE_PASS, NAN, -1);
		if (!ret)
			ret = results_cycle_commit(db, c, NULL, err);
		results_cycle_free(c);
		if (ret)
			return -1;
	}
	return 0;
}

static int fill(struct results_db *db, const struct dash_synth *spec, struct rig_err *err)
{
	uint32_t rng = 12345;

	for (int i = 0; i < spec->runs; i++) {
		struct synth_run r = { .board = i % spec->boards, .night = i / spec->boards,
				       .status = pick_status(&rng), .rng = rng };

		if (insert_run(db, &r, err) || insert_cycles(db, &r, spec->cycles, err) ||
		    results_run_end(db, r.id, run_status(r.status), 0, err))
			return -1;
	}
	return 0;
}

int dash_synth_fill(const char *db_path, const struct dash_synth *spec, struct rig_err *err)
{
	struct results_db *db;
	int ret;

	if (spec->runs < 0 || spec->cycles < 0 || spec->boards < 1)
		return rig_err_set(err, RIG_EXIT_USAGE, "dashboard: bad synthetic history size");
	/* Through the results API, exactly as rig run writes, in one batch. */
	if (results_open(db_path, RESULTS_OPEN_CREATE, &db, err))
		return -1;
	ret = results_batch_begin(db, err);
	if (!ret)
		ret = fill(db, spec, err);
	if (!ret)
		ret = results_batch_commit(db, err);
	else
		results_batch_rollback(db);
	results_close(db);
	return ret;
}
