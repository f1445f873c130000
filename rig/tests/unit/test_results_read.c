/* results/read.h and the bisect readers: every report query against the real schema, on a
 * database written through the rig's own writers (runs, cycles, verdicts, bisects). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/bisects.h"
#include "results/db.h"
#include "results/format.h"
#include "results/query.h"
#include "results/read.h"

#include <sqlite3.h>

struct fixture {
	char dir[64], path[128];
	int64_t run_a1, run_a2, run_b;
	int64_t run_w;                  /* setup_wakes: the one run */
};

static void must(int rc, const struct rig_err *err)
{
	if (rc)
		fail_msg("%s", err->msg);
}

static int64_t add_run(struct results_db *db, const char *board, double started,
		       enum results_run_status status, const char *known_on_cycle0)
{
	struct rig_err err = { 0 };
	struct results_run_info info = { .board = board, .plan = "smoke", .kernel_version = "7.3.4",
		.knob_freeze_filesystems = RESULTS_KNOB_ON, .started_at = started,
		.console_log = "console.log" };
	int64_t id;

	must(results_run_begin(db, &info, &id, &err), &err);
	for (int idx = 0; idx < 2; idx++) {
		struct results_cycle_info ci = { .idx = idx, .step_kind = "suspend",
			.started_at = started + idx, .console_from = -1 };
		struct results_cycle *c = results_cycle_begin(id, &ci, &err);

		assert_non_null(c);
		must(results_cycle_add_verdict(c, "suspend", NULL, RESULTS_VERDICT_PASS, NULL, "ok", &err), &err);
		must(results_cycle_add_verdict(c, "clean-resume", NULL,
					       idx == 0 && known_on_cycle0 ? RESULTS_VERDICT_FAIL
									   : RESULTS_VERDICT_PASS,
					       idx == 0 ? known_on_cycle0 : NULL, "detail", &err), &err);
		must(results_cycle_add_measurement(c, "stall_ms", "nvme-ext4", 10.0 + idx, "ms", &err), &err);
		must(results_cycle_add_phase(c, "asleep", 5.0 + idx, &err), &err);
		must(results_cycle_add_phase(c, "resume", idx ? NAN : 0.25, &err), &err);
		results_cycle_end(c, idx == 1 && status == RESULTS_RUN_FAIL ? RESULTS_CYCLE_FAIL
									   : RESULTS_CYCLE_PASS, 0, -1);
		must(results_cycle_commit(db, c, NULL, &err), &err);
		results_cycle_free(c);
	}
	must(results_add_artefact(db, id, 0, "console-log", "console.log", &err), &err);
	if (status != RESULTS_RUN_RUNNING)
		must(results_run_end(db, id, status, status == RESULTS_RUN_FAIL, &err), &err);
	return id;
}

/* Nights are local dates: noon UTC keeps them away from a date line in any sane zone. */
#define DAY1 1764763200.0    /* 2025-12-03 12:00 UTC */
#define DAY2 (DAY1 + 86400)

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct rig_err err = { 0 };
	struct results_db *db;

	assert_non_null(f);
	snprintf(f->dir, sizeof(f->dir), "/tmp/test_results_read.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->path, sizeof(f->path), "%s/results.db", f->dir);
	must(results_open(f->path, RESULTS_OPEN_CREATE, &db, &err), &err);
	f->run_b = add_run(db, "beta", DAY1 + 60, RESULTS_RUN_FAIL, NULL);
	f->run_a2 = add_run(db, "alpha", DAY2, RESULTS_RUN_RUNNING, NULL);
	f->run_a1 = add_run(db, "alpha", DAY1, RESULTS_RUN_KNOWN, "lockdep-freezer");
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

struct seen {
	int n;
	int64_t ids[8];
	char boards[8][16], nights[8][16];
	struct results_run_row first;
	bool ended[8];
	int cycles[8], failed[8];
};

static int see_run(void *ctx, const struct results_run_row *r)
{
	struct seen *s = ctx;

	s->ids[s->n] = r->id;
	snprintf(s->boards[s->n], sizeof(s->boards[0]), "%s", r->board);
	snprintf(s->nights[s->n], sizeof(s->nights[0]), "%s", r->night);
	s->ended[s->n] = !isnan(r->ended_at);
	s->cycles[s->n] = r->n_cycles;
	s->failed[s->n] = r->n_cycles_failed;
	if (s->n == 0) {
		s->first = *r;
		assert_string_equal(r->status, "known");
		assert_string_equal(r->plan, "smoke");
		assert_string_equal(r->kernel_version, "7.3.4");
		assert_null(r->kernel_sha);
		assert_string_equal(r->source, "rig");
		assert_null(r->lava_job_id);
		assert_null(r->lava_server);
	}
	s->n++;
	return 0;
}

static void runs_by_board_then_time(void **state)
{
	struct fixture *f = *state;
	struct results_db *db = reader(f);
	struct rig_err err = { 0 };
	struct seen s = { 0 };

	must(results_each_run(db, see_run, &s, &err), &err);
	assert_int_equal(s.n, 3);
	assert_true(s.ids[0] == f->run_a1 && s.ids[1] == f->run_a2 && s.ids[2] == f->run_b);
	assert_string_equal(s.boards[2], "beta");
	assert_int_equal(s.first.knob_freeze_filesystems, 1);
	assert_int_equal(s.first.knob_sync_on_suspend, -1);     /* unknown */
	assert_true(s.ended[0] && !s.ended[1] && s.ended[2]);  /* the running one has no end */
	assert_int_equal(s.cycles[2], 2);
	assert_int_equal(s.failed[2], 1);
	assert_int_equal(s.failed[0], 0);
	results_close(db);
}

static int stop_at_two(void *ctx, const struct results_run_row *r)
{
	(void)r;
	return ++*(int *)ctx == 2 ? 42 : 0;
}

static int see_night(void *ctx, const char *night)
{
	struct seen *s = ctx;

	snprintf(s->nights[s->n++], sizeof(s->nights[0]), "%s", night);
	return 0;
}

static void nights_and_stopping(void **state)
{
	struct fixture *f = *state;
	struct results_db *db = reader(f);
	struct rig_err err = { 0 };
	struct seen s = { 0 };
	int calls = 0;

	must(results_each_night(db, see_night, &s, &err), &err);
	assert_int_equal(s.n, 2);
	assert_true(strcmp(s.nights[0], s.nights[1]) < 0);
	assert_int_equal(results_each_run(db, stop_at_two, &calls, &err), 42);
	assert_int_equal(calls, 2);
	results_close(db);
}

static void cursors_walk_each_table_in_run_order(void **state)
{
	struct fixture *f = *state;
	struct results_db *db = reader(f);
	struct rig_err err = { 0 };
	struct results_cursor *c;
	int64_t last = 0;
	int n = 0, n_known = 0;

	must(results_cursor_open(db, RESULTS_DETAIL_VERDICTS, &c, &err), &err);
	for (; results_cursor_run(c) != INT64_MAX; n++) {
		struct results_verdict_row v;

		assert_true(results_cursor_run(c) >= last);
		last = results_cursor_run(c);
		results_cursor_verdict(c, &v);
		assert_true(v.cycle_idx == 0 || v.cycle_idx == 1);
		if (v.known_issue) {
			assert_string_equal(v.known_issue, "lockdep-freezer");
			assert_string_equal(v.result, "fail");
			n_known++;
		}
		must(results_cursor_next(c, &err), &err);
	}
	results_cursor_close(c);
	assert_int_equal(n, 3 * 2 * 2);
	assert_int_equal(n_known, 1);

	must(results_cursor_open(db, RESULTS_DETAIL_CYCLES, &c, &err), &err);
	{
		struct results_cycle_row row;

		assert_true(results_cursor_run(c) == f->run_b);   /* by run id: beta's run came first */
		results_cursor_cycle(c, &row);
		assert_int_equal(row.idx, 0);
		assert_string_equal(row.step_kind, "suspend");
		assert_string_equal(row.status, "pass");
		assert_null(row.hang_phase);
		assert_true(row.started_at == DAY1 + 60);
	}
	results_cursor_close(c);

	must(results_cursor_open(db, RESULTS_DETAIL_MEASUREMENTS, &c, &err), &err);
	{
		struct results_measurement_row m;

		results_cursor_measurement(c, &m);
		assert_string_equal(m.name, "stall_ms");
		assert_string_equal(m.unit, "ms");
		assert_true(m.value == 10.0);
	}
	results_cursor_close(c);

	must(results_cursor_open(db, RESULTS_DETAIL_ARTEFACTS, &c, &err), &err);
	{
		struct results_artefact_row a;

		results_cursor_artefact(c, &a);
		assert_int_equal(a.cycle_idx, -1);     /* the run's own */
		assert_string_equal(a.kind, "console-log");
	}
	results_cursor_close(c);
	results_close(db);
}

static void known_history(void **state)
{
	struct fixture *f = *state;
	struct results_db *db = reader(f);
	struct rig_err err = { 0 };
	char last[32];
	int since = -1;

	must(results_known_history(db, "lockdep-freezer", last, sizeof(last), &since, &err), &err);
	assert_int_equal(strlen(last), 10);   /* the night of DAY1 */
	assert_int_equal(since, 1);           /* DAY2 had a run after it */
	must(results_known_history(db, "never-seen", last, sizeof(last), &since, &err), &err);
	assert_string_equal(last, "");
	assert_int_equal(since, 2);
	results_close(db);
}

struct bisect_seen {
	int n_bisects, n_steps;
	size_t tops[4];
	char status[16];
};

static int see_bisect(void *ctx, const struct results_bisect_row *r)
{
	struct bisect_seen *s = ctx;

	s->n_bisects++;
	snprintf(s->status, sizeof(s->status), "%s", r->status);
	assert_string_equal(r->good, "v7.3");
	assert_true(isnan(r->ended_at) == (strcmp(r->status, "running") == 0));
	return 0;
}

static int see_step(void *ctx, const struct results_bisect_step_row *r)
{
	struct bisect_seen *s = ctx;

	s->tops[s->n_steps++] = r->n_top;
	if (r->n_top) {
		assert_string_equal(r->top[0].commit, "c0ffee");
		assert_true(r->top[0].p == 0.75);
	}
	return 0;
}

static void bisects_read_back(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };
	struct results_db *db;
	const char *commits[] = { "c0ffee", "beef" };
	const double probs[] = { 0.75, 0.2 };
	struct results_bisect_info info = { .board = "alpha", .good = "v7.3", .bad = "v7.3.4",
					    .confidence = 0.95 };
	struct results_bisect_step step = { .idx = 0, .commit = "c0ffee", .cycles = 3, .fails = 1,
		.verdict = "PFP", .n_top = 2, .top_commits = commits, .top_probs = probs };
	struct bisect_seen s = { 0 };
	int64_t id;

	must(results_open(f->path, RESULTS_OPEN_CREATE, &db, &err), &err);
	must(results_bisect_begin(db, &info, &id, &err), &err);
	must(results_bisect_add_step(db, id, &step, &err), &err);
	step.idx = 1, step.n_top = 0;
	must(results_bisect_add_step(db, id, &step, &err), &err);
	results_close(db);

	db = reader(f);
	must(results_each_bisect(db, see_bisect, &s, &err), &err);
	must(results_each_bisect_step(db, see_step, &s, &err), &err);
	assert_int_equal(s.n_bisects, 1);
	assert_string_equal(s.status, "running");
	assert_int_equal(s.n_steps, 2);
	assert_int_equal(s.tops[0], 2);
	assert_int_equal(s.tops[1], 0);
	results_close(db);
}

/* A reader writes nothing and takes nothing it does not understand. */
static void read_mode_refuses_and_never_writes(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };
	struct results_db *db = NULL;
	char other[160];
	FILE *fp;

	snprintf(other, sizeof(other), "%s/absent.db", f->dir);
	assert_int_equal(results_open(other, RESULTS_OPEN_READ, &db, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	assert_int_equal(access(other, F_OK), -1);     /* not created */
	snprintf(other, sizeof(other), "%s/not-sqlite.db", f->dir);
	assert_non_null(fp = fopen(other, "w"));
	fputs("hello", fp);
	fclose(fp);
	assert_int_equal(results_open(other, RESULTS_OPEN_READ, &db, &err), -1);
	db = reader(f);
	assert_int_equal(results_read_begin(db, &err), 0);
	assert_int_equal(results_add_artefact(db, f->run_a1, 0, "x", "y", &err), -1);
	results_read_end(db);
	results_close(db);
}

/* The time budget's cursor: phases as measurement rows, an unknown one NAN (not 0); a database
 * of schema 3 (no cycle_phases; a reader never migrates it) has none, and rig results' run query
 * an empty time budget, instead of failing. */
static void phases_cursor_and_older_schema(void **state)
{
	struct fixture *f = *state;
	struct results_db *db = reader(f);
	struct rig_err err = { 0 };
	struct results_cursor *c;
	struct results_measurement_row row;
	int n = 0, unknown = 0;
	json_t *run;
	sqlite3 *h;

	must(results_cursor_open(db, RESULTS_DETAIL_PHASES, &c, &err), &err);
	for (; results_cursor_run(c) != INT64_MAX; n++) {
		results_cursor_measurement(c, &row);
		assert_string_equal(row.unit, "s");
		if (strcmp(row.name, "resume") == 0 && row.cycle_idx == 1)
			unknown += isnan(row.value);
		else
			assert_false(isnan(row.value));
		must(results_cursor_next(c, &err), &err);
	}
	results_cursor_close(c);
	results_close(db);
	assert_int_equal(n, 3 * 2 * 2);
	assert_int_equal(unknown, 3);

	assert_int_equal(sqlite3_open(f->path, &h), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, "DROP TABLE cycle_phases; PRAGMA user_version = 3", NULL, NULL,
				      NULL), SQLITE_OK);
	sqlite3_close(h);
	db = reader(f);
	must(results_cursor_open(db, RESULTS_DETAIL_PHASES, &c, &err), &err);
	assert_true(results_cursor_run(c) == INT64_MAX);
	results_cursor_close(c);
	must(results_query_run(db, f->run_b, &run, &err), &err);
	assert_int_equal(json_array_size(json_object_get(run, "time_budget")), 0);
	assert_null(json_object_get(json_array_get(json_object_get(run, "cycles"), 0), "phases"));
	json_decref(run);
	results_close(db);
}

/* ---- a suspend's wake accounting (schema 7, cycle_wakes) ---------------------------------- */
/* Stored with its cycle, read back by rig results' query (--json: each cycle's "wake") and text,
 * and by the dashboard's cursor; unknown stays NULL (never 0), "none counted" stays apart from
 * "unavailable"; a database of schema 6 (a reader never migrates it) has none. */

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

/* A hybrid sleep whose power the rig cut in S3 though a resume from RAM was asked (schema 8). */
static const struct results_hibernation cut_in_s3 = {
	.asked = "suspend", .kernel_mode = "suspend", .went = "s3", .power_cut = true,
	.came_back = "restored", .matched = false,
};

static int setup_wakes(void **state)
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
	must(results_run_begin(db, &info, &f->run_w, &err), &err);
	for (int idx = 0; idx < 3; idx++) {
		struct results_cycle_info ci = { .idx = idx, .step_kind = idx < 2 ? "suspend" : "hibernate",
						 .started_at = info.started_at + idx, .console_from = -1 };
		struct results_cycle *c = results_cycle_begin(f->run_w, &ci, &err);

		assert_non_null(c);
		if (idx == 0) {
			struct results_wake first = full;

			first.wake = "button";    /* replaced by the second call */
			must(results_cycle_set_wake(c, &first, &err), &err);
			must(results_cycle_set_wake(c, &full, &err), &err);
		} else if (idx == 1) {
			must(results_cycle_set_wake(c, &bare, &err), &err);
		} else {
			results_cycle_set_hibernation(c, &cut_in_s3);
		}
		results_cycle_end(c, RESULTS_CYCLE_PASS, 0, -1);
		must(results_cycle_commit(db, c, NULL, &err), &err);
		results_cycle_free(c);
	}
	must(results_run_end(db, f->run_w, RESULTS_RUN_PASS, 0, &err), &err);
	results_close(db);
	*state = f;
	return 0;
}

static json_t *cycle_wake(json_t *run, size_t idx)
{
	return json_object_get(json_array_get(json_object_get(run, "cycles"), idx), "wake");
}

static void wakes_json_round_trip(void **state)
{
	struct fixture *f = *state;
	struct results_db *db = reader(f);
	struct rig_err err = { 0 };
	json_t *run, *w;

	must(results_query_run(db, f->run_w, &run, &err), &err);
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

/* The run's text report, as rig results --run prints it. */
static void run_in_text(struct fixture *f, char *text, size_t size)
{
	struct results_db *db = reader(f);
	struct rig_err err = { 0 };
	FILE *out = fmemopen(text, size - 1, "w");
	json_t *run;

	assert_non_null(out);
	must(results_query_run(db, f->run_w, &run, &err), &err);
	assert_int_equal(results_format_run(out, run), 0);
	fclose(out);
	json_decref(run);
	results_close(db);
}

static void wakes_in_text(void **state)
{
	char text[16384] = "";

	run_in_text(*state, text, sizeof(text));
	assert_non_null(strstr(text, "\nwakes:\n"));
	assert_non_null(strstr(text, "rtc alarm 5000 ms (asleep 310 ms after arming): asleep 4650 ms, "
				     "awake 1290 ms; irq 8 (rtc0); sources 00_01:1:1,alarmtimer.0.auto:1:0"));
	assert_non_null(strstr(text, "qmp: time asleep unavailable; wakeup irq unavailable; sources "
				     "none counted"));
}

/* The hibernate cycle's mode and path, in JSON and in text; the suspends have none. */
static void hibernation_round_trip(void **state)
{
	struct fixture *f = *state;
	struct results_db *db = reader(f);
	struct rig_err err = { 0 };
	char text[16384] = "";
	json_t *run, *h;

	must(results_query_run(db, f->run_w, &run, &err), &err);
	assert_true(json_is_null(json_object_get(json_array_get(json_object_get(run, "cycles"), 0),
						 "hibernation")));
	h = json_object_get(json_array_get(json_object_get(run, "cycles"), 2), "hibernation");
	assert_string_equal(json_string_value(json_object_get(h, "asked")), "suspend");
	assert_int_equal(json_integer_value(json_object_get(h, "power_cut_asked")), 0);
	assert_int_equal(json_integer_value(json_object_get(h, "power_cut")), 1);
	assert_string_equal(json_string_value(json_object_get(h, "came_back")), "restored");
	assert_int_equal(json_integer_value(json_object_get(h, "matched")), 0);
	json_decref(run);
	results_close(db);
	run_in_text(f, text, sizeof(text));
	assert_non_null(strstr(text, "\nhibernations:\n"));
	assert_non_null(strstr(text, "suspend (kernel suspend): went s3, power cut by the rig, came "
				     "back restored, NOT as asked"));
}

static void wake_describe_says_unavailable(void **state)
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

static void wakes_cursor_in_order(void **state)
{
	struct fixture *f = *state;
	struct results_db *db = reader(f);
	struct rig_err err = { 0 };
	struct results_cursor *c;
	struct results_wake_row row;

	must(results_cursor_open(db, RESULTS_DETAIL_WAKES, &c, &err), &err);
	assert_true(results_cursor_run(c) == f->run_w);
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

static void wakes_refused_and_older_schema(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };
	struct results_cycle_info ci = { .idx = 9, .step_kind = "suspend", .console_from = -1 };
	struct results_cycle *cyc = results_cycle_begin(f->run_w, &ci, &err);
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
	/* a database of schema 6: neither cycle_wakes (7) nor what came after it */
	assert_int_equal(sqlite3_exec(h, "DROP TABLE cycle_wakes; DROP TABLE cycle_hibernations;"
				      " DELETE FROM schema_version WHERE version >= 7;"
				      " PRAGMA user_version = 6", NULL, NULL,
				      NULL), SQLITE_OK);
	sqlite3_close(h);
	db = reader(f);
	must(results_cursor_open(db, RESULTS_DETAIL_WAKES, &c, &err), &err);
	assert_true(results_cursor_run(c) == INT64_MAX);
	results_cursor_close(c);
	must(results_query_run(db, f->run_w, &run, &err), &err);
	assert_true(json_is_null(cycle_wake(run, 0)));
	json_decref(run);
	results_close(db);
	/* a writer migrates it forward again: the table is there again, empty */
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
		cmocka_unit_test(runs_by_board_then_time),
		cmocka_unit_test(nights_and_stopping),
		cmocka_unit_test(cursors_walk_each_table_in_run_order),
		cmocka_unit_test(known_history),
		cmocka_unit_test(bisects_read_back),
		cmocka_unit_test(read_mode_refuses_and_never_writes),
		cmocka_unit_test_setup_teardown(phases_cursor_and_older_schema, setup, teardown),
		cmocka_unit_test_setup_teardown(wakes_json_round_trip, setup_wakes, teardown),
		cmocka_unit_test_setup_teardown(wakes_in_text, setup_wakes, teardown),
		cmocka_unit_test_setup_teardown(hibernation_round_trip, setup_wakes, teardown),
		cmocka_unit_test(wake_describe_says_unavailable),
		cmocka_unit_test_setup_teardown(wakes_cursor_in_order, setup_wakes, teardown),
		cmocka_unit_test_setup_teardown(wakes_refused_and_older_schema, setup_wakes, teardown),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
