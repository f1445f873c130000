/* Shared by the results/ sources only: the handle and statement helpers. */
#ifndef RIG_RESULTS_DB_INTERNAL_H
#define RIG_RESULTS_DB_INTERNAL_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

#include "results/db.h"

#define RESULTS_STMT_CACHE 8

struct results_db {
	sqlite3 *sql;
	char *path;
	int in_batch;    /* results_batch_begin(): inner transactions are savepoints */
	/* statements prepared once per handle (results_db_cached), keyed by their text's address */
	struct { const char *sql; sqlite3_stmt *stmt; } cache[RESULTS_STMT_CACHE];
};

/* Open db->path read-only for a reader (open_read.c): works in a directory the reader cannot
 * write; never writes. */
int results_db_open_reader(struct results_db *db, struct rig_err *err);
/* A writer's -wal and -shm stay when it closes, so a reader that cannot create them (a directory
 * it cannot write) still opens the database without falling back to immutable (open_read.c). */
int results_db_keep_wal(struct results_db *db, struct rig_err *err);

/* Fill err with "results db PATH: WHAT: sqlite message" (class infra); returns -1. */
int results_db_fail(struct results_db *db, const char *what, struct rig_err *err);

int results_db_prepare(struct results_db *db, const char *sql, sqlite3_stmt **stmt,
		       struct rig_err *err);
/* The statement for sql, a string constant (its address is the key), prepared on first use and
 * kept until results_close(): never finalize it; results_db_step_done() resets it. Falls back to
 * a fresh statement the caller must finalize when the cache is full (*cached false). */
int results_db_cached(struct results_db *db, const char *sql, sqlite3_stmt **stmt, bool *cached,
		      struct rig_err *err);
/* Step a statement that returns no rows, then reset it for reuse. */
int results_db_step_done(struct results_db *db, sqlite3_stmt *stmt, const char *what,
			 struct rig_err *err);
int results_db_exec(struct results_db *db, const char *sql, struct rig_err *err);
/* Step st to its end, handing each row to row(st, ctx); a non-zero answer stops the walk and is
 * returned. st is finalized. For the readers (read.c, bisects_read.c). */
int results_db_each_row(struct results_db *db, sqlite3_stmt *st, const char *what,
			int (*row)(sqlite3_stmt *st, const void *ctx), const void *ctx,
			struct rig_err *err);

/* BEGIN IMMEDIATE takes the write lock up front so busy_timeout applies to the whole transaction. */
int results_db_begin(struct results_db *db, struct rig_err *err);
int results_db_commit(struct results_db *db, struct rig_err *err);
/* Best effort: the original error is what the caller reports. */
void results_db_rollback(struct results_db *db);

/*
 * Binds named parameters (":board") and remembers the first failure, so a statement's bindings
 * read as a list and are checked once with results_bind_check().
 */
struct results_binder {
	sqlite3_stmt *stmt;
	int rc;
	const char *failed_name;
};

void results_bind_text(struct results_binder *b, const char *name, const char *value);
void results_bind_int64(struct results_binder *b, const char *name, int64_t value);
/* A negative value is stored as NULL ("unknown"). */
void results_bind_offset(struct results_binder *b, const char *name, int64_t value);
/* NAN is stored as NULL. */
void results_bind_real(struct results_binder *b, const char *name, double value);
void results_bind_knob(struct results_binder *b, const char *name, enum results_knob knob);
int results_bind_check(struct results_db *db, const struct results_binder *b, const char *what,
		       struct rig_err *err);

#endif
