/*
 * Reading the results back for reports: the dashboard's overview and run pages, rig known. Every
 * query is here, in results/ (which owns all SQL), and hands out typed rows; callers never see
 * the schema. Strings in a row point into SQLite's row: they are valid during the callback (or
 * until the cursor moves) and must be copied to be kept.
 *
 * Open the database with RESULTS_OPEN_READ (db.h): read-only, never migrated, so a report can
 * run while a rig writes. results_read_begin/end make several queries one consistent snapshot.
 */
#ifndef RIG_RESULTS_READ_H
#define RIG_RESULTS_READ_H

#include <stdint.h>

#include "results/cycle.h"
#include "results/db.h"

/* Several queries as one snapshot of the database (a read transaction). */
int results_read_begin(struct results_db *db, struct rig_err *err);
void results_read_end(struct results_db *db);

/* ---- runs and nights (overview pages) ----------------------------------------------------- */

/* Knobs: -1 unknown, 0 off, 1 on. ended_at NAN while running. */
struct results_run_row {
	int64_t id;
	const char *board, *night, *kernel_version, *kernel_sha, *plan, *status, *console_log, *host;
	int knob_freeze_filesystems, knob_sync_on_suspend;
	double started_at, ended_at;
	int n_cycles, n_cycles_failed;   /* cycles, and those whose status is not pass */
	int n_cycles_fail, n_cycles_hang, n_cycles_infra;   /* of those: status fail, hang, infra */
	const char *source;              /* "rig" or "lava" */
	const char *lava_job_id;         /* NULL unless from LAVA */
	const char *lava_server;         /* NULL: from a file (or a schema 1 database) */
};

/* Non-zero from a callback stops the walk and is returned (with err untouched). */
typedef int (*results_run_fn)(void *ctx, const struct results_run_row *row);
typedef int (*results_text_fn)(void *ctx, const char *text);

/* Every run, by board, then started_at, then id. */
int results_each_run(struct results_db *db, results_run_fn fn, void *ctx, struct rig_err *err);
/* The distinct nights runs started on, ascending. */
int results_each_night(struct results_db *db, results_text_fn fn, void *ctx, struct rig_err *err);

/* ---- run details (run pages), streamed ---------------------------------------------------- */

/*
 * One ordered cursor per table over the whole database, each by run (then cycle, then row id):
 * a report that walks runs in increasing id order reads each table once, whatever its size.
 */
enum results_detail {
	RESULTS_DETAIL_CYCLES,
	RESULTS_DETAIL_VERDICTS,
	RESULTS_DETAIL_MEASUREMENTS,
	RESULTS_DETAIL_ARTEFACTS,
	RESULTS_DETAIL_PHASES,      /* cycle_phases as measurement rows: name = phase, unit "s",
				     * value NAN when unknown; none before schema 4 */
	RESULTS_DETAIL_WAKES,       /* cycle_wakes; none before schema 7 */
};

struct results_cycle_row {
	int idx;
	const char *step_kind, *step_desc, *status, *hang_phase, *kernel_version, *console_tail;
	double started_at, ended_at;    /* NAN when not known */
};

struct results_verdict_row {
	int cycle_idx;
	const char *name, *filesystem, *result, *known_issue, *detail;
};

struct results_measurement_row {
	int cycle_idx;
	const char *name, *filesystem, *unit;
	double value;                   /* NAN: unknown (a time-budget phase) */
};

struct results_artefact_row {
	int cycle_idx;                  /* -1: an artefact of the whole run */
	const char *kind, *path;
};

struct results_wake_row {
	int cycle_idx;
	struct results_wake wake;       /* strings valid until the cursor moves */
};

struct results_cursor;

int results_cursor_open(struct results_db *db, enum results_detail table,
			struct results_cursor **out, struct rig_err *err);
void results_cursor_close(struct results_cursor *c);
/* The run of the current row; INT64_MAX once past the last row. */
int64_t results_cursor_run(const struct results_cursor *c);
int results_cursor_next(struct results_cursor *c, struct rig_err *err);
/* The current row as its table's struct (the cursor must be of that table). */
void results_cursor_cycle(const struct results_cursor *c, struct results_cycle_row *row);
void results_cursor_verdict(const struct results_cursor *c, struct results_verdict_row *row);
/* Measurements, and the time-budget phases of RESULTS_DETAIL_PHASES. */
void results_cursor_measurement(const struct results_cursor *c,
				struct results_measurement_row *row);
void results_cursor_artefact(const struct results_cursor *c, struct results_artefact_row *row);
void results_cursor_wake(const struct results_cursor *c, struct results_wake_row *row);

/* ---- known issues (rig known) ------------------------------------------------------------- */

/* The last night a verdict was classified as known issue id (last[0] = '\0' when never), and
 * on how many distinct nights runs happened after it (all nights with runs when never). */
int results_known_history(struct results_db *db, const char *id, char *last, size_t size,
			  int *nights_since, struct rig_err *err);

#endif
