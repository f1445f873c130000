/* Bisect records: a search, its steps with the posterior top-3 as JSON, and its end. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/bisects.h"
#include "results/outcomes.h"

struct fixture {
	char dir[64];
	char path[128];
	struct results_db *db;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct rig_err err = { 0 };

	if (!f)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/test_results_bisects.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(f->path, sizeof(f->path), "%s/results.db", f->dir);
	if (results_open(f->path, RESULTS_OPEN_CREATE, &f->db, &err))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char p[160];
	static const char *const suffixes[] = { "", "-wal", "-shm" };

	results_close(f->db);
	for (size_t i = 0; i < 3; i++) {
		snprintf(p, sizeof(p), "%s%s", f->path, suffixes[i]);
		unlink(p);
	}
	rmdir(f->dir);
	free(f);
	return 0;
}

static char *sql_text(const char *path, const char *sql)
{
	sqlite3 *h;
	sqlite3_stmt *st;
	char *v = NULL;

	assert_int_equal(sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		v = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	sqlite3_close(h);
	return v;
}

static void assert_sql_text(const char *path, const char *sql, const char *expect)
{
	char *v = sql_text(path, sql);

	assert_non_null(v);
	assert_string_equal(v, expect);
	free(v);
}

static void test_bisect_round_trip(void **state)
{
	struct fixture *f = *state;
	struct results_bisect_info info = { .board = "qemu", .plan = "hang-hunt", .good = "v6.16",
					    .bad = "v6.17-rc1", .confidence = 0.95 };
	static const char *const commits[] = { "abc123", "def456", "'); DROP TABLE bisects;--" };
	static const double probs[] = { 0.5, 0.25, 0.125 };
	struct results_bisect_step step = { .commit = "abc123", .cycles = 6, .fails = 2,
					    .verdict = "bad", .n_top = 3, .top_commits = commits,
					    .top_probs = probs };
	struct rig_err err = { 0 };
	int64_t id = 0;

	assert_int_equal(results_bisect_begin(f->db, &info, &id, &err), 0);
	assert_int_equal(results_bisect_add_step(f->db, id, &step, &err), 0);
	step.idx = 1, step.commit = "def456", step.verdict = "good", step.n_top = 1;
	assert_int_equal(results_bisect_add_step(f->db, id, &step, &err), 0);
	assert_int_equal(results_bisect_end(f->db, id, "found", "abc123", 0.97, &err), 0);

	assert_sql_text(f->path, "SELECT status || ' ' || result_commit FROM bisects", "found abc123");
	assert_sql_text(f->path, "SELECT json_extract(posterior_top3, '$[2].commit') FROM bisect_steps"
			" WHERE idx = 0", commits[2]);
	assert_sql_text(f->path, "SELECT json_extract(posterior_top3, '$[1].p') FROM bisect_steps"
			" WHERE idx = 0", "0.25");
	assert_sql_text(f->path, "SELECT json_array_length(posterior_top3) || ' ' || verdict FROM"
			" bisect_steps WHERE idx = 1", "1 good");
}

static void test_bisect_errors(void **state)
{
	struct fixture *f = *state;
	struct results_bisect_info no_bad = { .board = "qemu", .good = "v6.16" };
	struct results_bisect_step no_commit = { .cycles = 1 };
	struct rig_err err = { 0 };
	int64_t id = 0;

	assert_int_equal(results_bisect_begin(f->db, &no_bad, &id, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	assert_int_equal(results_bisect_add_step(f->db, 1, &no_commit, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	assert_int_equal(results_bisect_end(f->db, 77, "found", NULL, 0.5, &err), -1);
	assert_non_null(strstr(err.msg, "77"));
}

/* One cycle of a plan step (desc, NULL: none) at a knob value, with a status, and optionally a
 * verdict that failed on a known issue. */
static void add_step_cycle(struct results_db *db, int64_t run, int idx, const char *desc,
			   enum results_knob ff, enum results_cycle_status status, bool known_failure)
{
	struct results_cycle_info info = { .idx = idx, .step_kind = "suspend", .step_desc = desc,
					   .knob_freeze_filesystems = ff };
	struct rig_err err = { 0 };
	struct results_cycle *c = results_cycle_begin(run, &info, &err);

	assert_non_null(c);
	assert_int_equal(results_cycle_add_verdict(c, "clean-resume", NULL,
			 known_failure ? RESULTS_VERDICT_FAIL : RESULTS_VERDICT_PASS,
			 known_failure ? "lockdep-freezer" : NULL, "detail", &err), 0);
	results_cycle_end(c, status, 0, -1);
	assert_int_equal(results_cycle_commit(db, c, NULL, &err), 0);
	results_cycle_free(c);
}

/* One cycle with a status, and optionally a verdict that failed on a known issue. */
static void add_cycle(struct results_db *db, int64_t run, int idx, enum results_cycle_status status,
		      bool known_failure)
{
	add_step_cycle(db, run, idx, NULL, RESULTS_KNOB_UNKNOWN, status, known_failure);
}

/* A run's cycles as bisect evidence, in cycle order, known issues counted only on request. */
static void test_run_outcomes(void **state)
{
	struct fixture *f = *state;
	struct results_run_info info = { .board = "qemu" };
	struct rig_err err = { 0 };
	int64_t run = 0, empty = 0;
	char buf[16], small[3];

	assert_int_equal(results_run_begin(f->db, &info, &run, &err), 0);
	assert_int_equal(results_run_begin(f->db, &info, &empty, &err), 0);
	add_cycle(f->db, run, 2, RESULTS_CYCLE_HANG, false);
	add_cycle(f->db, run, 0, RESULTS_CYCLE_PASS, false);
	add_cycle(f->db, run, 1, RESULTS_CYCLE_PASS, true);   /* passed: its failure is known */
	add_cycle(f->db, run, 3, RESULTS_CYCLE_FAIL, false);
	add_cycle(f->db, run, 4, RESULTS_CYCLE_INFRA, false);
	add_cycle(f->db, run, 5, RESULTS_CYCLE_ABORTED, false);
	assert_int_equal(results_run_outcomes(f->db, run, false, buf, sizeof(buf), &err), 0);
	assert_string_equal(buf, "PPHFII");
	assert_int_equal(results_run_outcomes(f->db, run, true, buf, sizeof(buf), &err), 0);
	assert_string_equal(buf, "PFHFII");
	assert_int_equal(results_run_outcomes(f->db, empty, false, buf, sizeof(buf), &err), 0);
	assert_string_equal(buf, "");
	assert_int_equal(results_run_outcomes(f->db, run, false, small, sizeof(small), &err), -1);
	assert_int_equal(err.class, RIG_EXIT_INFRA);
}

static int64_t add_run(struct results_db *db, const char *board, const char *sha, const char *meta)
{
	struct results_run_info info = { .board = board, .kernel_sha = sha, .kernel_meta = meta,
					 .kernel_version = "7.3.4-abc" };
	struct rig_err err = { 0 };
	int64_t id = 0;

	assert_int_equal(results_run_begin(db, &info, &id, &err), 0);
	return id;
}

#define BAD_SHA "1111111111111111111111111111111111111111"
#define DEEP "suspend deep wake=rtc 2s"

/* The bad kernel's cycles on this board, at this plan's steps and knobs, are its history; other
 * kernels, boards, steps, knobs, series builds and unusable cycles are not. */
static void test_bad_history(void **state)
{
	struct fixture *f = *state;
	const struct results_history_step steps[] = { { DEEP, RESULTS_KNOB_ON, RESULTS_KNOB_UNKNOWN } };
	struct results_history_query q = { .board = "qemu", .kernel_sha = BAD_SHA, .steps = steps,
					   .n_steps = 1 };
	struct results_history h;
	struct rig_err err = { 0 };
	int64_t first = add_run(f->db, "qemu", BAD_SHA, NULL);
	int64_t other_kernel = add_run(f->db, "qemu", "2222222222222222222222222222222222222222", NULL);
	int64_t other_board = add_run(f->db, "laptop", BAD_SHA, NULL);
	int64_t series = add_run(f->db, "qemu", BAD_SHA, "{\"series\": \"/tmp/faults\"}");
	int64_t second = add_run(f->db, "qemu", BAD_SHA, "{\"series\": null}");

	add_step_cycle(f->db, first, 0, DEEP, RESULTS_KNOB_ON, RESULTS_CYCLE_FAIL, false);
	add_step_cycle(f->db, first, 1, DEEP, RESULTS_KNOB_ON, RESULTS_CYCLE_PASS, false);
	add_step_cycle(f->db, first, 2, DEEP, RESULTS_KNOB_ON, RESULTS_CYCLE_PASS, true);
	add_step_cycle(f->db, first, 3, DEEP, RESULTS_KNOB_ON, RESULTS_CYCLE_INFRA, false);
	add_step_cycle(f->db, first, 4, DEEP, RESULTS_KNOB_OFF, RESULTS_CYCLE_FAIL, false);
	add_step_cycle(f->db, first, 5, "hibernate", RESULTS_KNOB_ON, RESULTS_CYCLE_FAIL, false);
	add_step_cycle(f->db, second, 0, DEEP, RESULTS_KNOB_ON, RESULTS_CYCLE_HANG, false);
	add_step_cycle(f->db, second, 1, DEEP, RESULTS_KNOB_ON, RESULTS_CYCLE_PASS, false);
	for (int i = 0; i < 3; i++) {
		add_step_cycle(f->db, other_kernel, i, DEEP, RESULTS_KNOB_ON, RESULTS_CYCLE_FAIL, false);
		add_step_cycle(f->db, other_board, i, DEEP, RESULTS_KNOB_ON, RESULTS_CYCLE_FAIL, false);
		add_step_cycle(f->db, series, i, DEEP, RESULTS_KNOB_ON, RESULTS_CYCLE_FAIL, false);
	}

	assert_int_equal(results_bad_history(f->db, &q, &h, &err), 0);
	assert_int_equal(h.cycles, 5);
	assert_int_equal(h.fails, 2);
	assert_int_equal(h.n_runs, 2);
	assert_int_equal(h.runs[0], second);
	assert_int_equal(h.runs[1], first);
	assert_string_equal(h.kernel_version, "7.3.4-abc");
	q.known_fails = true;      /* bisecting the known issue itself */
	assert_int_equal(results_bad_history(f->db, &q, &h, &err), 0);
	assert_int_equal(h.cycles, 5);
	assert_int_equal(h.fails, 3);
	/* a plan that leaves the knob alone takes the knob-0 cycle too */
	const struct results_history_step any[] = { { DEEP, RESULTS_KNOB_UNKNOWN, RESULTS_KNOB_UNKNOWN } };
	q.steps = any;
	q.known_fails = false;
	assert_int_equal(results_bad_history(f->db, &q, &h, &err), 0);
	assert_int_equal(h.cycles, 6);
	assert_int_equal(h.fails, 3);
	q.kernel_sha = "3333333333333333333333333333333333333333";
	assert_int_equal(results_bad_history(f->db, &q, &h, &err), 0);
	assert_int_equal(h.cycles, 0);
	assert_int_equal(h.n_runs, 0);
	assert_string_equal(h.kernel_version, "");
	q.board = NULL;
	assert_int_equal(results_bad_history(f->db, &q, &h, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_bisect_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bisect_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_run_outcomes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_history, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
