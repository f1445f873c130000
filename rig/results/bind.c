#include "results/db_internal.h"

#include <math.h>

static int param_index(struct results_binder *b, const char *name)
{
	int idx;

	if (b->rc != SQLITE_OK)
		return 0;
	idx = sqlite3_bind_parameter_index(b->stmt, name);
	if (idx == 0) {
		b->rc = SQLITE_RANGE;
		b->failed_name = name;
	}
	return idx;
}

static void note(struct results_binder *b, const char *name, int rc)
{
	if (rc != SQLITE_OK && b->rc == SQLITE_OK) {
		b->rc = rc;
		b->failed_name = name;
	}
}

void results_bind_text(struct results_binder *b, const char *name, const char *value)
{
	int idx = param_index(b, name);

	if (idx == 0)
		return;
	if (value)
		note(b, name, sqlite3_bind_text(b->stmt, idx, value, -1, SQLITE_TRANSIENT));
	else
		note(b, name, sqlite3_bind_null(b->stmt, idx));
}

void results_bind_int64(struct results_binder *b, const char *name, int64_t value)
{
	int idx = param_index(b, name);

	if (idx != 0)
		note(b, name, sqlite3_bind_int64(b->stmt, idx, value));
}

void results_bind_offset(struct results_binder *b, const char *name, int64_t value)
{
	int idx = param_index(b, name);

	if (idx == 0)
		return;
	if (value >= 0)
		note(b, name, sqlite3_bind_int64(b->stmt, idx, value));
	else
		note(b, name, sqlite3_bind_null(b->stmt, idx));
}

void results_bind_real(struct results_binder *b, const char *name, double value)
{
	int idx = param_index(b, name);

	if (idx == 0)
		return;
	if (isnan(value))
		note(b, name, sqlite3_bind_null(b->stmt, idx));
	else
		note(b, name, sqlite3_bind_double(b->stmt, idx, value));
}

void results_bind_knob(struct results_binder *b, const char *name, enum results_knob knob)
{
	int idx = param_index(b, name);

	if (idx == 0)
		return;
	if (knob == RESULTS_KNOB_UNKNOWN)
		note(b, name, sqlite3_bind_null(b->stmt, idx));
	else
		note(b, name, sqlite3_bind_int(b->stmt, idx, knob == RESULTS_KNOB_ON));
}

int results_bind_check(struct results_db *db, const struct results_binder *b, const char *what,
		       struct rig_err *err)
{
	if (b->rc == SQLITE_OK)
		return 0;
	return rig_err_set(err, RIG_EXIT_INFRA, "results db %s: %s: binding %s: %s", db->path, what,
			   b->failed_name ? b->failed_name : "?", sqlite3_errstr(b->rc));
}
