#include "dashboards/sql.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BUSY_TIMEOUT_MS 5000

static int fail(sqlite3 *sql, const char *what, struct rig_err *err)
{
	return rig_err_set(err, RIG_EXIT_INFRA, "dashboard: %s: %s", what, sqlite3_errmsg(sql));
}

static int check_schema(sqlite3 *sql, const char *path, struct rig_err *err)
{
	sqlite3_stmt *st;
	int version = 0, rc;

	if (dash_sql_prepare(sql, "PRAGMA user_version", &st, err))
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return fail(sql, path, err);
	if (version < 1)
		return rig_err_set(err, RIG_EXIT_USAGE, "dashboard: %s is not a results database",
				   path);
	return 0;
}

int dash_sql_open(const char *path, sqlite3 **sql, struct rig_err *err)
{
	*sql = NULL;
	if (access(path, R_OK) != 0)
		return rig_err_set(err, RIG_EXIT_USAGE, "dashboard: no results database at %s", path);
	/* NOMUTEX: one thread uses the connection, and per-call locking was a quarter of the time. */
	if (sqlite3_open_v2(path, sql, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) !=
	    SQLITE_OK) {
		int ret = *sql ? fail(*sql, path, err)
			       : rig_err_set(err, RIG_EXIT_INFRA, "dashboard: cannot open %s", path);

		sqlite3_close(*sql);
		*sql = NULL;
		return ret;
	}
	if (sqlite3_busy_timeout(*sql, BUSY_TIMEOUT_MS) != SQLITE_OK || check_schema(*sql, path, err)) {
		if (err && err->msg[0] == '\0')
			fail(*sql, path, err);
		sqlite3_close(*sql);
		*sql = NULL;
		return -1;
	}
	return 0;
}

int dash_sql_prepare(sqlite3 *sql, const char *text, sqlite3_stmt **st, struct rig_err *err)
{
	if (sqlite3_prepare_v2(sql, text, -1, st, NULL) != SQLITE_OK)
		return fail(sql, "prepare", err);
	return 0;
}

int dash_sql_finish(sqlite3 *sql, sqlite3_stmt *st, int rc, const char *what, struct rig_err *err)
{
	int ret = rc == SQLITE_DONE ? 0 : fail(sql, what, err);

	sqlite3_finalize(st);
	return ret;
}

int dash_sql_exec(sqlite3 *sql, const char *text, struct rig_err *err)
{
	if (sqlite3_exec(sql, text, NULL, NULL, NULL) != SQLITE_OK)
		return fail(sql, text, err);
	return 0;
}

char *dash_sql_text(sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);

	return t ? strdup((const char *)t) : NULL;
}

bool dash_sql_text_ok(sqlite3_stmt *st, int col, const char *copy)
{
	return copy || sqlite3_column_type(st, col) == SQLITE_NULL;
}

double dash_sql_real(sqlite3_stmt *st, int col)
{
	return sqlite3_column_type(st, col) == SQLITE_NULL ? NAN : sqlite3_column_double(st, col);
}

int dash_grow(void **array, size_t *cap, size_t n, size_t elem_size)
{
	size_t new_cap;
	void *p;

	if (n < *cap)
		return 0;
	new_cap = *cap ? *cap * 2 : 16;
	p = realloc(*array, new_cap * elem_size);
	if (!p)
		return -1;
	*array = p;
	*cap = new_cap;
	return 0;
}
