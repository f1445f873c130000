/* Per-device timelines in the results (results/timeline.h, schema 6): a cycle's timeline from the
 * board's recorded-style summary (through the judge's parser and the engine's store_timeline)
 * round-trips; the slowest-devices summary over cycles, runs and nights; rig results
 * --slowest-devices. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ftw.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/results.h"
#include "engine/ctx.h"
#include "judge/timeline.h"
#include "results/db.h"
#include "results/slowest.h"
#include "results/timeline.h"
#include "support.h"
#include "timeline_fixture.h"

struct fixture {
	char dir[64];
	char path[128];
	struct results_db *db;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/test_results_timeline.XXXXXX");
	f->db = tl_fixture_db(f->dir, f->path, sizeof(f->path));
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	int ret;

	results_close(f->db);
	ret = tl_fixture_remove(f->dir);
	free(f);
	return ret;
}

/* started_at: noon UTC of day `day` of December 2026 (a night each, in any time zone within 11 h). */
static int64_t begin_run(struct results_db *db, const char *board, const char *kernel, int day)
{
	struct results_run_info info = {
		.board = board, .plan = "timeline", .kernel_version = kernel,
		.started_at = 1796126400.0 + 86400.0 * (day - 1), .host = "labhost",
	};
	struct rig_err err = { 0 };
	int64_t id = 0;

	if (results_run_begin(db, &info, &id, &err))
		fail_msg("run begin: %s", err.msg);
	return id;
}

struct seen {
	int cycle;                      /* the cycle whose rows are counted */
	size_t n, devices, open, frozen, cycles_without_rows;
	int64_t sd1_resume_us;
	char first_kind[16];
	struct results_timeline_info info;
	bool found;
};

static int count_row(void *ctx, int idx, const struct results_timeline_info *info,
		     const struct results_timeline_row *r)
{
	struct seen *s = ctx;

	if (idx != s->cycle)
		return 0;
	s->found = true;
	s->info = *info;
	s->info.reason = NULL;          /* valid during the callback only */
	if (!r) {
		s->cycles_without_rows++;
		return 0;
	}
	if (s->n++ == 0)
		snprintf(s->first_kind, sizeof(s->first_kind), "%s", r->kind);
	s->devices += strcmp(r->kind, "device") == 0;
	s->frozen += strcmp(r->kind, "frozen") == 0;
	s->open += r->dur_us == -1;
	if (strcmp(r->kind, "device") == 0 && strcmp(r->name, "1:0:0:0") == 0 &&
	    strcmp(r->phase, "resume") == 0) {
		assert_string_equal(r->driver, "sd");
		s->sd1_resume_us = r->dur_us;
	}
	return 0;
}

static void test_round_trip(void **state)
{
	struct fixture *f = *state;
	struct timeline tl;
	struct frozen_window w;
	struct rig_err err = { 0 };
	struct seen s = { 0 };
	int64_t run = begin_run(f->db, "qemu", "7.3.4", 5);
	struct results_cycle *c = tl_fixture_cycle(run, 0, "7.3.4");

	tl_fixture_parse(&tl);
	tl_fixture_window(&w);
	assert_int_equal(timeline_join(&tl, &w, NULL, TL_STALL_MIN_NS, &err), 0);
	assert_int_equal(store_timeline(c, &tl, &err), 0);
	tl_fixture_commit(f->db, c);

	assert_int_equal(results_timeline_read(f->db, run, count_row, &s, &err), 0);
	assert_true(s.found);
	assert_true(s.info.available);
	assert_int_equal(s.info.base_ns, 812350118000ULL);
	assert_int_equal(s.info.events, 88);
	assert_int_equal(s.info.min_us, 1000);
	assert_int_equal(s.n, tl.n);
	assert_string_equal(s.first_kind, "mark");
	assert_int_equal(s.devices, 8);
	assert_int_equal(s.frozen, 2);
	assert_int_equal(s.open, 1);           /* vdb never thawed: NULL back to -1 */
	assert_int_equal(s.sd1_resume_us, 41377);
	timeline_free(&tl);

	/* a cycle without a timeline has none */
	memset(&s, 0, sizeof(s));
	s.cycle = 1;
	tl_fixture_commit(f->db, tl_fixture_cycle(run, 1, "7.3.4"));
	assert_int_equal(results_timeline_read(f->db, run, count_row, &s, &err), 0);
	assert_false(s.found);
	assert_int_equal(s.n, 0);
}

static void test_unavailable_stored(void **state)
{
	struct fixture *f = *state;
	const char *reply[] = { "timeline=unavailable reason=no-trace-instances" };
	struct timeline tl;
	struct rig_err err = { 0 };
	struct seen s = { 0 };
	int64_t run = begin_run(f->db, "laptop-x86", "6.1.0", 5);
	struct results_cycle *c = tl_fixture_cycle(run, 0, "6.1.0");

	assert_int_equal(timeline_parse(reply, 1, &tl, &err), 0);
	assert_int_equal(store_timeline(c, &tl, &err), 0);
	tl_fixture_commit(f->db, c);
	assert_int_equal(results_timeline_read(f->db, run, count_row, &s, &err), 0);
	assert_true(s.found);
	assert_false(s.info.available);
	assert_int_equal(s.cycles_without_rows, 1);
	assert_int_equal(s.n, 0);
	timeline_free(&tl);
}

static void test_rows_checked(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };
	struct results_timeline_info info = { .available = true };
	struct results_timeline_row ok = { .kind = "device", .phase = "suspend", .name = "a",
					   .start_us = 0, .dur_us = 5, .count = 1 };
	struct results_timeline_row bad_kind = ok, bad_span = ok;
	struct results_cycle *c = tl_fixture_cycle(begin_run(f->db, "qemu", "7.3.4", 5), 0, "7.3.4");

	bad_kind.kind = "firmware";
	bad_span.dur_us = -2;
	assert_int_equal(results_cycle_add_timeline_row(c, &ok, &err), -1);   /* before the header */
	assert_int_equal(results_cycle_set_timeline(c, &info, &err), 0);
	assert_int_equal(results_cycle_add_timeline_row(c, &ok, &err), 0);
	assert_int_equal(results_cycle_add_timeline_row(c, &bad_kind, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	assert_int_equal(results_cycle_add_timeline_row(c, &bad_span, &err), -1);
	results_cycle_free(c);
}

/* A cycle whose timeline holds the device's resume callback of dur_us (none when dur_us < 0: it
 * was under the board's threshold, aggregated into "others"). */
static void traced_cycle(struct results_db *db, int64_t run, int idx, const char *kernel,
			 const char *device, int64_t dur_us, int err_code)
{
	struct results_cycle *c = tl_fixture_cycle(run, idx, kernel);
	struct results_timeline_info info = { .available = true, .base_ns = 1000, .events = 10,
					      .min_us = 1000 };
	struct results_timeline_row dev = { .kind = "device", .phase = "resume", .name = device,
					    .driver = "sd", .start_us = 100, .dur_us = dur_us,
					    .err = err_code, .count = 1 };
	struct results_timeline_row others = { .kind = "others", .phase = "resume",
					       .name = "others", .start_us = 50, .dur_us = 900,
					       .count = 12 };
	struct results_timeline_row nvme = { .kind = "device", .phase = "suspend",
					     .name = "0000:00:04.0", .driver = "nvme",
					     .start_us = 10, .dur_us = 4000, .count = 1 };
	struct rig_err err = { 0 };

	assert_int_equal(results_cycle_set_timeline(c, &info, &err), 0);
	assert_int_equal(results_cycle_add_timeline_row(c, &others, &err), 0);
	assert_int_equal(results_cycle_add_timeline_row(c, &nvme, &err), 0);
	if (dur_us >= 0)
		assert_int_equal(results_cycle_add_timeline_row(c, &dev, &err), 0);
	tl_fixture_commit(db, c);
}

struct slow_rows {
	struct results_slow_device rows[16];
	char names[16][64], phases[16][32], nights[16][16];
	size_t n;
};

static int keep_slow(void *ctx, const struct results_slow_device *d)
{
	struct slow_rows *s = ctx;

	assert_true(s->n < 16);
	s->rows[s->n] = *d;
	snprintf(s->names[s->n], sizeof(s->names[0]), "%s", d->name);
	snprintf(s->phases[s->n], sizeof(s->phases[0]), "%s", d->phase);
	snprintf(s->nights[s->n], sizeof(s->nights[0]), "%s", d->last_night ? d->last_night : "");
	s->n++;
	return 0;
}

static void fill_nights(struct results_db *db)
{
	int64_t r1 = begin_run(db, "qemu", "7.3.4", 3), r2 = begin_run(db, "qemu", "7.3.4", 4);
	int64_t r3 = begin_run(db, "qemu", "7.4.0", 4);
	struct results_cycle *plain;

	traced_cycle(db, r1, 0, "7.3.4", "1:0:0:0", 40000, 0);
	traced_cycle(db, r1, 1, "7.3.4", "1:0:0:0", 42000, 0);
	traced_cycle(db, r2, 0, "7.3.4", "1:0:0:0", 50000, -5);  /* the worst, and a failure */
	traced_cycle(db, r2, 1, "7.3.4", "1:0:0:0", -1, 0);      /* under the threshold */
	traced_cycle(db, r2, 2, "7.3.4", "0:0:0:0", 2000, 0);
	traced_cycle(db, r3, 0, "7.4.0", "1:0:0:0", 9000, 0);    /* another kernel: apart */
	plain = tl_fixture_cycle(r2, 3, "7.3.4");                        /* no timeline: not traced */
	tl_fixture_commit(db, plain);
}

static void test_slowest_devices(void **state)
{
	struct fixture *f = *state;
	struct results_slow_filter filter = { .board = "qemu", .kernel = "7.3.4", .per_phase = 0 };
	struct slow_rows s = { 0 };
	struct rig_err err = { 0 };
	const struct results_slow_device *d;

	fill_nights(f->db);
	assert_int_equal(results_slowest_devices(f->db, &filter, keep_slow, &s, &err), 0);
	/* the suspend phase first (a suspend's order), then resume by mean */
	assert_int_equal(s.n, 3);
	assert_string_equal(s.phases[0], "suspend");
	assert_string_equal(s.names[0], "0000:00:04.0");
	assert_int_equal(s.rows[0].cycles, 5);
	assert_string_equal(s.names[1], "1:0:0:0");
	assert_string_equal(s.names[2], "0:0:0:0");
	d = &s.rows[1];
	assert_int_equal(d->cycles, 3);         /* kept in 3 ... */
	assert_int_equal(d->traced, 5);         /* ... of the 5 traced cycles of that kernel */
	assert_int_equal(d->nights, 2);
	assert_int_equal(d->errors, 1);
	assert_true(fabs(d->mean_us - 44000.0) < 1e-6);
	assert_true(fabs(d->max_us - 50000.0) < 1e-6);
	assert_true(fabs(d->last_night_mean_us - 50000.0) < 1e-6);
	assert_string_equal(s.nights[1], "2026-12-04");
	assert_int_equal(d->worst_cycle, 0);
	assert_true(d->worst_run > 0);

	/* --top 1: the slowest per phase only */
	memset(&s, 0, sizeof(s));
	filter.per_phase = 1;
	assert_int_equal(results_slowest_devices(f->db, &filter, keep_slow, &s, &err), 0);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.names[1], "1:0:0:0");

	/* every kernel: the other kernel's numbers stay apart */
	memset(&s, 0, sizeof(s));
	filter.kernel = NULL;
	filter.per_phase = 0;
	assert_int_equal(results_slowest_devices(f->db, &filter, keep_slow, &s, &err), 0);
	assert_int_equal(s.n, 5);
	assert_true(fabs(s.rows[4].mean_us - 9000.0) < 1e-6);
	assert_int_equal(s.rows[4].traced, 1);

	/* negative control: a board with no timeline has nothing to show */
	memset(&s, 0, sizeof(s));
	filter.board = "laptop-x86";
	assert_int_equal(results_slowest_devices(f->db, &filter, keep_slow, &s, &err), 0);
	assert_int_equal(s.n, 0);
}

/* A reader never migrates: a schema 4 database (before timelines) reads as "none". */
static void test_old_schema_reads_as_none(void **state)
{
	struct fixture *f = *state;
	struct results_slow_filter filter = { 0 };
	struct slow_rows s = { 0 };
	struct results_db *ro = NULL;
	struct rig_err err = { 0 };
	struct seen seen = { 0 };
	sqlite3 *h;

	fill_nights(f->db);
	results_close(f->db);
	f->db = NULL;
	assert_int_equal(sqlite3_open(f->path, &h), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, "DROP TABLE timeline_rows; DROP TABLE cycle_timelines;"
				      " PRAGMA user_version = 4", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	assert_int_equal(results_open(f->path, RESULTS_OPEN_READ, &ro, &err), 0);
	assert_int_equal(results_slowest_devices(ro, &filter, keep_slow, &s, &err), 0);
	assert_int_equal(s.n, 0);
	assert_int_equal(results_timeline_read(ro, 1, count_row, &seen, &err), 0);
	assert_false(seen.found);
	results_close(ro);
}

static char *run_cli(int argc, char **argv, int *rc)
{
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size), *errout = fopen("/dev/null", "w");

	assert_non_null(out);
	*rc = cmd_results_to(argc, argv, out, errout);
	fclose(out);
	fclose(errout);
	return text;
}

static void test_cli(void **state)
{
	struct fixture *f = *state;
	char *argv[] = { "results", "--db", f->path, "--slowest-devices", "--top", "1", NULL };
	char *json[] = { "results", "--db", f->path, "--slowest-devices", "--json", "--kernel",
			 "7.4.0", NULL };
	char *stray[] = { "results", "--db", f->path, "--kernel", "7.4.0", NULL };
	char *text;
	int rc;

	text = run_cli(6, argv, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(text, "no per-device timelines stored"));
	free(text);
	fill_nights(f->db);
	text = run_cli(6, argv, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(text, "mean ms"));
	assert_non_null(strstr(text, "1:0:0:0"));
	assert_non_null(strstr(text, "44.000"));
	assert_non_null(strstr(text, "3/5"));
	assert_null(strstr(text, "0:0:0:0 "));   /* --top 1: only the slowest of the resume phase */
	free(text);
	text = run_cli(7, json, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(text, "\"mean_us\": 9000.0"));
	assert_null(strstr(text, "7.3.4"));
	free(text);
	text = run_cli(5, stray, &rc);
	assert_int_equal(rc, RIG_EXIT_USAGE);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unavailable_stored, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rows_checked, setup, teardown),
		cmocka_unit_test_setup_teardown(test_slowest_devices, setup, teardown),
		cmocka_unit_test_setup_teardown(test_old_schema_reads_as_none, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cli, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
