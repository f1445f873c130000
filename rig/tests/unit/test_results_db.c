/* Results database: schema, reopening, cycle round trips, crash consistency, hostile strings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ftw.h>
#include <math.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "results/db.h"
#include "results/query.h"
#include "results/schema.h"

#define HOSTILE_SQL "'); DROP TABLE runs;--"
#define HOSTILE_HTML "<script>alert(\"x\")</script>"
#define VERDICTS_PER_CYCLE 4
#define MEASUREMENTS_PER_CYCLE 3
#define STR_(x) #x
#define STR(x) STR_(x)

struct fixture {
	char dir[64];
	char path[128];
};

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/test_results_db.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(f->path, sizeof(f->path), "%s/results.db", f->dir);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	int ret = nftw(f->dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);

	free(f);
	return ret;
}

static struct results_db *open_db(const char *path)
{
	struct rig_err err = { 0 };
	struct results_db *db = NULL;

	if (results_open(path, RESULTS_OPEN_CREATE, &db, &err))
		fail_msg("open %s: %s", path, err.msg);
	return db;
}

/* Single-value query straight through SQLite, independent of the code under test. */
static long long sql_int(const char *path, const char *sql)
{
	sqlite3 *h;
	sqlite3_stmt *st;
	long long v = -1;

	assert_int_equal(sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_busy_timeout(h, 5000), SQLITE_OK);  /* a child may be writing */
	assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(h);
	return v;
}

static int sql_text_equals(const char *path, const char *sql, const char *expect)
{
	sqlite3 *h;
	sqlite3_stmt *st;
	int same = 0;

	assert_int_equal(sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_busy_timeout(h, 5000), SQLITE_OK);  /* a child may be writing */
	assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		same = strcmp((const char *)sqlite3_column_text(st, 0), expect) == 0;
	sqlite3_finalize(st);
	sqlite3_close(h);
	return same;
}

static int64_t begin_run(struct results_db *db, const char *board, double started_at)
{
	struct results_run_info info = {
		.board = board,
		.board_file = "boards/qemu.yaml",
		.plan = "smoke",
		.kernel_version = "6.17.0-rc3",
		.kernel_meta = "{\"sha\":\"abc123\",\"config\":\"defconfig\"}",
		.kernel_sha = "abc123",
		.knob_freeze_filesystems = RESULTS_KNOB_ON,
		.knob_sync_on_suspend = RESULTS_KNOB_OFF,
		.started_at = started_at,
		.host = "labhost",
		.rig_version = "0.1",
	};
	struct rig_err err = { 0 };
	int64_t id = 0;

	if (results_run_begin(db, &info, &id, &err))
		fail_msg("run begin: %s", err.msg);
	return id;
}

/* A cycle with distinct, index-derived values so the round trip can check every one. */
static struct results_cycle *make_cycle(int64_t run_id, int idx, int failing)
{
	struct results_cycle_info info = {
		.idx = idx, .step_kind = "suspend", .step_desc = "s2idle via rtc",
		.started_at = 1000.0 + idx * 10, .knob_freeze_filesystems = RESULTS_KNOB_ON,
		.kernel_version = "6.17.0-rc3", .console_from = idx * 100,
	};
	struct rig_err err = { 0 };
	struct results_cycle *c = results_cycle_begin(run_id, &info, &err);
	static const char *const fs[] = { "nvme-ext4", "sata-xfs" };

	assert_non_null(c);
	for (int v = 0; v < VERDICTS_PER_CYCLE; v++)
		assert_int_equal(results_cycle_add_verdict(c, "no-loss", fs[v % 2],
				 (failing && v == 0) ? RESULTS_VERDICT_FAIL : RESULTS_VERDICT_PASS,
				 (failing && v == 0) ? "KI-7" : NULL, "ok", &err), 0);
	for (int m = 0; m < MEASUREMENTS_PER_CYCLE; m++)
		assert_int_equal(results_cycle_add_measurement(c, "resume_ms", NULL, 100.0 * idx + m,
							       "ms", &err), 0);
	assert_int_equal(results_cycle_add_event(c, "suspend-entry", NAN, 1000.5 + idx, "PM: suspend",
						 &err), 0);
	assert_int_equal(results_cycle_add_event(c, "resume", 12.25, 1001.5 + idx, "PM: resume",
						 &err), 0);
	results_cycle_end(c, failing ? RESULTS_CYCLE_FAIL : RESULTS_CYCLE_PASS, 1005.0 + idx * 10,
			  idx * 100 + 99);
	return c;
}

static void commit_cycle(struct results_db *db, struct results_cycle *c)
{
	struct rig_err err = { 0 };
	int64_t id = 0;

	if (results_cycle_commit(db, c, &id, &err))
		fail_msg("commit: %s", err.msg);
	assert_true(id > 0);
	results_cycle_free(c);
}

static void test_creates_schema_on_empty_file(void **state)
{
	struct fixture *f = *state;
	struct results_db *db = open_db(f->path);
	struct rig_err err = { 0 };
	int version = -1;

	assert_int_equal(results_schema_version(db, &version, &err), 0);
	assert_int_equal(version, (int)results_schema_n_migrations);
	results_close(db);
	assert_int_equal(sql_int(f->path, "SELECT count(*) FROM sqlite_schema WHERE type = 'table'"
				 " AND name IN ('runs','cycles','verdicts','measurements','events',"
				 "'artefacts','bisects','bisect_steps','schema_version')"), 9);
	assert_int_equal(sql_int(f->path, "SELECT count(*) FROM sqlite_schema WHERE type = 'index'"
				 " AND name IN ('runs_board_started','cycles_run','verdicts_cycle')"), 3);
	assert_true(sql_text_equals(f->path, "PRAGMA journal_mode", "wal"));
}

static void test_reopens_existing_db(void **state)
{
	struct fixture *f = *state;
	struct results_db *db = open_db(f->path);
	int64_t first = begin_run(db, "qemu", 0);

	results_close(db);
	db = open_db(f->path);
	assert_true(begin_run(db, "qemu", 0) > first);
	results_close(db);
	assert_int_equal(sql_int(f->path, "SELECT count(*) FROM runs"), 2);
	assert_int_equal(sql_int(f->path, "SELECT count(*) FROM schema_version"),
			 (long long)results_schema_n_migrations);
}

static void test_existing_mode_refuses_missing_file(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };
	struct results_db *db = NULL;

	assert_int_equal(results_open(f->path, RESULTS_OPEN_EXISTING, &db, &err), -1);
	assert_null(db);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	assert_non_null(strstr(err.msg, f->path));
	assert_int_equal(access(f->path, F_OK), -1);
}

static void test_refuses_foreign_database(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };
	struct results_db *db = NULL;
	sqlite3 *h;

	assert_int_equal(sqlite3_open(f->path, &h), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, "CREATE TABLE other (x)", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	assert_int_equal(results_open(f->path, RESULTS_OPEN_CREATE, &db, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	assert_non_null(strstr(err.msg, "not a suspend-rig results database"));
}

static void check_cycle_json(json_t *cycle, int idx)
{
	json_t *verdicts = json_object_get(cycle, "verdicts");
	json_t *measurements = json_object_get(cycle, "measurements");
	json_t *v0 = json_array_get(verdicts, 0);
	int failing = idx == 1;

	assert_int_equal(json_integer_value(json_object_get(cycle, "idx")), idx);
	assert_string_equal(json_string_value(json_object_get(cycle, "status")),
			    failing ? "fail" : "pass");
	assert_int_equal(json_integer_value(json_object_get(cycle, "console_from")), idx * 100);
	assert_int_equal(json_integer_value(json_object_get(cycle, "console_to")), idx * 100 + 99);
	assert_true(json_real_value(json_object_get(cycle, "started_at")) == 1000.0 + idx * 10);
	assert_true(json_is_null(json_object_get(cycle, "knob_sync_on_suspend")));
	assert_int_equal(json_array_size(verdicts), VERDICTS_PER_CYCLE);
	assert_int_equal(json_array_size(measurements), MEASUREMENTS_PER_CYCLE);
	assert_string_equal(json_string_value(json_object_get(v0, "result")), failing ? "fail" : "pass");
	assert_string_equal(json_string_value(json_object_get(v0, "filesystem")), "nvme-ext4");
	assert_string_equal(json_string_value(json_object_get(v0, "kernel_version")), "6.17.0-rc3");
	assert_int_equal(json_integer_value(json_object_get(v0, "knob_freeze_filesystems")), 1);
	assert_true(json_real_value(json_object_get(json_array_get(measurements, 2), "value")) ==
		    100.0 * idx + 2);
}

static void test_run_with_three_cycles_round_trips(void **state)
{
	struct fixture *f = *state;
	struct results_db *db = open_db(f->path);
	struct rig_err err = { 0 };
	int64_t run = begin_run(db, "qemu", 0);
	json_t *doc = NULL, *cycles;

	for (int i = 0; i < 3; i++)
		commit_cycle(db, make_cycle(run, i, i == 1));
	assert_int_equal(results_add_artefact(db, run, 0, "console-log", "/runs/1/console.log", &err), 0);
	assert_int_equal(results_run_end(db, run, RESULTS_RUN_FAIL, 1, &err), 0);
	assert_int_equal(results_query_run(db, run, &doc, &err), 0);
	assert_string_equal(json_string_value(json_object_get(doc, "status")), "fail");
	assert_int_equal(json_integer_value(json_object_get(doc, "exit_code")), 1);
	assert_int_equal(json_integer_value(json_object_get(doc, "knob_freeze_filesystems")), 1);
	assert_int_equal(json_integer_value(json_object_get(doc, "knob_sync_on_suspend")), 0);
	assert_string_equal(json_string_value(json_object_get(json_object_get(doc, "kernel_meta"),
							      "sha")), "abc123");
	assert_int_equal(json_integer_value(json_object_get(doc, "n_cycles_failed")), 1);
	assert_int_equal(json_integer_value(json_object_get(doc, "n_verdicts_failed")), 1);
	assert_string_equal(json_string_value(json_object_get(json_array_get(
		json_object_get(doc, "artefacts"), 0), "kind")), "console-log");
	cycles = json_object_get(doc, "cycles");
	assert_int_equal(json_array_size(cycles), 3);
	for (int i = 0; i < 3; i++)
		check_cycle_json(json_array_get(cycles, (size_t)i), i);
	json_decref(doc);
	results_close(db);
	assert_int_equal(sql_int(f->path, "SELECT count(*) FROM events WHERE kernel_ts IS NULL"), 3);
	assert_int_equal(sql_int(f->path, "SELECT count(*) FROM verdicts WHERE known_issue = 'KI-7'"), 1);
}

static void test_night_is_local_date_of_start(void **state)
{
	struct fixture *f = *state;
	struct results_db *db = open_db(f->path);
	double start = 1796300000.0;  /* a fixed instant; its local date is computed independently */
	time_t t = (time_t)start;
	struct tm tm;
	char expect[16], sql[128];
	int64_t run = begin_run(db, "qemu", start);

	results_close(db);
	assert_non_null(localtime_r(&t, &tm));
	assert_true(strftime(expect, sizeof(expect), "%Y-%m-%d", &tm) > 0);
	snprintf(sql, sizeof(sql), "SELECT night FROM runs WHERE id = %lld", (long long)run);
	assert_true(sql_text_equals(f->path, sql, expect));
}

static void test_hostile_strings_are_stored_verbatim(void **state)
{
	struct fixture *f = *state;
	struct results_db *db = open_db(f->path);
	struct results_run_filter all = { 0 };
	struct rig_err err = { 0 };
	struct results_cycle_info ci = { .step_kind = HOSTILE_SQL };
	int64_t run = begin_run(db, HOSTILE_SQL, 0);
	struct results_cycle *c = results_cycle_begin(run, &ci, &err);
	json_t *runs = NULL, *doc = NULL, *v;

	assert_non_null(c);
	assert_int_equal(results_cycle_add_verdict(c, "owner", HOSTILE_HTML, RESULTS_VERDICT_PASS,
						   NULL, HOSTILE_SQL "\n" HOSTILE_HTML, &err), 0);
	results_cycle_end(c, RESULTS_CYCLE_PASS, 0, -1);
	commit_cycle(db, c);
	assert_int_equal(results_query_runs(db, &all, &runs, &err), 0);
	assert_string_equal(json_string_value(json_object_get(json_array_get(runs, 0), "board")),
			    HOSTILE_SQL);
	assert_int_equal(results_query_run(db, run, &doc, &err), 0);
	v = json_array_get(json_object_get(json_array_get(json_object_get(doc, "cycles"), 0),
					   "verdicts"), 0);
	assert_string_equal(json_string_value(json_object_get(v, "filesystem")), HOSTILE_HTML);
	assert_string_equal(json_string_value(json_object_get(v, "detail")),
			    HOSTILE_SQL "\n" HOSTILE_HTML);
	json_decref(runs);
	json_decref(doc);
	results_close(db);
	assert_int_equal(sql_int(f->path, "SELECT count(*) FROM runs"), 1);
}

static void test_invalid_kernel_meta_is_rejected(void **state)
{
	struct fixture *f = *state;
	struct results_db *db = open_db(f->path);
	struct results_run_info info = { .board = "qemu", .kernel_meta = "{not json" };
	struct rig_err err = { 0 };
	int64_t id = 0;

	assert_int_equal(results_run_begin(db, &info, &id, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_INFRA);
	assert_non_null(strstr(err.msg, f->path));
	results_close(db);
	assert_int_equal(sql_int(f->path, "SELECT count(*) FROM runs"), 0);
}

/* A start time from a LAVA log ("1e300") overflowed time_t in the night's date: refused, named. */
static void test_start_time_out_of_range_is_refused(void **state)
{
	struct fixture *f = *state;
	struct results_db *db = open_db(f->path);
	struct results_run_info info = { .board = "qemu", .started_at = 1e300 };
	struct rig_err err = { 0 };
	int64_t id = 0;

	assert_int_equal(results_run_begin(db, &info, &id, &err), -1);
	assert_non_null(strstr(err.msg, "1e+300"));
	info.started_at = 1700000000.5;
	assert_int_equal(results_run_begin(db, &info, &id, &err), 0);
	results_close(db);
	assert_int_equal(sql_int(f->path, "SELECT count(*) FROM runs"), 1);
}

static void test_ending_unknown_run_fails(void **state)
{
	struct fixture *f = *state;
	struct results_db *db = open_db(f->path);
	struct rig_err err = { 0 };

	assert_int_equal(results_run_end(db, 4242, RESULTS_RUN_PASS, 0, &err), -1);
	assert_non_null(strstr(err.msg, "4242"));
	results_close(db);
}

static void test_mark_aborted_keeps_cycle_in_flight(void **state)
{
	struct fixture *f = *state;
	struct results_db *db = open_db(f->path);
	struct rig_err err = { 0 };
	int64_t run = begin_run(db, "qemu", 0);
	struct results_cycle *in_flight;

	commit_cycle(db, make_cycle(run, 0, 0));
	in_flight = make_cycle(run, 1, 0);
	assert_int_equal(results_mark_aborted(db, run, in_flight, 130, &err), 0);
	assert_int_equal(in_flight->status, RESULTS_CYCLE_PASS);  /* the engine's struct is untouched */
	results_cycle_free(in_flight);
	results_close(db);
	assert_true(sql_text_equals(f->path, "SELECT status FROM runs", "aborted"));
	assert_int_equal(sql_int(f->path, "SELECT exit_code FROM runs"), 130);
	assert_true(sql_text_equals(f->path, "SELECT status FROM cycles WHERE idx = 1", "aborted"));
	assert_true(sql_text_equals(f->path, "SELECT status FROM cycles WHERE idx = 0", "pass"));
	assert_int_equal(sql_int(f->path, "SELECT count(*) FROM verdicts v JOIN cycles c ON"
				 " v.cycle_id = c.id WHERE c.idx = 1"), VERDICTS_PER_CYCLE);
}

static void test_reader_is_not_blocked_by_open_write(void **state)
{
	struct fixture *f = *state;
	struct results_db *writer = open_db(f->path), *reader = NULL;
	struct results_run_filter all = { 0 };
	struct rig_err err = { 0 };
	json_t *runs = NULL;
	sqlite3 *raw;

	begin_run(writer, "qemu", 0);
	results_close(writer);
	/* A rig in the middle of a cycle commit: write lock held, a row not yet committed. */
	assert_int_equal(sqlite3_open(f->path, &raw), SQLITE_OK);
	assert_int_equal(sqlite3_exec(raw, "BEGIN IMMEDIATE; UPDATE runs SET status = 'pass'", NULL,
				      NULL, NULL), SQLITE_OK);
	assert_int_equal(results_open(f->path, RESULTS_OPEN_EXISTING, &reader, &err), 0);
	assert_int_equal(results_query_runs(reader, &all, &runs, &err), 0);
	assert_int_equal(json_array_size(runs), 1);
	assert_string_equal(json_string_value(json_object_get(json_array_get(runs, 0), "status")),
			    "running");
	json_decref(runs);
	results_close(reader);
	assert_int_equal(sqlite3_exec(raw, "ROLLBACK", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(raw);
}

/* Child: commit two cycles, collect a third, say so, and wait to be killed before committing it. */
static void child_dies_mid_cycle(const char *path, int ready_fd)
{
	struct rig_err err = { 0 };
	struct results_db *db = NULL;
	struct results_cycle *c;
	int64_t run, id;

	if (results_open(path, RESULTS_OPEN_CREATE, &db, &err))
		_exit(10);
	run = begin_run(db, "qemu", 0);
	for (int i = 0; i < 2; i++) {
		c = make_cycle(run, i, 0);
		if (results_cycle_commit(db, c, &id, &err))
			_exit(11);
		results_cycle_free(c);
	}
	c = make_cycle(run, 2, 0);
	if (!c || write(ready_fd, "R", 1) != 1)
		_exit(12);
	for (;;)
		pause();
}

/* Not corrupt, and no cycle is missing any of the rows make_cycle() gave it. */
static void assert_db_consistent(const char *path)
{
	assert_true(sql_text_equals(path, "PRAGMA integrity_check", "ok"));
	assert_int_equal(sql_int(path, "SELECT count(*) FROM cycles c WHERE (SELECT count(*) FROM"
				 " verdicts v WHERE v.cycle_id = c.id) != " STR(VERDICTS_PER_CYCLE)), 0);
	assert_int_equal(sql_int(path, "SELECT count(*) FROM cycles c WHERE (SELECT count(*) FROM"
				 " measurements m WHERE m.cycle_id = c.id) != "
				 STR(MEASUREMENTS_PER_CYCLE)), 0);
	assert_int_equal(sql_int(path, "SELECT count(*) FROM cycles c WHERE (SELECT count(*) FROM"
				 " events e WHERE e.cycle_id = c.id) != 2"), 0);
}

static void test_killed_mid_cycle_keeps_committed_cycles(void **state)
{
	struct fixture *f = *state;
	int status, ready[2];
	char c;
	pid_t pid;

	assert_int_equal(pipe(ready), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(ready[0]);
		child_dies_mid_cycle(f->path, ready[1]);
	}
	close(ready[1]);
	assert_int_equal(read(ready[0], &c, 1), 1);
	close(ready[0]);
	/* No close, no commit, no cleanup: what a killed rig looks like. */
	assert_int_equal(kill(pid, SIGKILL), 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGKILL);
	assert_int_equal(sql_int(f->path, "SELECT count(*) FROM cycles"), 2);
	assert_int_equal(sql_int(f->path, "SELECT max(idx) FROM cycles"), 1);
	assert_true(sql_text_equals(f->path, "SELECT status FROM runs", "running"));
	assert_db_consistent(f->path);
	/* And the rig can carry on with the same file. */
	results_close(open_db(f->path));
}

/* Child: commit cycles until killed. */
static void child_commits_forever(const char *path)
{
	struct rig_err err = { 0 };
	struct results_db *db = NULL;
	int64_t run, id;

	if (results_open(path, RESULTS_OPEN_CREATE, &db, &err))
		_exit(10);
	run = begin_run(db, "qemu", 0);
	for (int i = 0; i < 100000; i++) {
		struct results_cycle *c = make_cycle(run, i, 0);

		if (results_cycle_commit(db, c, &id, &err))
			_exit(11);
		results_cycle_free(c);
	}
	_exit(12);
}

static void test_sigkill_during_commits_leaves_whole_cycles(void **state)
{
	struct fixture *f = *state;
	const struct timespec pause = { .tv_nsec = 5000000 };
	int status, exited = 0;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0)
		child_commits_forever(f->path);
	/* Wait until the child is visibly committing (tables exist and hold a few cycles). */
	for (int tries = 0; tries < 2000 && !exited; tries++) {
		nanosleep(&pause, NULL);
		exited = waitpid(pid, &status, WNOHANG) == pid;
		if (!exited && access(f->path, F_OK) == 0 &&
		    sql_int(f->path, "SELECT count(*) FROM sqlite_schema WHERE name = 'cycles'") == 1 &&
		    sql_int(f->path, "SELECT count(*) FROM cycles") >= 5)
			break;
	}
	assert_false(exited);
	assert_int_equal(kill(pid, SIGKILL), 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_true(sql_int(f->path, "SELECT count(*) FROM cycles") >= 5);
	assert_db_consistent(f->path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_creates_schema_on_empty_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reopens_existing_db, setup, teardown),
		cmocka_unit_test_setup_teardown(test_existing_mode_refuses_missing_file, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_refuses_foreign_database, setup, teardown),
		cmocka_unit_test_setup_teardown(test_run_with_three_cycles_round_trips, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_night_is_local_date_of_start, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hostile_strings_are_stored_verbatim, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_invalid_kernel_meta_is_rejected, setup, teardown),
		cmocka_unit_test_setup_teardown(test_start_time_out_of_range_is_refused, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_ending_unknown_run_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mark_aborted_keeps_cycle_in_flight, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_reader_is_not_blocked_by_open_write, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_killed_mid_cycle_keeps_committed_cycles, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_sigkill_during_commits_leaves_whole_cycles, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
