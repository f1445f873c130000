/*
 * The results database (SQLite, out/results.db by default): runs, their cycles, and each cycle's
 * verdicts, measurements, events and artefacts. One writer (the rig holding the board lock) and
 * any number of readers (rig results, rig known, the dashboard): WAL mode and a 5 s busy timeout.
 * results/ owns all SQL: the schema (schema.c), writing (this file, cycle.h, bisects.h) and every
 * query reports make (read.h, query.h, bisects.h); no other folder talks to SQLite.
 *
 * Usage:  results_open() -> results_run_begin() -> per cycle: results_cycle_begin() (cycle.h),
 *         add verdicts/measurements/events, results_cycle_end(), results_cycle_commit()
 *         -> results_run_end(), or results_mark_aborted() on Ctrl-C.
 * Every failure is a RIG_EXIT_INFRA error (or RIG_EXIT_USAGE for a missing/foreign file).
 */
#ifndef RIG_RESULTS_DB_H
#define RIG_RESULTS_DB_H

#include <stddef.h>
#include <stdint.h>

#include "results/cycle.h"
#include "util/err.h"

#define RESULTS_DB_DEFAULT_PATH "out/results.db"

struct results_db;

enum results_open_mode {
	RESULTS_OPEN_CREATE,    /* create the file if missing (rig run) */
	RESULTS_OPEN_EXISTING,  /* a missing file is a usage error (rig results) */
	RESULTS_OPEN_READ,      /* read-only, never migrated (reports: read.h); missing = usage */
};

enum results_run_status {
	RESULTS_RUN_RUNNING,
	RESULTS_RUN_PASS,
	RESULTS_RUN_FAIL,
	RESULTS_RUN_KNOWN,      /* failed, but every failure matched a known issue */
	RESULTS_RUN_INFRA,
	RESULTS_RUN_ABORTED,
};

struct results_run_info {
	const char *board;                 /* required */
	const char *board_file;
	const char *plan;
	const char *plan_file;
	const char *source;                /* "rig" (NULL means rig) or "lava" */
	const char *lava_job_id;
	const char *lava_server;           /* base URL the job was fetched from; NULL: from a file */
	const char *kernel_version;
	const char *kernel_build_id;       /* GNU build-id the board reported (rig-dut info) */
	const char *deploy;                /* the board's deploy backend (qemu, tftp, command, none) */
	const char *kernel_meta;           /* the build's meta.json text; must be valid JSON or NULL */
	const char *kernel_sha;
	const char *freeze_series;
	enum results_knob knob_freeze_filesystems;
	enum results_knob knob_sync_on_suspend;
	double started_at;                 /* unix seconds; 0 = now. Also decides the local "night" */
	const char *console_log;
	const char *host;                  /* NULL = this host's name */
	const char *rig_version;
};

/* Open (and create or migrate to the current schema) the database at path. */
int results_open(const char *path, enum results_open_mode mode, struct results_db **out,
		 struct rig_err *err);
void results_close(struct results_db *db);
/* Schema version of the open database (SQLite user_version). */
int results_schema_version(struct results_db *db, int *version, struct rig_err *err);

int results_run_begin(struct results_db *db, const struct results_run_info *info, int64_t *run_id,
		      struct rig_err *err);
/* What the run learnt after it began (the board's kernel and knobs once it booted, the console
 * log once the console was open): kernel_version, kernel_build_id, the two knobs and
 * console_log of info replace the stored ones. The run row exists from the first moment, so a
 * board that never boots is still an infra run on the dashboard. */
int results_run_describe(struct results_db *db, int64_t run_id,
			 const struct results_run_info *info, struct rig_err *err);
int results_run_end(struct results_db *db, int64_t run_id, enum results_run_status status,
		    int exit_code, struct rig_err *err);

/* Write the cycle and everything collected in it in one transaction. */
int results_cycle_commit(struct results_db *db, const struct results_cycle *cycle,
			 int64_t *cycle_id, struct rig_err *err);

/*
 * Ctrl-C: store the cycle in flight (may be NULL) with status aborted and what it had collected,
 * and end the run as aborted, in one transaction. Call it from normal context after the signal
 * handler set its flag, never from the handler.
 */
int results_mark_aborted(struct results_db *db, int64_t run_id, const struct results_cycle *in_flight,
			 int exit_code, struct rig_err *err);

/* An artefact of the whole run (cycle_id 0) or of an already committed cycle. */
int results_add_artefact(struct results_db *db, int64_t run_id, int64_t cycle_id, const char *kind,
			 const char *path, struct rig_err *err);

const char *results_run_status_name(enum results_run_status status);

/*
 * A batch: everything written between results_batch_begin() and results_batch_commit() is stored
 * at once or, after results_batch_rollback() (or a process that dies), not at all. Transactions
 * the functions above open inside a batch become savepoints of it. Takes the write lock up front,
 * so a lookup made inside the batch stays true until the commit.
 */
int results_batch_begin(struct results_db *db, struct rig_err *err);
int results_batch_commit(struct results_db *db, struct rig_err *err);
void results_batch_rollback(struct results_db *db);

/* The run a LAVA job was already stored as (*run_id > 0, and its exit code), or *run_id 0 when it
 * was not. server NULL: the job came from a file. */
int results_lava_run_find(struct results_db *db, const char *server, const char *job_id,
			  int64_t *run_id, int *exit_code, struct rig_err *err);

/*
 * Stale runs (results/stale.c): a rig killed outright (SIGKILL, a crash) leaves its run
 * `running`. results_running_list() gives the rig runs still running (of one board, or all with
 * board NULL), oldest first; free with results_running_free(). results_run_reconcile() ends one
 * as aborted (exit code NULL) if it is still running (*changed 1). Whether a run's rig is gone is
 * the caller's to judge (cli/stale.c: the board lock is free on the run's host).
 */
struct results_running {
	int64_t id;
	char *board, *host;
};

int results_running_list(struct results_db *db, const char *board, struct results_running **out,
			 size_t *n, struct rig_err *err);
void results_running_free(struct results_running *list, size_t n);
int results_run_reconcile(struct results_db *db, int64_t run_id, int *changed,
			  struct rig_err *err);

#endif
