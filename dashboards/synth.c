#include "dashboards/synth.h"

#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "dashboards/sql.h"
#include "results/db.h"

#define SYNTH_EPOCH 1735732800.0   /* 2025-01-01 12:00 UTC: midday, so the local night is stable */
#define DAY 86400.0
#define KNOWN_ID "lockdep-freezer-set-task-frozen"

static const char *const filesystems[] = { "nvme-ext4", "sata-xfs" };
static const char *const phases[] = { "freeze_tasks_ms", "freeze_filesystems_ms", "suspend_ms",
				      "enter_sleep_ms", "resume_ms", "thaw_filesystems_ms" };

struct synth_stmts {
	sqlite3_stmt *run, *cycle, *verdict, *measurement, *artefact;
};

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

static int step(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

static int insert_run(struct synth_stmts *s, struct synth_run *r)
{
	double started = SYNTH_EPOCH + r->night * DAY + r->board * 600.0;
	time_t secs = (time_t)started;
	char board[32], night[16], kernel[32], log[96];
	struct tm tm;

	if (!localtime_r(&secs, &tm) || !strftime(night, sizeof(night), "%Y-%m-%d", &tm))
		return -1;
	snprintf(board, sizeof(board), "board-%02d", r->board);
	snprintf(kernel, sizeof(kernel), "6.16.0-rc%d", 1 + r->night / 30);
	snprintf(log, sizeof(log), "out/runs/%s/%d/console.log", board, r->night);
	if (sqlite3_bind_text(s->run, 1, board, -1, SQLITE_TRANSIENT) ||
	    sqlite3_bind_text(s->run, 2, night, -1, SQLITE_TRANSIENT) ||
	    sqlite3_bind_text(s->run, 3, kernel, -1, SQLITE_TRANSIENT) ||
	    sqlite3_bind_int(s->run, 4, r->board % 2) ||
	    sqlite3_bind_double(s->run, 5, started) ||
	    sqlite3_bind_text(s->run, 6, r->status, -1, SQLITE_STATIC) ||
	    sqlite3_bind_text(s->run, 7, log, -1, SQLITE_TRANSIENT) || step(s->run))
		return -1;
	r->id = sqlite3_last_insert_rowid(sqlite3_db_handle(s->run));
	if (sqlite3_bind_int64(s->artefact, 1, r->id) ||
	    sqlite3_bind_text(s->artefact, 2, log, -1, SQLITE_TRANSIENT))
		return -1;
	return step(s->artefact);
}

static int insert_verdict(struct synth_stmts *s, int64_t cycle_id, const char *name,
			  const char *fs, const char *result, const char *known)
{
	return sqlite3_bind_int64(s->verdict, 1, cycle_id) ||
	       sqlite3_bind_text(s->verdict, 2, name, -1, SQLITE_STATIC) ||
	       sqlite3_bind_text(s->verdict, 3, fs, -1, SQLITE_STATIC) ||
	       sqlite3_bind_text(s->verdict, 4, result, -1, SQLITE_STATIC) ||
	       sqlite3_bind_text(s->verdict, 5, known, -1, SQLITE_STATIC) ||
	       sqlite3_bind_text(s->verdict, 6, "synthetic detail", -1, SQLITE_STATIC) ||
	       step(s->verdict) ? -1 : 0;
}

static int insert_measurement(struct synth_stmts *s, int64_t cycle_id, const char *name,
			      const char *fs, double value)
{
	return sqlite3_bind_int64(s->measurement, 1, cycle_id) ||
	       sqlite3_bind_text(s->measurement, 2, name, -1, SQLITE_STATIC) ||
	       sqlite3_bind_text(s->measurement, 3, fs, -1, SQLITE_STATIC) ||
	       sqlite3_bind_double(s->measurement, 4, value) ||
	       step(s->measurement) ? -1 : 0;
}

static int insert_cycle_items(struct synth_stmts *s, struct synth_run *r, int64_t cycle_id,
			      int idx)
{
	bool known = r->status[0] == 'k' && idx % 3 == 0;
	int ret = insert_verdict(s, cycle_id, "suspend", NULL, "pass", NULL);

	ret |= insert_verdict(s, cycle_id, "clean-resume", NULL, known ? "fail" : "pass",
			      known ? KNOWN_ID : NULL);
	ret |= insert_verdict(s, cycle_id, "order", NULL, "pass", NULL);
	for (size_t f = 0; f < 2; f++) {
		bool failed = r->status[0] == 'f' && f == 1 && idx % 2 == 0;

		ret |= insert_verdict(s, cycle_id, "stall", filesystems[f], failed ? "fail" : "pass",
				      NULL);
		ret |= insert_verdict(s, cycle_id, "no-loss", filesystems[f], "pass", NULL);
		ret |= insert_measurement(s, cycle_id, "stall_ms", filesystems[f],
					  40 + next_random(&r->rng) % 60 + (failed ? 900 : 0));
	}
	for (size_t p = 0; p < sizeof(phases) / sizeof(phases[0]); p++)
		ret |= insert_measurement(s, cycle_id, phases[p], NULL,
					  5 + next_random(&r->rng) % 200);
	return ret ? -1 : 0;
}

static int insert_cycles(struct synth_stmts *s, struct synth_run *r, int cycles)
{
	for (int idx = 0; idx < cycles; idx++) {
		bool infra = r->status[0] == 'i' && idx == cycles - 1;
		const char *status = infra ? "infra" : r->status[0] == 'f' && idx % 2 == 0 ? "fail"
				     : "pass";

		if (sqlite3_bind_int64(s->cycle, 1, r->id) || sqlite3_bind_int(s->cycle, 2, idx) ||
		    sqlite3_bind_text(s->cycle, 3, idx % 2 ? "hibernate" : "suspend", -1,
				      SQLITE_STATIC) ||
		    sqlite3_bind_text(s->cycle, 4, status, -1, SQLITE_STATIC) ||
		    sqlite3_bind_double(s->cycle, 5, SYNTH_EPOCH + idx * 30.0) || step(s->cycle))
			return -1;
		if (!infra && insert_cycle_items(s, r, sqlite3_last_insert_rowid(
							       sqlite3_db_handle(s->cycle)), idx))
			return -1;
	}
	return 0;
}

static int prepare_all(sqlite3 *sql, struct synth_stmts *s, struct rig_err *err)
{
	return dash_sql_prepare(sql, "INSERT INTO runs (board, night, kernel_version,"
				" knob_freeze_filesystems, started_at, status, console_log, plan, host)"
				" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'nightly', 'synth')",
				&s->run, err) ||
	       dash_sql_prepare(sql, "INSERT INTO cycles (run_id, idx, step_kind, status, started_at)"
				" VALUES (?1, ?2, ?3, ?4, ?5)", &s->cycle, err) ||
	       dash_sql_prepare(sql, "INSERT INTO verdicts (cycle_id, name, filesystem, result,"
				" known_issue, detail) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
				&s->verdict, err) ||
	       dash_sql_prepare(sql, "INSERT INTO measurements (cycle_id, name, filesystem, value,"
				" unit) VALUES (?1, ?2, ?3, ?4, 'ms')", &s->measurement, err) ||
	       dash_sql_prepare(sql, "INSERT INTO artefacts (run_id, kind, path)"
				" VALUES (?1, 'console-log', ?2)", &s->artefact, err) ? -1 : 0;
}

static int fill(sqlite3 *sql, const struct dash_synth *spec, struct rig_err *err)
{
	struct synth_stmts s = { 0 };
	uint32_t rng = 12345;
	int ret = prepare_all(sql, &s, err);

	for (int i = 0; i < spec->runs && !ret; i++) {
		struct synth_run r = { .board = i % spec->boards, .night = i / spec->boards,
				       .status = pick_status(&rng), .rng = rng };

		if (insert_run(&s, &r) || insert_cycles(&s, &r, spec->cycles))
			ret = rig_err_set(err, RIG_EXIT_INFRA, "dashboard: synthetic insert: %s",
					  sqlite3_errmsg(sql));
	}
	sqlite3_finalize(s.run), sqlite3_finalize(s.cycle), sqlite3_finalize(s.verdict);
	sqlite3_finalize(s.measurement), sqlite3_finalize(s.artefact);
	return ret;
}

int dash_synth_fill(const char *db_path, const struct dash_synth *spec, struct rig_err *err)
{
	struct results_db *db;
	sqlite3 *sql;
	int ret;

	if (spec->runs < 0 || spec->cycles < 0 || spec->boards < 1)
		return rig_err_set(err, RIG_EXIT_USAGE, "dashboard: bad synthetic history size");
	/* results_open creates the schema exactly as rig run would. */
	if (results_open(db_path, RESULTS_OPEN_CREATE, &db, err))
		return -1;
	results_close(db);
	if (sqlite3_open_v2(db_path, &sql, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		sqlite3_close(sql);
		return rig_err_set(err, RIG_EXIT_INFRA, "dashboard: cannot open %s", db_path);
	}
	ret = dash_sql_exec(sql, "PRAGMA synchronous = OFF", err);
	if (!ret)
		ret = dash_sql_exec(sql, "BEGIN", err);
	if (!ret)
		ret = fill(sql, spec, err);
	if (!ret)
		ret = dash_sql_exec(sql, "COMMIT", err);
	sqlite3_close(sql);
	return ret;
}
