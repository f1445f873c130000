/* Stall telemetry and its report, on synthetic operation spans placed around a frozen window. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/stall_report.h"
#include "lib/telemetry.h"

#define MS 1000000ull

static const struct stall_window window = {.freeze_ns = 10000 * MS, .thaw_ns = 14000 * MS};

/* A synthetic operation and how the report must classify it. */
struct span {
	uint64_t start_ns, end_ns;
	int err;
	bool inside;       /* ends within [freeze, thaw] */
	bool across;       /* in flight at thaw: starts before thaw, ends after it */
	bool spanning;     /* across, and started before freeze */
	bool error_after;  /* failed, ending at or after thaw */
};

static const struct span spans[] = {
	{9000 * MS, 9000 * MS + 20000, 0, false, false, false, false},   /* quick, before */
	{9990 * MS, 14500 * MS, 0, false, true, true, false},             /* blocked through the freeze */
	{9995 * MS, 10300 * MS, 0, true, false, false, false},            /* finished after freeze began */
	{11000 * MS, 12000 * MS, 0, true, false, false, false},           /* ran inside the window */
	{12000 * MS, 14200 * MS, 0, false, true, false, false},           /* blocked until after thaw */
	{13999 * MS, 14000 * MS, EIO, true, false, false, true},          /* failed right at thaw */
	{14001 * MS, 14001 * MS + 500, 0, false, false, false, false},    /* quick, after */
	{14100 * MS, 14103 * MS, ENOSPC, false, false, false, true},      /* failed after resume */
};
#define NSPANS (sizeof(spans) / sizeof(spans[0]))

static bool span_slow_or_failed(const struct span *sp)
{
	return sp->end_ns - sp->start_ns > TEL_SLOW_THRESHOLD_NS || sp->err != 0;
}

struct fixture {
	char dir[256];
	char path[300];
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	const char *tmp = getenv("TMPDIR");

	if (fx == NULL)
		return -1;
	*state = fx;
	snprintf(fx->dir, sizeof(fx->dir), "%s/stall-test-XXXXXX", tmp ? tmp : "/tmp");
	if (mkdtemp(fx->dir) == NULL)
		return -1;
	snprintf(fx->path, sizeof(fx->path), "%s/w.tel", fx->dir);
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	unlink(fx->path);
	rmdir(fx->dir);
	free(fx);
	return 0;
}

static void record_spans(struct tel_writer *tel)
{
	for (size_t i = 0; i < NSPANS; i++) {
		tel_op_begin(tel, TEL_OP_STORE, i + 1, spans[i].start_ns);
		tel_op_end(tel, spans[i].end_ns, spans[i].err);
	}
}

/* What the report must say when exactly the spans with keep[i] set are retained. */
static void expect_counts(const struct stall_summary *sum, const bool keep[NSPANS])
{
	uint64_t inside = 0, across = 0, spanning = 0, errors = 0, errors_after = 0, longest = 0;
	uint64_t window_longest = 0;

	for (size_t i = 0; i < NSPANS; i++) {
		uint64_t duration = spans[i].end_ns - spans[i].start_ns;

		errors += spans[i].err != 0;
		if (duration > longest)
			longest = duration;
		if (!keep[i])
			continue;
		/* the stall this window caused: ops that overlap it, computed independently */
		if (spans[i].start_ns < window.thaw_ns && spans[i].end_ns > window.freeze_ns &&
		    duration > window_longest)
			window_longest = duration;
		inside += spans[i].inside;
		across += spans[i].across;
		spanning += spans[i].spanning;
		errors_after += spans[i].error_after;
	}
	assert_int_equal(sum->completed_inside_window, inside);
	assert_int_equal(sum->blocked_across_window, across);
	assert_int_equal(sum->spanning_window, spanning);
	assert_int_equal(sum->errors, errors);
	assert_int_equal(sum->errors_after_thaw, errors_after);
	assert_int_equal(sum->longest_ns, longest);
	assert_int_equal(sum->window_longest_ns, window_longest);
	assert_true(window_longest > 0);
}

static void test_spans_around_window(void **state)
{
	struct fixture *fx = *state;
	struct tel_writer tel;
	struct tel_snapshot snap;
	struct stall_summary sum;

	assert_int_equal(tel_writer_open(&tel, fx->path, 64, 64, NULL), 0);
	record_spans(&tel);
	tel_writer_close(&tel);

	assert_int_equal(tel_snapshot_load(fx->path, &snap, NULL), 0);
	assert_int_equal(snap.count, NSPANS);
	stall_analyse(&snap, &window, &sum);
	tel_snapshot_free(&snap);
	bool keep_all[NSPANS];

	for (size_t i = 0; i < NSPANS; i++)
		keep_all[i] = true;
	assert_int_equal(sum.ops, NSPANS);
	expect_counts(&sum, keep_all);
	assert_false(sum.inflight);
}

static void test_slow_ops_survive_ring_wraparound(void **state)
{
	struct fixture *fx = *state;
	struct tel_writer tel;
	struct tel_snapshot snap;
	struct stall_summary sum;
	const uint32_t capacity = 4;
	const unsigned fast_ops = 50;

	assert_int_equal(tel_writer_open(&tel, fx->path, capacity, capacity, NULL), 0);
	record_spans(&tel);
	for (unsigned i = 0; i < fast_ops; i++) {
		uint64_t start = 20000 * MS + i * MS;

		tel_op_begin(&tel, TEL_OP_WRITE, 100 + i, start);
		tel_op_end(&tel, start + 1000, 0);
	}
	tel_writer_close(&tel);

	assert_int_equal(tel_snapshot_load(fx->path, &snap, NULL), 0);
	assert_int_equal(snap.hdr.total_ops, NSPANS + fast_ops);
	assert_true(snap.count <= 2 * capacity);
	for (size_t i = 1; i < snap.count; i++)
		assert_true(snap.entries[i - 1].op_id < snap.entries[i].op_id);
	stall_analyse(&snap, &window, &sum);
	tel_snapshot_free(&snap);
	assert_int_equal(sum.ops, NSPANS + fast_ops);
	/* The fast ops flushed the recent ring; the slow ring kept the last `capacity` slow or
	 * failed spans. */
	bool keep[NSPANS] = {false};
	uint32_t kept = 0;

	for (size_t i = NSPANS; i-- > 0 && kept < capacity;) {
		if (span_slow_or_failed(&spans[i])) {
			keep[i] = true;
			kept++;
		}
	}
	expect_counts(&sum, keep);
}

static void test_operation_still_in_flight_counts_as_blocked(void **state)
{
	struct fixture *fx = *state;
	struct tel_writer tel;
	struct tel_snapshot snap;
	struct stall_summary sum;

	assert_int_equal(tel_writer_open(&tel, fx->path, 8, 8, NULL), 0);
	tel_op_begin(&tel, TEL_OP_MSYNC, 1, window.freeze_ns - MS);
	tel_writer_close(&tel);

	assert_int_equal(tel_snapshot_load(fx->path, &snap, NULL), 0);
	stall_analyse(&snap, &window, &sum);
	tel_snapshot_free(&snap);
	assert_true(sum.inflight);
	assert_int_equal(sum.blocked_across_window, 1);
	assert_int_equal(sum.spanning_window, 1);
	assert_int_equal(sum.ops, 0);
}

static void test_report_line_has_the_keys(void **state)
{
	struct stall_summary sum = {.ops = 12, .longest_ns = 2500 * MS, .completed_inside_window = 1,
				    .blocked_across_window = 3, .errors = 2, .errors_after_thaw = 1};
	unsigned long long ops, inside, across, errors;
	double longest;
	char line[256];

	(void)state;
	assert_true(stall_format(&sum, false, line, sizeof(line)) < (int)sizeof(line));
	assert_int_equal(sscanf(line, "ops=%llu longest_ms=%lf completed_inside_window=%llu "
				"blocked_across_window=%llu errors=%llu",
				&ops, &longest, &inside, &across, &errors), 5);
	assert_int_equal(ops, sum.ops);
	assert_true(longest > 2499.0 && longest < 2501.0);
	assert_int_equal(inside, sum.completed_inside_window);
	assert_int_equal(across, sum.blocked_across_window);
	assert_int_equal(errors, sum.errors);
	assert_true(stall_format(&sum, true, line, sizeof(line)) < (int)sizeof(line));
	assert_non_null(strstr(line, "\"blocked_across_window\":3"));
}

static void test_entry_line(void **state)
{
	const struct span *sp = &spans[1];
	struct tel_entry entry = {.op_id = 7, .start_ns = sp->start_ns, .end_ns = sp->end_ns,
				  .seq = 99, .kind = TEL_OP_MSYNC, .err = EIO};
	unsigned long long op, seq, start, end;
	char kind[16], line[256];
	double ms;
	int err;

	(void)state;
	assert_true(stall_format_entry(&entry, line, sizeof(line)) < (int)sizeof(line));
	assert_int_equal(sscanf(line, "op=%llu kind=%15s seq=%llu start_ns=%llu end_ns=%llu ms=%lf err=%d",
				&op, kind, &seq, &start, &end, &ms, &err), 7);
	assert_int_equal(op, entry.op_id);
	assert_string_equal(kind, "msync");
	assert_int_equal(seq, entry.seq);
	assert_int_equal(start, entry.start_ns);
	assert_int_equal(end, entry.end_ns);
	assert_true(ms * 1e6 > (double)(sp->end_ns - sp->start_ns) - 1e3);
	assert_true(ms * 1e6 < (double)(sp->end_ns - sp->start_ns) + 1e3);
	assert_int_equal(err, EIO);
}

/* The dump is evidence for a judge elsewhere: read back and analysed there, it must give what
 * the analysis on the board gives, for any window inside the collection window. */
static void test_dump_round_trip_judges_the_same(void **state)
{
	struct fixture *fx = *state;
	const struct stall_window collect = {.freeze_ns = 9990 * MS, .thaw_ns = 14050 * MS};
	struct tel_writer tel;
	struct tel_snapshot snap, back = {0};
	struct stall_summary here, there;
	struct tel_entry entries[NSPANS + 1];
	char line[256];

	assert_int_equal(tel_writer_open(&tel, fx->path, 64, 64, NULL), 0);
	record_spans(&tel);
	tel_op_begin(&tel, TEL_OP_MSYNC, 99, 13000 * MS);   /* still in flight when read */
	tel_writer_close(&tel);
	assert_int_equal(tel_snapshot_load(fx->path, &snap, NULL), 0);

	assert_true(stall_format_header(&snap, line, sizeof(line)) < (int)sizeof(line));
	assert_true(stall_parse_header(line, &back.hdr));
	assert_int_equal(back.hdr.total_ops, snap.hdr.total_ops);
	assert_int_equal(back.hdr.error_total, snap.hdr.error_total);
	assert_int_equal(back.hdr.longest_ns, snap.hdr.longest_ns);
	assert_int_equal(back.hdr.inflight_start_ns, 13000 * MS);
	back.entries = entries;
	for (size_t i = 0; i < snap.count; i++) {
		if (!stall_entry_relevant(&snap.entries[i], &collect))
			continue;
		assert_true(stall_format_op(&snap.entries[i], line, sizeof(line)) < (int)sizeof(line));
		/* as the rig sees it: with the writer's id in front */
		char prefixed[300];

		snprintf(prefixed, sizeof(prefixed), "writer=nvme-ext4-m1 %s", line);
		assert_true(stall_parse_op(prefixed, &entries[back.count]));
		assert_int_equal(entries[back.count].start_ns, snap.entries[i].start_ns);
		assert_int_equal(entries[back.count].err, snap.entries[i].err);
		back.count++;
	}
	assert_true(back.count < snap.count);                  /* the quick op before is left out */
	stall_analyse(&snap, &window, &here);
	stall_analyse(&back, &window, &there);
	assert_int_equal(there.completed_inside_window, here.completed_inside_window);
	assert_int_equal(there.wrote_while_frozen, here.wrote_while_frozen);
	assert_int_equal(there.blocked_across_window, here.blocked_across_window);
	assert_int_equal(there.spanning_window, here.spanning_window);
	assert_int_equal(there.errors_after_thaw, here.errors_after_thaw);
	assert_int_equal(there.window_longest_ns, here.window_longest_ns);
	assert_int_equal(there.longest_ns, here.longest_ns);
	assert_int_equal(there.inflight, here.inflight);
	tel_snapshot_free(&snap);

	/* torn lines are not evidence */
	assert_false(stall_parse_op("op start_ns=1 end_ns=2 err=0 kind=store seq=4x", &entries[0]));
	assert_false(stall_parse_op("op start_ns=1 end_ns=2 err=0 kind=stor", &entries[0]));
	assert_false(stall_parse_op("op start_ns=1 end_ns=2", &entries[0]));
	assert_false(stall_parse_op("loop start_ns=1 end_ns=2 err=0 kind=store seq=4", &entries[0]));
	assert_false(stall_parse_header("tel ops=5 errors=0 longest_ns=7", &back.hdr));
}

static void test_not_a_telemetry_file(void **state)
{
	struct fixture *fx = *state;
	struct tel_snapshot snap;
	FILE *f = fopen(fx->path, "w");

	assert_non_null(f);
	fputs("this is not telemetry, but it is long enough to hold a header or two............\n", f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(tel_snapshot_load(fx->path, &snap, NULL), -EINVAL);
	assert_int_equal(tel_snapshot_load("/nonexistent/rig.tel", &snap, NULL), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_spans_around_window, setup, teardown),
		cmocka_unit_test_setup_teardown(test_slow_ops_survive_ring_wraparound, setup, teardown),
		cmocka_unit_test_setup_teardown(test_operation_still_in_flight_counts_as_blocked, setup, teardown),
		cmocka_unit_test(test_report_line_has_the_keys),
		cmocka_unit_test(test_entry_line),
		cmocka_unit_test_setup_teardown(test_dump_round_trip_judges_the_same, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_a_telemetry_file, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
