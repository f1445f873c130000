/* Console byte stream -> lines: terminators, escape stripping, kernel records injected into
 * agent lines, payload lines that only look like records. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "console/ansi.h"
#include "console/kstamp.h"
#include "console/linebuf.h"
#include "console/splitter.h"

#define MAX_LINES 32

struct collected {
	char *lines[MAX_LINES];
	struct timespec times[MAX_LINES];
	size_t n;
};

static void collected_free(struct collected *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->lines[i]);
	c->n = 0;
}

static int collect(void *ctx, const char *line, const struct timespec *t)
{
	struct collected *c = ctx;

	assert_true(c->n < MAX_LINES);
	c->lines[c->n] = strdup(line);
	assert_non_null(c->lines[c->n]);
	c->times[c->n++] = *t;
	return 0;
}

static int collect_physical(void *ctx, const char *line, size_t len, const struct timespec *t)
{
	char *copy = strndup(line, len);
	int rc;

	assert_non_null(copy);
	rc = collect(ctx, copy, t);
	free(copy);
	return rc;
}

/* Feed a byte stream the way the console does: lines, stripped, split. */
static void run_stream(const char *bytes, struct collected *out)
{
	struct collected physical = { .n = 0 };
	struct linebuf lb;
	struct splitter sp;
	struct timespec now = { 100, 0 };

	linebuf_init(&lb);
	splitter_init(&sp, "@@RIG@@");
	assert_int_equal(linebuf_feed(&lb, bytes, strlen(bytes), &now, collect_physical, &physical), 0);
	for (size_t i = 0; i < physical.n; i++) {
		char stripped[1024];

		ansi_strip(physical.lines[i], strlen(physical.lines[i]), stripped);
		assert_int_equal(splitter_push(&sp, stripped, &physical.times[i], collect, out), 0);
	}
	assert_int_equal(splitter_flush(&sp, collect, out), 0);
	splitter_free(&sp);
	linebuf_free(&lb);
	collected_free(&physical);
}

static void test_terminators(void **state)
{
	struct collected c = { .n = 0 };

	(void)state;
	run_stream("a\r\nb\nc\rd\r\r\ne\r\n\r\nf\n", &c);
	assert_int_equal(c.n, 7);
	assert_string_equal(c.lines[0], "a");
	assert_string_equal(c.lines[1], "b");
	assert_string_equal(c.lines[2], "c");
	assert_string_equal(c.lines[3], "d");
	assert_string_equal(c.lines[4], "e");
	assert_string_equal(c.lines[5], "");
	assert_string_equal(c.lines[6], "f");
	collected_free(&c);
}

static void test_first_byte_time_across_chunks(void **state)
{
	struct collected c = { .n = 0 };
	struct linebuf lb;
	struct timespec t1 = { 10, 500 }, t2 = { 11, 0 };

	(void)state;
	linebuf_init(&lb);
	assert_int_equal(linebuf_feed(&lb, "hel", 3, &t1, collect_physical, &c), 0);
	assert_int_equal(c.n, 0);
	/* The \n of a \r\n arriving in the next chunk must not make an empty line. */
	assert_int_equal(linebuf_feed(&lb, "lo\r", 3, &t2, collect_physical, &c), 0);
	assert_int_equal(linebuf_feed(&lb, "\nnext", 5, &t2, collect_physical, &c), 0);
	assert_int_equal(c.n, 1);
	assert_string_equal(c.lines[0], "hello");
	assert_int_equal(c.times[0].tv_sec, 10);
	assert_int_equal(c.times[0].tv_nsec, 500);
	assert_int_equal(linebuf_flush(&lb, collect_physical, &c), 0);
	assert_int_equal(c.n, 2);
	assert_string_equal(c.lines[1], "next");
	linebuf_free(&lb);
	collected_free(&c);
}

/* A line over LINEBUF_MAX is cut, and the cut is marked on both sides: the part before ends
 * with LINEBUF_CUT_MARK, the rest starts with LINEBUF_CONT_MARK (it used to be split in two
 * unmarked lines, which read as two lines the board printed). Fed in chunks that straddle the
 * limit, as the console reads them. */
static void test_long_line_is_cut_and_marked(void **state)
{
	struct collected c = { .n = 0 };
	struct linebuf lb;
	struct timespec now = { 1, 0 };
	size_t total = LINEBUF_MAX + 10;
	char *bytes = malloc(total + 1), *want = malloc(LINEBUF_MAX + sizeof(LINEBUF_CUT_MARK));

	(void)state;
	assert_non_null(bytes);
	assert_non_null(want);
	memset(bytes, 'x', total);
	bytes[total] = '\n';
	linebuf_init(&lb);
	for (size_t at = 0; at <= total; at += 1000) {
		size_t n = total + 1 - at < 1000 ? total + 1 - at : 1000;

		assert_int_equal(linebuf_feed(&lb, bytes + at, n, &now, collect_physical, &c), 0);
	}
	assert_int_equal(c.n, 2);
	memset(want, 'x', LINEBUF_MAX);
	memcpy(want + LINEBUF_MAX, LINEBUF_CUT_MARK, sizeof(LINEBUF_CUT_MARK));
	assert_string_equal(c.lines[0], want);
	assert_string_equal(c.lines[1], LINEBUF_CONT_MARK "xxxxxxxxxx");
	linebuf_free(&lb);
	collected_free(&c);
	free(bytes);
	free(want);
}

/* Negative control: a line of exactly LINEBUF_MAX bytes is whole, and carries no mark. */
static void test_line_at_the_limit_is_whole(void **state)
{
	struct collected c = { .n = 0 };
	struct linebuf lb;
	struct timespec now = { 1, 0 };
	char *bytes = malloc(LINEBUF_MAX + 2);

	(void)state;
	assert_non_null(bytes);
	memset(bytes, 'y', LINEBUF_MAX);
	memcpy(bytes + LINEBUF_MAX, "\n", 2);
	linebuf_init(&lb);
	assert_int_equal(linebuf_feed(&lb, bytes, LINEBUF_MAX + 1, &now, collect_physical, &c), 0);
	assert_int_equal(c.n, 1);
	bytes[LINEBUF_MAX] = '\0';
	assert_string_equal(c.lines[0], bytes);
	linebuf_free(&lb);
	collected_free(&c);
	free(bytes);
}

static void test_ansi_strip(void **state)
{
	char out[128];
	const char *in = "rig# \x1b[6n\x1b[1;31mred\x1b[0m \x1b]0;title\x07ok\x1b(B\x07\tend\x1b[";

	(void)state;
	assert_int_equal(ansi_strip(in, strlen(in), out), strlen("rig# red ok\tend"));
	assert_string_equal(out, "rig# red ok\tend");
}

static void test_cursor_query_line(void **state)
{
	struct collected c = { .n = 0 };

	(void)state;
	run_stream("\x1b[6n@@RIG@@ agent ready\r\n", &c);
	assert_int_equal(c.n, 1);
	assert_string_equal(c.lines[0], "@@RIG@@ agent ready");
	collected_free(&c);
}

static void test_kstamp(void **state)
{
	struct kstamp ks;

	(void)state;
	assert_true(kstamp_parse("[   12.345678] PM: suspend entry (deep)", &ks));
	assert_int_equal(ks.len, strlen("[   12.345678] "));
	assert_true(ks.secs > 12.345677 && ks.secs < 12.345679);
	assert_true(kstamp_parse("[    0.000000][    T1] Linux version", &ks));
	assert_int_equal(ks.len, strlen("[    0.000000][    T1] "));
	assert_false(kstamp_parse("[ 12.34567] short fraction", &ks));
	assert_false(kstamp_parse("[12.345678]x", &ks));
	assert_int_equal(kstamp_find("abc[ 1.000000] x", 1, &ks), 3);
	assert_int_equal(kstamp_find("abc [1] x", 1, &ks), -1);
}

static void test_record_injected_in_agent_line(void **state)
{
	struct collected c = { .n = 0 };

	(void)state;
	run_stream("@@RIG@@ 7 | hel[   12.345678] PM: suspend entry (deep)\r\nlo\r\n"
		   "@@RIG@@ 7 end rc=0 lines=1 crc=1\r\n", &c);
	assert_int_equal(c.n, 3);
	assert_string_equal(c.lines[0], "[   12.345678] PM: suspend entry (deep)");
	assert_string_equal(c.lines[1], "@@RIG@@ 7 | hello");
	assert_string_equal(c.lines[2], "@@RIG@@ 7 end rc=0 lines=1 crc=1");
	collected_free(&c);
}

static void test_several_records_injected(void **state)
{
	struct collected c = { .n = 0 };

	(void)state;
	run_stream("@@RIG@@ 3 | ab[    1.000001] one\r\n[    1.000002] two\r\n"
		   "cd[    1.000003] three\r\nef\r\n", &c);
	assert_int_equal(c.n, 4);
	assert_string_equal(c.lines[0], "[    1.000001] one");
	assert_string_equal(c.lines[1], "[    1.000002] two");
	assert_string_equal(c.lines[2], "[    1.000003] three");
	assert_string_equal(c.lines[3], "@@RIG@@ 3 | abcdef");
	collected_free(&c);
}

static void test_record_injected_before_newline(void **state)
{
	struct collected c = { .n = 0 };

	(void)state;
	/* The kernel wrote just before the agent's own \r\n: the remainder is an empty line. */
	run_stream("@@RIG@@ 3 | done[    1.000001] PM: suspend exit\r\n\r\n@@RIG@@ 3 end\r\n", &c);
	assert_int_equal(c.n, 3);
	assert_string_equal(c.lines[0], "[    1.000001] PM: suspend exit");
	assert_string_equal(c.lines[1], "@@RIG@@ 3 | done");
	assert_string_equal(c.lines[2], "@@RIG@@ 3 end");
	collected_free(&c);
}

static void test_payload_that_looks_like_a_record(void **state)
{
	struct collected c = { .n = 0 };

	(void)state;
	/* `dmesg` through the agent: the record is the payload, the next marker line proves it. */
	run_stream("@@RIG@@ 5 | [   41.718902] PM: suspend exit\r\n"
		   "[   50.000000] real record\r\n"
		   "@@RIG@@ 5 end rc=0\r\n", &c);
	assert_int_equal(c.n, 3);
	assert_string_equal(c.lines[0], "@@RIG@@ 5 | [   41.718902] PM: suspend exit");
	assert_string_equal(c.lines[1], "[   50.000000] real record");
	assert_string_equal(c.lines[2], "@@RIG@@ 5 end rc=0");
	collected_free(&c);
}

static void test_record_after_prompt(void **state)
{
	struct collected c = { .n = 0 };

	(void)state;
	/* The agent's prompt waits without a newline when the kernel speaks. */
	run_stream("rig# [   41.530125] PM: suspend entry (deep)\r\n"
		   "[   41.543801] Filesystems sync: 0.013 seconds\r\n"
		   "@@RIG? 9 ZWNobw==\r\n@@RIG@@ 9 begin\r\n", &c);
	assert_int_equal(c.n, 4);
	assert_string_equal(c.lines[0], "[   41.530125] PM: suspend entry (deep)");
	assert_string_equal(c.lines[1], "[   41.543801] Filesystems sync: 0.013 seconds");
	assert_string_equal(c.lines[2], "rig# @@RIG? 9 ZWNobw==");
	assert_string_equal(c.lines[3], "@@RIG@@ 9 begin");
	collected_free(&c);
}

static void test_quiet_console_settles_as_injection(void **state)
{
	struct collected c = { .n = 0 };
	struct splitter sp;
	struct timespec t = { 1, 0 };

	(void)state;
	splitter_init(&sp, "@@RIG@@");
	assert_int_equal(splitter_push(&sp, "@@RIG@@ 2 | par[  9.000000] PM: suspend entry (deep)",
				       &t, collect, &c), 0);
	assert_int_equal(c.n, 0);
	/* The board suspended mid-line: the record must not wait for the resume. */
	assert_int_equal(splitter_idle(&sp, collect, &c), 0);
	assert_int_equal(c.n, 1);
	assert_string_equal(c.lines[0], "[  9.000000] PM: suspend entry (deep)");
	assert_int_equal(splitter_push(&sp, "tial", &t, collect, &c), 0);
	assert_int_equal(c.n, 2);
	assert_string_equal(c.lines[1], "@@RIG@@ 2 | partial");
	splitter_free(&sp);
	collected_free(&c);
}

/* Counts lines instead of keeping them: the tagged-console test emits 40k. */
struct tally {
	size_t lines, records, cut, longest;
};

static int count(void *ctx, const char *line, const struct timespec *t)
{
	struct tally *y = ctx;
	size_t n = strlen(line);
	struct kstamp ks;

	(void)t;
	y->lines++;
	y->records += kstamp_parse(line, &ks);
	y->cut += n >= strlen(SPLITTER_CUT_MARK) &&
		  strcmp(line + n - strlen(SPLITTER_CUT_MARK), SPLITTER_CUT_MARK) == 0;
	if (n > y->longest)
		y->longest = n;
	return 0;
}

/* CPU time, not wall time: the bound must not fail because another job shares the cores (it did
 * once, with a 1 s wall-clock bound, while bisect simulations ran beside it). */
static double seconds_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* A console server that tags every line puts no record at column 0: each line's tag was held
 * back as a fragment and joined to the next, so the fragment grew by a tag per line (40k
 * lines took 8.9 s and ended in one 240 KB line). Bounded now: linear time, every record
 * still out, no line longer than the limit, the overlong fragments marked as cut. */
static void test_tagged_console_stays_linear(void **state)
{
	struct tally y = { 0 };
	struct splitter sp;
	struct timespec t = { 1, 0 };
	double start = seconds_now();
	char line[128];

	(void)state;
	splitter_init(&sp, "@@RIG@@");
	for (int i = 0; i < 40000; i++) {
		snprintf(line, sizeof(line), "ttyS0-lab3: [%5d.%06d] PM: message %d", i / 1000,
			 i % 1000, i);
		assert_int_equal(splitter_push(&sp, line, &t, count, &y), 0);
	}
	assert_int_equal(splitter_flush(&sp, count, &y), 0);
	splitter_free(&sp);
	assert_true(seconds_now() - start < 2.0);   /* 0.48 s under ASan; the old code 38 s */
	assert_int_equal(y.records, 40000);
	assert_true(y.cut > 0);
	assert_true(y.longest <= SPLITTER_MAX_FRAGMENT + strlen(SPLITTER_CUT_MARK));
}

/* An ordinary interruption still joins: the limit only cuts a fragment already too long. */
static void test_long_fragment_is_cut_and_marked(void **state)
{
	struct collected c = { .n = 0 };
	struct splitter sp;
	struct timespec t = { 1, 0 };
	size_t n = SPLITTER_MAX_FRAGMENT + 100;
	char *line = malloc(n + 64);

	(void)state;
	assert_non_null(line);
	memset(line, 'x', n);
	strcpy(line + n, "[    1.000000] PM: suspend entry (deep)");
	splitter_init(&sp, "@@RIG@@");
	assert_int_equal(splitter_push(&sp, line, &t, collect, &c), 0);
	assert_int_equal(splitter_push(&sp, "tail", &t, collect, &c), 0);
	assert_int_equal(splitter_flush(&sp, collect, &c), 0);
	assert_int_equal(c.n, 3);
	assert_string_equal(c.lines[0], "[    1.000000] PM: suspend entry (deep)");
	assert_int_equal(strlen(c.lines[1]), SPLITTER_MAX_FRAGMENT + strlen(SPLITTER_CUT_MARK));
	assert_string_equal(c.lines[1] + SPLITTER_MAX_FRAGMENT, SPLITTER_CUT_MARK);
	assert_string_equal(c.lines[2], "tail");
	splitter_free(&sp);
	collected_free(&c);
	free(line);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_terminators),
		cmocka_unit_test(test_first_byte_time_across_chunks),
		cmocka_unit_test(test_long_line_is_cut_and_marked),
		cmocka_unit_test(test_line_at_the_limit_is_whole),
		cmocka_unit_test(test_ansi_strip),
		cmocka_unit_test(test_cursor_query_line),
		cmocka_unit_test(test_kstamp),
		cmocka_unit_test(test_record_injected_in_agent_line),
		cmocka_unit_test(test_several_records_injected),
		cmocka_unit_test(test_record_injected_before_newline),
		cmocka_unit_test(test_payload_that_looks_like_a_record),
		cmocka_unit_test(test_record_after_prompt),
		cmocka_unit_test(test_quiet_console_settles_as_injection),
		cmocka_unit_test(test_tagged_console_stays_linear),
		cmocka_unit_test(test_long_fragment_is_cut_and_marked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
