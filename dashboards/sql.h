/* SQLite helpers for the dashboard's read-only connection to the results database. */
#ifndef RIG_DASHBOARD_SQL_H
#define RIG_DASHBOARD_SQL_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>

#include "util/err.h"

/*
 * Open read-only (the rig may be writing: WAL lets us read a consistent snapshot) and check the
 * file is a results database. A missing file is a usage error.
 */
int dash_sql_open(const char *path, sqlite3 **sql, struct rig_err *err);

int dash_sql_prepare(sqlite3 *sql, const char *text, sqlite3_stmt **st, struct rig_err *err);
/* Finalize st; rc is the last sqlite3_step() result, anything but SQLITE_DONE is an error. */
int dash_sql_finish(sqlite3 *sql, sqlite3_stmt *st, int rc, const char *what, struct rig_err *err);
int dash_sql_exec(sqlite3 *sql, const char *text, struct rig_err *err);

/* A copy of a text column, NULL for SQL NULL (or when out of memory: see dash_sql_text_ok). */
char *dash_sql_text(sqlite3_stmt *st, int col);
/* False when the column had a value but the copy is NULL: out of memory. */
bool dash_sql_text_ok(sqlite3_stmt *st, int col, const char *copy);
/* NAN for SQL NULL. */
double dash_sql_real(sqlite3_stmt *st, int col);

/* Make room for one more element in a growing array; doubles the capacity. */
int dash_grow(void **array, size_t *cap, size_t n, size_t elem_size);

#endif
