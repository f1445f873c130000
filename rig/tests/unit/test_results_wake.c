/* A suspend's wake accounting through results/: stored with its cycle (schema 5, cycle_wakes),
 * read back by rig results' query (--json: each cycle's "wake") and text, and by the dashboard's
 * cursor; unknown stays NULL (never 0), "none counted" stays apart from "unavailable"; a database
 * of schema 4 (a reader never migrates it) has none. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "results/db.h"
#include "results/format.h"
#include "results/query.h"
#include "results/read.h"

struct fixture {
	char dir[64], path[128];
	int64_t run;
};

static void must(int rc, const struct rig_err *err)
{
	if (rc)
		fail_msg("%s", err->msg);
}

/* Cycle 0: an RTC wake with everything known; 1: a QMP wake on a board that lacks every file;
 * 2: a hibernation (no wake accounting). */
static const struct results_wake full = {
	.wake = "rtc", .requested_ms = 5000, .entry_ms = 310, .asleep_ms = 4650, .awake_ms = 1290,
	.irq = 8, .irq_name = "rtc0", .sources = "00_01:1:1,alarmtimer.0.auto:1:0",
};
static const struct results_wake bare = {
	.wake = "qmp", .requested_ms = -1, .entry_ms = -1, .asleep_ms = -1, .awake_ms = -1,
	.irq = -1, .irq_name = NULL, .sources = "",
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct rig_err err = { 0 };
	struct results_run_info info = { .board = "qemu", .plan = "smoke", .started_at = 1764763200.0 };
	struct results_db *db;

	assert_non_null(f);
	snprintf(f->dir, sizeof(f->dir), "/tmp/test_results_wake.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->path, sizeof(f->path), "%s/results.db", f->dir);
	must(results_open(f->path, RESULTS_OPEN_CREATE, &db, &err), &err);
	must(results_run_begin(db, &info, &f->run, &err), &err);
	for (int idx = 0; idx < 3; idx++) {
		struct results_cycle_info ci = { .idx = idx, .step_kind = idx < 2 ? "suspend" : "hibernate",
						 .started_at = info.started_at + idx, .console_from = -1 };
		struct results_cycle *c = results_cycle_begin(f->run, &ci, &err);

		assert_non_null(c);
		if (idx == 0) {
			struct results_wake first = full;

			first.wake = "button";    /* replaced by the second call */
			must(results_cycle_set_wake(c, &first, &err), &err);
			must(results_cycle_set_wake(c, &full, &err), &err);
		} else if (idx == 1) {
			must(results_cycle_set_wake(c, &bare, &err), &err);
		}
		results_cycle_end(c, RESULTS_CYCLE_PASS, 0, -1);
		must(results_cycle_commit(db, c, NULL, &err), &err);
		results_cycle_free(c);
	}
	must(results_run_end(db, f->run, RESULTS_RUN_PASS, 0, &err), &err);
	results_close(db);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", f->dir);
	free(f);
	return system(cmd) == 0 ? 0 : -1;
}

static struct results_db *reader(const struct fixture *f)
{
	struct rig_err err = { 0 };
	struct results_db *db;

	must(results_open(f->path, RESULTS_OPEN_READ, &db, &err), &err);
	return db;
}

static json_t *cycle_wake(json_t *run, size_t idx)
{
	return json_object_get(json_array_get(json_object_get(run, "cycles"), idx), "wake");
}

static void json_round_trip(void **state)
{
	struct fixture *f = *state;
	struct results_db *db = reader(f);
	struct rig_err err = { 0 };
	json_t *run, *w;

	must(results_query_run(db, f->run, &run, &err), &err);
	w = cycle_wake(run, 0);
	assert_true(json_is_object(w));
	assert_string_equal(json_string_value(json_object_get(w, "wake")), "rtc");
	assert_int_equal(json_integer_value(json_object_get(w, "requested_ms")), 5000);
	assert_int_equal(json_integer_value(json_object_get(w, "entry_ms")), 310);
	assert_int_equal(json_integer_value(json_object_get(w, "asleep_ms")), 4650);
	assert_int_equal(json_integer_value(json_object_get(w, "awake_ms")), 1290);
	assert_int_equal(json_integer_value(json_object_get(w, "irq")), 8);
	assert_string_equal(json_string_value(json_object_get(w, "irq_name")), "rtc0");
	assert_string_equal(json_string_value(json_object_get(w, "sources")),
			    "00_01:1:1,alarmtimer.0.auto:1:0");
	assert_int_equal(json_integer_value(json_object_get(w, "rescued")), 0);
	/* unknown is null, never 0; none counted is "" */
	w = cycle_wake(run, 1);
	assert_string_equal(json_string_value(json_object_get(w, "wake")), "qmp");
	assert_true(json_is_null(json_object_get(w, "requested_ms")));
	assert_true(json_is_null(json_object_get(w, "entry_ms")));
	assert_true(json_is_null(json_object_get(w, "asleep_ms")));
	assert_true(json_is_null(json_object_get(w, "awake_ms")));
	assert_true(json_is_null(json_object_get(w, "irq")));
	assert_true(json_is_null(json_object_get(w, "irq_name")));
	assert_string_equal(json_string_value(json_object_get(w, "sources")), "");
	/* a cycle without one */
	assert_true(json_is_null(cycle_wake(run, 2)));
	json_decref(run);
	results_close(db);
}

static void text_shows_each_wake(void **state)
{
	struct fixture *f = *state;
	struct results_db *db = reader(f);
	struct rig_err err = { 0 };
	char text[16384] = "";
	FILE *out = fmemopen(text, sizeof(text) - 1, "w");
	json_t *run;

	assert_non_null(out);
	must(results_query_run(db, f->run, &run, &err), &err);
	assert_int_equal(results_format_run(out, run), 0);
	fclose(out);
	json_decref(run);
	results_close(db);
	assert_non_null(strstr(text, "\nwakes:\n"));
	assert_non_null(strstr(text, "rtc alarm 5000 ms (asleep 310 ms after arming): asleep 4650 ms, "
				     "awake 1290 ms; irq 8 (rtc0); sources 00_01:1:1,alarmtimer.0.auto:1:0"));
	assert_non_null(strstr(text, "qmp: time asleep unavailable; wakeup irq unavailable; sources "
				     "none counted"));
}

static void describe_says_unavailable(void **state)
{
	struct results_wake w = full;
	char text[256];

	(void)state;
	w.rescued = true;
	w.sources = NULL;
	w.irq_name = NULL;
	results_wake_describe(&w, text, sizeof(text));
	assert_string_equal(text, "rtc alarm 5000 ms (asleep 310 ms after arming), woken by the rig: "
			    "asleep 4650 ms, awake 1290 ms; irq 8 (unnamed); sources unavailable");
	/* cut, never overrun */
	results_wake_describe(&w, text, 12);
	assert_string_equal(text, "rtc alarm 5");
}

static void cursor_reads_them_in_order(void **state)
{
	struct fixture *f = *state;
	struct results_db *db = reader(f);
	struct rig_err err = { 0 };
	struct results_cursor *c;
	struct results_wake_row row;

	must(results_cursor_open(db, RESULTS_DETAIL_WAKES, &c, &err), &err);
	assert_true(results_cursor_run(c) == f->run);
	results_cursor_wake(c, &row);
	assert_int_equal(row.cycle_idx, 0);
	assert_string_equal(row.wake.wake, "rtc");
	assert_int_equal(row.wake.asleep_ms, 4650);
	assert_int_equal(row.wake.entry_ms, 310);
	assert_string_equal(row.wake.irq_name, "rtc0");
	must(results_cursor_next(c, &err), &err);
	results_cursor_wake(c, &row);
	assert_int_equal(row.cycle_idx, 1);
	assert_int_equal(row.wake.asleep_ms, -1);
	assert_int_equal(row.wake.irq, -1);
	assert_null(row.wake.irq_name);
	assert_string_equal(row.wake.sources, "");
	must(results_cursor_next(c, &err), &err);
	assert_true(results_cursor_run(c) == INT64_MAX);
	results_cursor_close(c);
	results_close(db);
}

static void refused_and_older_schema(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };
	struct results_cycle_info ci = { .idx = 9, .step_kind = "suspend", .console_from = -1 };
	struct results_cycle *cyc = results_cycle_begin(f->run, &ci, &err);
	struct results_wake nameless = full;
	struct results_db *db;
	struct results_cursor *c;
	json_t *run;
	sqlite3 *h;

	/* a wake without its source is refused before anything is stored */
	assert_non_null(cyc);
	nameless.wake = NULL;
	assert_int_equal(results_cycle_set_wake(cyc, &nameless, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	assert_null(cyc->wake);
	results_cycle_free(cyc);

	assert_int_equal(sqlite3_open(f->path, &h), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, "DROP TABLE cycle_wakes; DELETE FROM schema_version WHERE version = 5;"
				      " PRAGMA user_version = 4", NULL, NULL,
				      NULL), SQLITE_OK);
	sqlite3_close(h);
	db = reader(f);
	must(results_cursor_open(db, RESULTS_DETAIL_WAKES, &c, &err), &err);
	assert_true(results_cursor_run(c) == INT64_MAX);
	results_cursor_close(c);
	must(results_query_run(db, f->run, &run, &err), &err);
	assert_true(json_is_null(cycle_wake(run, 0)));
	json_decref(run);
	results_close(db);
	/* a writer migrates it back to 5: the table is there again, empty */
	must(results_open(f->path, RESULTS_OPEN_EXISTING, &db, &err), &err);
	results_close(db);
	db = reader(f);
	must(results_cursor_open(db, RESULTS_DETAIL_WAKES, &c, &err), &err);
	assert_true(results_cursor_run(c) == INT64_MAX);
	results_cursor_close(c);
	results_close(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(json_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(text_shows_each_wake, setup, teardown),
		cmocka_unit_test(describe_says_unavailable),
		cmocka_unit_test_setup_teardown(cursor_reads_them_in_order, setup, teardown),
		cmocka_unit_test_setup_teardown(refused_and_older_schema, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
