/* The per-device timeline (judge/timeline.h): the board's summary (rig-dut timeline-read; the
 * fixture is what workloads/tests/rig-dut-timeline.sh checks the board's awk prints for a
 * recorded-style ftrace of a QEMU deep suspend) parsed, and joined with the freeze trace and the
 * writers' stalls on one axis. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "judge/timeline.h"
#include "support.h"
#include "timeline_fixture.h"

static const struct tl_row *find(const struct timeline *tl, enum tl_kind kind, enum tl_phase phase,
				 const char *name)
{
	for (size_t i = 0; i < tl->n; i++)
		if (tl->rows[i].kind == kind && strcmp(tl->rows[i].name, name) == 0 &&
		    (kind == TL_MARK || kind == TL_FROZEN || kind == TL_STALL ||
		     tl->rows[i].phase == phase))
			return &tl->rows[i];
	return NULL;
}

static size_t count(const struct timeline *tl, enum tl_kind kind)
{
	size_t n = 0;

	for (size_t i = 0; i < tl->n; i++)
		n += tl->rows[i].kind == kind;
	return n;
}

static void test_recorded_summary(void **state)
{
	struct timeline tl;
	const struct tl_row *r;

	(void)state;
	tl_fixture_parse(&tl);
	assert_true(tl.available);
	assert_int_equal(tl.base_ns, 812350118000ULL);
	assert_int_equal(tl.events, 88);
	assert_int_equal(tl.min_us, 1000);
	assert_int_equal(tl.bad_lines, 0);
	assert_int_equal(count(&tl, TL_MARK), 16);
	assert_int_equal(count(&tl, TL_DEVICE), 8);
	assert_int_equal(count(&tl, TL_OTHERS), 8);
	/* the slowest callback of the cycle: the second disk's resume */
	r = find(&tl, TL_DEVICE, TL_RESUME, "1:0:0:0");
	assert_non_null(r);
	assert_string_equal(r->driver, "sd");
	assert_int_equal(r->start_us, 5472291);
	assert_int_equal(r->dur_us, 41377);
	assert_int_equal(r->err, 0);
	r = find(&tl, TL_DEVICE, TL_SUSPEND_NOIRQ, "0000:00:1f.2");
	assert_non_null(r);
	assert_string_equal(r->driver, "ahci");
	/* others: first start to last end, the count kept */
	r = find(&tl, TL_OTHERS, TL_SUSPEND, "others");
	assert_non_null(r);
	assert_int_equal(r->count, 5);
	assert_int_equal(r->start_us, 232296);
	assert_int_equal(r->dur_us, 232676 - 232296);
	/* asleep: machine_suspend's span, which the drawing folds */
	assert_int_equal(tl.asleep_from_us, 255966);
	assert_int_equal(tl.asleep_to_us, 255966 + 5212004);
	r = find(&tl, TL_MARK, TL_PHASE_UNKNOWN, "freeze_processes");
	assert_non_null(r);
	assert_int_equal(r->dur_us, 47507);
	timeline_free(&tl);
}

static void test_errors_open_and_unknown_phase(void **state)
{
	const char *lines[] = {
		"timeline base_ns=100000000000 events=9 devices=3 others=0 marks=1 lost=37 unmatched=2 bad=1 min_us=1000",
		"mark name=\"dpm_suspend\" val=2 start_us=0 open=1",
		"dev phase=suspend name=\"0000:00:14.0\" driver=\"xhci_hcd\" start_us=100 dur_us=200 err=-16",
		"dev phase=suspend name=\"0000:00:02.0\" driver=\"i915\" start_us=400 open=1",
		"dev phase=poweroff_late name=\"0000:00:03.0\" driver=\"\" start_us=900 dur_us=2000 err=0",
	};
	struct timeline tl;
	struct rig_err err;
	const struct tl_row *r;

	(void)state;
	assert_int_equal(timeline_parse(lines, 5, &tl, &err), 0);
	assert_true(tl.available);
	assert_int_equal(tl.lost, 37);
	assert_int_equal(tl.unmatched, 2);
	assert_int_equal(tl.board_bad, 1);
	assert_int_equal(tl.bad_lines, 0);
	r = find(&tl, TL_DEVICE, TL_SUSPEND, "0000:00:14.0");
	assert_non_null(r);
	assert_int_equal(r->err, -16);
	r = find(&tl, TL_DEVICE, TL_SUSPEND, "0000:00:02.0");
	assert_non_null(r);
	assert_int_equal(r->dur_us, TL_OPEN);
	r = find(&tl, TL_MARK, TL_PHASE_UNKNOWN, "dpm_suspend");
	assert_int_equal(r->dur_us, TL_OPEN);
	/* a phase this rig does not know is kept, as unknown, with its device without a driver */
	r = find(&tl, TL_DEVICE, TL_PHASE_UNKNOWN, "0000:00:03.0");
	assert_non_null(r);
	assert_string_equal(r->driver, "");
	assert_int_equal(tl.asleep_from_us, -1);
	timeline_free(&tl);
}

static void test_truncated_lines_counted(void **state)
{
	const char *lines[] = {
		"rig-dut: a shell complaint before the header",
		"timeline base_ns=5000 events=4 devices=2 others=1 marks=0 lost=0 unmatched=0 bad=0 min_us=1000",
		"dev phase=resume name=\"0000:00:04.0\" driver=\"nvme\" start_us=10 dur_us=21337 err=0",
		"dev phase=resume name=\"0000:00:05.0\" driver=\"nv",          /* cut by the console */
		"dev phase=resume name=\"0000:00:06.0\" driver=\"x\" start_us=12", /* no duration */
		"others phase=resume count=0 start_us=1 end_us=2",              /* nothing aggregated */
		"others phase=resume count=3 start_us=9 end_us=4",              /* ends before it starts */
		"mark name=\"\" val=2 start_us=0 dur_us=1",
		"something else",
	};
	struct timeline tl;
	struct rig_err err;

	(void)state;
	assert_int_equal(timeline_parse(lines, 9, &tl, &err), 0);
	assert_true(tl.available);
	assert_int_equal(tl.n, 1);
	assert_int_equal(tl.bad_lines, 7);
	assert_string_equal(tl.first_bad, "rig-dut: a shell complaint before the header");
	timeline_free(&tl);
}

static void test_unavailable(void **state)
{
	const char *board[] = { "timeline=unavailable reason=no-event-device_pm_callback_start" };
	const char *nothing[] = { "dev phase=resume name=\"a\" driver=\"b\" start_us=1 dur_us=2 err=0" };
	struct timeline tl;
	struct rig_err err;
	struct frozen_window w = { .seen = true, .freeze_done = true };

	(void)state;
	assert_int_equal(timeline_parse(board, 1, &tl, &err), 0);
	assert_false(tl.available);
	assert_string_equal(tl.reason, "no-event-device_pm_callback_start");
	/* no axis: nothing joined on it */
	assert_int_equal(timeline_join(&tl, &w, NULL, 0, &err), 0);
	assert_int_equal(tl.n, 0);
	timeline_free(&tl);
	/* rows without the header line are no summary */
	assert_int_equal(timeline_parse(nothing, 1, &tl, &err), 0);
	assert_false(tl.available);
	assert_string_equal(tl.reason, "no-summary");
	assert_int_equal(tl.bad_lines, 1);
	timeline_free(&tl);
}

/* The freeze trace (ns on the boot clock) and a writer's operations on the timeline's axis. */
static void test_join(void **state)
{
	struct timeline tl;
	struct frozen_window w;
	struct ev_stall_ops stall;
	struct tel_entry ops[3] = {
		/* blocked from just before the freeze to after the thaw: a stall */
		{ .start_ns = 812584000000ULL, .end_ns = 817820000000ULL },
		/* 2 ms: under the 10 ms threshold */
		{ .start_ns = 812300000000ULL, .end_ns = 812302000000ULL },
		/* ends before it starts (a torn telemetry entry): not a span */
		{ .start_ns = 812310000000ULL, .end_ns = 812300000000ULL },
	};
	struct rig_err err;
	const struct tl_row *r;
	size_t rows;

	(void)state;
	tl_fixture_parse(&tl);
	rows = tl.n;
	tl_fixture_window(&w);
	tl_fixture_writer(&stall, "nvme-ext4-m1a", ops, 3);
	stall.writers[0].has_header = true;
	stall.writers[0].hdr.inflight_start_ns = 817830000000ULL;

	assert_int_equal(timeline_join(&tl, &w, &stall, 10000000ULL, &err), 0);
	r = find(&tl, TL_FROZEN, TL_PHASE_UNKNOWN, "vda");
	assert_non_null(r);
	assert_int_equal(r->start_us, 812583000 - 812350118);
	assert_int_equal(r->dur_us, 817818500 - 812583000);
	/* thawed by nobody the trace saw: open */
	r = find(&tl, TL_FROZEN, TL_PHASE_UNKNOWN, "vdb");
	assert_non_null(r);
	assert_int_equal(r->dur_us, TL_OPEN);
	r = find(&tl, TL_MARK, TL_PHASE_UNKNOWN, "filesystems_freeze");
	assert_non_null(r);
	assert_int_equal(r->start_us, 812582100 - 812350118);
	assert_int_equal(r->dur_us, 1900);
	assert_non_null(find(&tl, TL_MARK, TL_PHASE_UNKNOWN, "filesystems_thaw"));
	/* the writer: one stall from before the freeze to after the thaw, and the one in flight */
	assert_int_equal(count(&tl, TL_STALL), 2);
	r = find(&tl, TL_STALL, TL_PHASE_UNKNOWN, "nvme-ext4-m1a");
	assert_string_equal(r->driver, "nvme-ext4");
	assert_int_equal(r->start_us, 812584000 - 812350118);
	assert_int_equal(r->dur_us, 817820000 - 812584000);
	assert_int_equal(tl.rows[tl.n - 1].dur_us, TL_OPEN);
	/* two marks, two filesystems, two stalls */
	assert_int_equal(tl.n, rows + 6);
	timeline_free(&tl);
}

/* Negative control of the join: with the stall threshold above every operation, no stall row. */
static void test_join_threshold(void **state)
{
	struct timeline tl;
	struct ev_stall_ops stall;
	struct tel_entry op = { .start_ns = 812000000000ULL, .end_ns = 812050000000ULL };
	struct rig_err err;
	const struct tl_row *r;

	(void)state;
	tl_fixture_parse(&tl);
	tl_fixture_writer(&stall, "sata-xfs-w2b", &op, 1);
	assert_int_equal(timeline_join(&tl, NULL, &stall, 60000000ULL, &err), 0);
	assert_int_equal(count(&tl, TL_STALL), 0);
	assert_int_equal(timeline_join(&tl, NULL, &stall, 50000000ULL, &err), 0);
	r = find(&tl, TL_STALL, TL_PHASE_UNKNOWN, "sata-xfs-w2b");
	assert_non_null(r);
	assert_int_equal(r->start_us, 812000000 - 812350118);
	assert_string_equal(r->driver, "sata-xfs");
	timeline_free(&tl);
}

static void test_names(void **state)
{
	enum tl_kind k;

	(void)state;
	for (int p = 0; p < TL_N_PHASES; p++)
		assert_int_equal(tl_phase_of(tl_phase_name((enum tl_phase)p)), p);
	assert_int_equal(tl_phase_of("resume_noirq"), TL_RESUME_NOIRQ);
	assert_int_equal(tl_phase_of("thaw"), TL_PHASE_UNKNOWN);
	for (int i = TL_MARK; i <= TL_STALL; i++) {
		assert_int_equal(tl_kind_of(tl_kind_name((enum tl_kind)i), &k), 0);
		assert_int_equal(k, i);
	}
	assert_int_equal(tl_kind_of("device ", &k), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recorded_summary),
		cmocka_unit_test(test_errors_open_and_unknown_phase),
		cmocka_unit_test(test_truncated_lines_counted),
		cmocka_unit_test(test_unavailable),
		cmocka_unit_test(test_join),
		cmocka_unit_test(test_join_threshold),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
