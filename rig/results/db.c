#include "results/db_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/schema.h"

#define BUSY_TIMEOUT_MS 5000

int results_db_fail(struct results_db *db, const char *what, struct rig_err *err)
{
	return rig_err_set(err, RIG_EXIT_INFRA, "results db %s: %s: %s", db->path, what,
			   sqlite3_errmsg(db->sql));
}

int results_db_prepare(struct results_db *db, const char *sql, sqlite3_stmt **stmt,
		       struct rig_err *err)
{
	if (sqlite3_prepare_v2(db->sql, sql, -1, stmt, NULL) != SQLITE_OK) {
		*stmt = NULL;
		return results_db_fail(db, "prepare", err);
	}
	return 0;
}

int results_db_cached(struct results_db *db, const char *sql, sqlite3_stmt **stmt, bool *cached,
		      struct rig_err *err)
{
	size_t i = 0;

	while (i < RESULTS_STMT_CACHE && db->cache[i].sql && db->cache[i].sql != sql)
		i++;
	*cached = i < RESULTS_STMT_CACHE;
	if (*cached && db->cache[i].sql) {
		*stmt = db->cache[i].stmt;
		return 0;
	}
	if (results_db_prepare(db, sql, stmt, err))
		return -1;
	if (*cached)
		db->cache[i].sql = sql, db->cache[i].stmt = *stmt;
	return 0;
}

int results_db_step_done(struct results_db *db, sqlite3_stmt *stmt, const char *what,
			 struct rig_err *err)
{
	int rc = sqlite3_step(stmt);

	if (rc != SQLITE_DONE) {
		results_db_fail(db, what, err);
		sqlite3_reset(stmt);
		return -1;
	}
	if (sqlite3_reset(stmt) != SQLITE_OK)
		return results_db_fail(db, what, err);
	if (sqlite3_clear_bindings(stmt) != SQLITE_OK)
		return results_db_fail(db, what, err);
	return 0;
}

int results_db_exec(struct results_db *db, const char *sql, struct rig_err *err)
{
	if (sqlite3_exec(db->sql, sql, NULL, NULL, NULL) != SQLITE_OK)
		return results_db_fail(db, sql, err);
	return 0;
}

int results_db_each_row(struct results_db *db, sqlite3_stmt *st, const char *what,
			int (*row)(sqlite3_stmt *st, const void *ctx), const void *ctx,
			struct rig_err *err)
{
	int rc, stop = 0;

	while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW)
		stop = row(st, ctx);
	if (!stop && rc != SQLITE_DONE)
		stop = results_db_fail(db, what, err);
	sqlite3_finalize(st);
	return stop;
}

int results_db_begin(struct results_db *db, struct rig_err *err)
{
	return results_db_exec(db, db->in_batch ? "SAVEPOINT inner" : "BEGIN IMMEDIATE", err);
}

int results_db_commit(struct results_db *db, struct rig_err *err)
{
	return results_db_exec(db, db->in_batch ? "RELEASE inner" : "COMMIT", err);
}

void results_db_rollback(struct results_db *db)
{
	if (sqlite3_get_autocommit(db->sql))
		return;
	if (db->in_batch)
		(void)sqlite3_exec(db->sql, "ROLLBACK TO inner; RELEASE inner", NULL, NULL, NULL);
	else
		(void)sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
}

int results_batch_begin(struct results_db *db, struct rig_err *err)
{
	if (db->in_batch)
		return rig_err_set(err, RIG_EXIT_INFRA, "results db %s: batches do not nest", db->path);
	if (results_db_exec(db, "BEGIN IMMEDIATE", err))
		return -1;
	db->in_batch = 1;
	return 0;
}

int results_batch_commit(struct results_db *db, struct rig_err *err)
{
	int ret = results_db_exec(db, "COMMIT", err);

	if (ret)
		(void)sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
	db->in_batch = 0;
	return ret;
}

void results_batch_rollback(struct results_db *db)
{
	if (!sqlite3_get_autocommit(db->sql))
		(void)sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
	db->in_batch = 0;
}

int results_schema_version(struct results_db *db, int *version, struct rig_err *err)
{
	sqlite3_stmt *stmt;
	int rc;

	if (results_db_prepare(db, "PRAGMA user_version", &stmt, err))
		return -1;
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW)
		*version = sqlite3_column_int(stmt, 0);
	else
		results_db_fail(db, "read user_version", err);
	sqlite3_finalize(stmt);
	return rc == SQLITE_ROW ? 0 : -1;
}

/* PRAGMA does not take bound parameters; the version is our own integer, not data. */
static int set_user_version(struct results_db *db, int version, struct rig_err *err)
{
	char sql[64];

	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", version);
	return results_db_exec(db, sql, err);
}

static int log_migration(struct results_db *db, int version, struct rig_err *err)
{
	struct results_binder b = { 0 };
	int ret;

	if (results_db_prepare(db, "INSERT INTO schema_version (version, applied_at) VALUES (:v, :at)",
			       &b.stmt, err))
		return -1;
	results_bind_int64(&b, ":v", version);
	results_bind_real(&b, ":at", results_now());
	ret = results_bind_check(db, &b, "log migration", err);
	if (ret == 0)
		ret = results_db_step_done(db, b.stmt, "log migration", err);
	sqlite3_finalize(b.stmt);
	return ret;
}

static int apply_migration(struct results_db *db, int from, struct rig_err *err)
{
	int now_version;

	if (results_db_begin(db, err))
		return -1;
	/* Re-read inside the write lock: another process may have migrated meanwhile. */
	if (results_schema_version(db, &now_version, err))
		goto fail;
	if (now_version != from) {
		results_db_rollback(db);
		return 0;
	}
	if (results_db_exec(db, results_schema_migrations[from], err) ||
	    log_migration(db, from + 1, err) || set_user_version(db, from + 1, err) ||
	    results_db_commit(db, err))
		goto fail;
	return 0;
fail:
	results_db_rollback(db);
	return -1;
}

static int migrate(struct results_db *db, struct rig_err *err)
{
	const int latest = (int)results_schema_n_migrations;
	int version;

	for (;;) {
		if (results_schema_version(db, &version, err))
			return -1;
		if (version == latest)
			return 0;
		if (version > latest || version < 0)
			return rig_err_set(err, RIG_EXIT_USAGE,
					   "results db %s: schema version %d is newer than this rig "
					   "understands (%d); upgrade rig", db->path, version, latest);
		if (apply_migration(db, version, err))
			return -1;
	}
}

/* Connection settings only: nothing here is written to the file. */
static int configure_connection(struct results_db *db, struct rig_err *err)
{
	if (sqlite3_busy_timeout(db->sql, BUSY_TIMEOUT_MS) != SQLITE_OK)
		return results_db_fail(db, "busy_timeout", err);
	if (sqlite3_extended_result_codes(db->sql, 1) != SQLITE_OK)
		return results_db_fail(db, "extended result codes", err);
	return 0;
}

/* The writer's settings. journal_mode = WAL is stored in the file, so it comes after
 * check_foreign(): a file that is not ours is refused unchanged. */
static int configure(struct results_db *db, struct rig_err *err)
{
	/* temp_store: the savepoint journals of a batch's cycles stay in memory (on disk they were
	 * most of the time a 200,000-cycle batch took) */
	return results_db_exec(db, "PRAGMA foreign_keys = ON", err) ||
	       results_db_exec(db, "PRAGMA journal_mode = WAL", err) ||
	       results_db_keep_wal(db, err) ||
	       results_db_exec(db, "PRAGMA synchronous = NORMAL", err) ||
	       results_db_exec(db, "PRAGMA temp_store = MEMORY", err) ? -1 : 0;
}

/* An existing file that is not ours must not be silently given our tables. */
static int check_foreign(struct results_db *db, struct rig_err *err)
{
	sqlite3_stmt *stmt;
	int version, n_tables = 0, rc;

	if (results_schema_version(db, &version, err))
		return -1;
	if (version != 0)
		return 0;
	if (results_db_prepare(db, "SELECT count(*) FROM sqlite_schema", &stmt, err))
		return -1;
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW)
		n_tables = sqlite3_column_int(stmt, 0);
	sqlite3_finalize(stmt);
	if (rc != SQLITE_ROW)
		return results_db_fail(db, "read schema", err);
	if (n_tables > 0)
		return rig_err_set(err, RIG_EXIT_USAGE,
				   "results db %s: not a suspend-rig results database", db->path);
	return 0;
}

static int check_readable(struct results_db *db, struct rig_err *err)
{
	int version;

	if (results_schema_version(db, &version, err))
		return -1;
	if (version < 1)
		return rig_err_set(err, RIG_EXIT_USAGE,
				   "results db %s: not a suspend-rig results database", db->path);
	if (version > (int)results_schema_n_migrations)
		return rig_err_set(err, RIG_EXIT_USAGE,
				   "results db %s: schema version %d is newer than this rig "
				   "understands (%zu); upgrade rig", db->path, version,
				   results_schema_n_migrations);
	return 0;
}

static int open_file(struct results_db *db, enum results_open_mode mode, struct rig_err *err)
{
	int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;

	if (mode == RESULTS_OPEN_CREATE)
		flags |= SQLITE_OPEN_CREATE;
	else if (access(db->path, F_OK) != 0)
		return rig_err_set(err, RIG_EXIT_USAGE, "results db %s: %s (run `rig run` first, or "
				   "pass --db)", db->path, strerror(errno));
	if (mode == RESULTS_OPEN_READ)
		return results_db_open_reader(db, err);
	if (sqlite3_open_v2(db->path, &db->sql, flags, NULL) != SQLITE_OK) {
		if (!db->sql)
			return rig_err_set(err, RIG_EXIT_INFRA, "results db %s: out of memory",
					   db->path);
		return results_db_fail(db, "open", err);
	}
	return 0;
}

int results_db_keep_wal(struct results_db *db, struct rig_err *err)
{
	int on = 1;

	if (sqlite3_file_control(db->sql, "main", SQLITE_FCNTL_PERSIST_WAL, &on) != SQLITE_OK)
		return results_db_fail(db, "keep WAL files", err);
	return 0;
}

int results_open(const char *path, enum results_open_mode mode, struct results_db **out,
		 struct rig_err *err)
{
	struct results_db *db = calloc(1, sizeof(*db));

	*out = NULL;
	if (!db || !(db->path = strdup(path))) {
		free(db);
		return rig_err_set(err, RIG_EXIT_INFRA, "results db %s: out of memory", path);
	}
	/* A reader changes nothing: no journal mode, no migration (the writer migrates). */
	if (open_file(db, mode, err) || configure_connection(db, err) ||
	    (mode == RESULTS_OPEN_READ ? check_readable(db, err)
				       : check_foreign(db, err) || configure(db, err) || migrate(db, err))) {
		results_close(db);
		return -1;
	}
	*out = db;
	return 0;
}

void results_close(struct results_db *db)
{
	if (!db)
		return;
	for (size_t i = 0; i < RESULTS_STMT_CACHE; i++)
		sqlite3_finalize(db->cache[i].stmt);
	/* sqlite3_close_v2 defers the close until stray statements are finalized: never leaks. */
	sqlite3_close_v2(db->sql);
	free(db->path);
	free(db);
}
