/* Small parts of the engine: the workloads' acknowledgement table (engine/acks.h), the rig-dut
 * key=value line reader (util/kv.h) and the console tail a hang stores (engine/hang.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge/acks.h"
#include "engine/hang.h"
#include "engine/progress.h"
#include "util/kv.h"

/* ---- progress ---- */

static void test_progress_eta(void **state)
{
	char buf[96];

	(void)state;
	progress_eta(130, 0, 80, buf, sizeof(buf));
	assert_string_equal(buf, "elapsed 2m10s, time left known after the first cycle");
	/* issue 13: 18 cycles of the nightly in 19 minutes, 62 to go */
	progress_eta(19 * 60, 18, 80, buf, sizeof(buf));
	assert_string_equal(buf, "elapsed 19m00s, about 1h05m left");
	progress_eta(59.4, 1, 2, buf, sizeof(buf));
	assert_string_equal(buf, "elapsed 59s, about 59s left");
	progress_eta(3600, 4, 4, buf, sizeof(buf));
	assert_string_equal(buf, "elapsed 1h00m, about 0s left");
	progress_eta(-1, 5, 4, buf, sizeof(buf));      /* nonsense in: no nonsense out */
	assert_string_equal(buf, "elapsed 0s, time left known after the first cycle");
	progress_eta(7200, 1, 80, buf, 12);           /* cut, never overrun */
	assert_string_equal(buf, "elapsed 2h0");
}

/* ---- acks ---- */

static void test_acks_ignores_other_lines(void **state)
{
	struct acks a = { 0 };

	(void)state;
	assert_int_equal(acks_feed(&a, "[   12.000000] PM: suspend entry (deep)", 1.0, 12.0), 0);
	assert_int_equal(acks_feed(&a, "rig-ack: id=nvme-ext4-m", 1.0, -1), 0);        /* no seq */
	assert_int_equal(acks_feed(&a, "rig-ack: id=nvme-ext4-m seq=x", 1.0, -1), 0);  /* not a number */
	assert_int_equal(acks_feed(&a, "", 1.0, -1), 0);
	/* Torn on the serial wire: "seq=41" lost its tail and "seq=4" must not pass for it (the
	 * engine's old sscanf took it as an acknowledgement of 4). */
	assert_int_equal(acks_feed(&a, "[   12.345678] rig-ack: id=nvme-ext4-m seq=4", 1.0, 12.3), 0);
	assert_int_equal(acks_feed(&a, "rig-ack: id=nvme-ext4-m seq=41 boottime_ns=12x", 1.0, -1), 0);
	assert_int_equal(a.n, 0);
	assert_null(acks_find(&a, "nvme-ext4-m"));
}

static void test_acks_parses_kernel_record(void **state)
{
	struct acks a = { 0 };
	const struct ack *k;

	(void)state;
	assert_int_equal(acks_feed(&a, "[   12.345678] rig-ack: id=nvme-ext4-m seq=41 boottime_ns=123",
				   100.5, 12.345678), 1);
	assert_int_equal(acks_feed(&a, "rig-ack: id=sata-xfs-w seq=7 boottime_ns=9", 101.0, -1), 1);
	assert_int_equal(a.n, 2);
	k = acks_find(&a, "nvme-ext4-m");
	assert_non_null(k);
	assert_int_equal(k->seq, 41);
	assert_float_equal(k->host_ts, 100.5, 1e-9);
	assert_float_equal(k->kernel_ts, 12.345678, 1e-9);
	k = acks_find(&a, "sata-xfs-w");
	assert_non_null(k);
	assert_int_equal(k->seq, 7);
	assert_float_equal(k->kernel_ts, -1, 1e-9);
	assert_null(acks_find(&a, "nvme-ext4"));   /* ids match whole, not by prefix */
}

static void test_acks_never_go_backwards(void **state)
{
	struct acks a = { 0 };
	const struct ack *k;

	(void)state;
	assert_int_equal(acks_feed(&a, "rig-ack: id=w seq=10 boottime_ns=1", 1.0, 1.0), 1);
	assert_int_equal(acks_feed(&a, "rig-ack: id=w seq=12 boottime_ns=2", 2.0, 2.0), 1);
	/* A replayed older line is still an acknowledgement, but changes nothing. */
	assert_int_equal(acks_feed(&a, "rig-ack: id=w seq=11 boottime_ns=3", 3.0, 3.0), 1);
	k = acks_find(&a, "w");
	assert_non_null(k);
	assert_int_equal(k->seq, 12);
	assert_float_equal(k->host_ts, 2.0, 1e-9);
	assert_int_equal(a.n, 1);
	assert_int_equal(acks_feed(&a, "rig-ack: id=w seq=13 boottime_ns=4", 4.0, 4.0), 1);
	assert_int_equal(k->seq, 13);
	assert_float_equal(k->host_ts, 4.0, 1e-9);
}

static void test_acks_table_full(void **state)
{
	struct acks a = { 0 };
	char line[96];

	(void)state;
	for (int i = 0; i < ACKS_MAX; i++) {
		snprintf(line, sizeof(line), "rig-ack: id=writer%d seq=%d boottime_ns=0", i, i + 1);
		assert_int_equal(acks_feed(&a, line, 1.0, -1), 1);
	}
	assert_int_equal(a.n, ACKS_MAX);
	/* One writer too many is dropped; the ones already known keep updating. */
	assert_int_equal(acks_feed(&a, "rig-ack: id=one-too-many seq=1 boottime_ns=0", 2.0, -1), 0);
	assert_int_equal(a.n, ACKS_MAX);
	assert_null(acks_find(&a, "one-too-many"));
	assert_int_equal(acks_feed(&a, "rig-ack: id=writer0 seq=99 boottime_ns=0", 2.0, -1), 1);
	assert_int_equal(acks_find(&a, "writer0")->seq, 99);
	acks_reset(&a);
	assert_int_equal(a.n, 0);
	assert_null(acks_find(&a, "writer0"));
}

static void test_acks_overlong_id_is_not_truncated(void **state)
{
	struct acks a = { 0 };
	char line[256], id[80];

	(void)state;
	memset(id, 'a', sizeof(id) - 1);
	id[sizeof(id) - 1] = '\0';
	snprintf(line, sizeof(line), "rig-ack: id=%s seq=5 boottime_ns=0", id);
	/* Cut to 63 characters it would be a different writer's id. */
	assert_int_equal(acks_feed(&a, line, 1.0, -1), 0);
	assert_int_equal(a.n, 0);
}

/* ---- kv ---- */

static const char suspend_line[] =
	"result=0 successes=1 slept_s=5 last_failed_step= longest_ms=2010.5 rc=-16";

static void test_kv_get_values(void **state)
{
	char buf[64];

	(void)state;
	assert_true(kv_get(suspend_line, "result", buf, sizeof(buf)));
	assert_string_equal(buf, "0");
	assert_true(kv_get(suspend_line, "slept_s", buf, sizeof(buf)));
	assert_string_equal(buf, "5");
	assert_true(kv_get(suspend_line, "rc", buf, sizeof(buf)));   /* the last key */
	assert_string_equal(buf, "-16");
	assert_true(kv_get(suspend_line, "last_failed_step", buf, sizeof(buf)));   /* empty */
	assert_string_equal(buf, "");
	assert_true(kv_get("a=1\r\n", "a", buf, sizeof(buf)));
	assert_string_equal(buf, "1");
}

static void test_kv_quoted_values(void **state)
{
	char buf[64];
	const char *line = "warning=kprobe-failed event=\"p:rig/fs_freeze filesystems_freeze\" n=2";

	(void)state;
	assert_true(kv_get(line, "event", buf, sizeof(buf)));
	assert_string_equal(buf, "p:rig/fs_freeze filesystems_freeze");
	assert_int_equal(kv_long(line, "n", -1), 2);
	assert_true(kv_get("why=\"never closed", "why", buf, sizeof(buf)));
	assert_string_equal(buf, "never closed");
	assert_true(kv_get("empty=\"\" x=1", "empty", buf, sizeof(buf)));
	assert_string_equal(buf, "");
}

static void test_kv_key_at_word_start_only(void **state)
{
	char buf[64];

	(void)state;
	/* "result" inside "subresult" or "results" is not the key. */
	assert_int_equal(kv_long("subresult=3 results=9 result=2", "result", -1), 2);
	assert_false(kv_get("subresult=3 results=9", "result", buf, sizeof(buf)));
	assert_int_equal(kv_long("subresult=3", "result", -7), -7);
	/* A key without '=' is not a key either. */
	assert_false(kv_get("result 0", "result", buf, sizeof(buf)));
	assert_int_equal(kv_long("fs=nvme-ext4 fsck_rc=0", "fs", -1), -1);   /* not a number */
	assert_true(kv_get("fs=nvme-ext4 fsck_rc=0", "fs", buf, sizeof(buf)));
	assert_string_equal(buf, "nvme-ext4");
}

static void test_kv_words_and_quotes(void **state)
{
	(void)state;
	/* Values end at a tab, so keys start after one too (the agent passes TABs through). */
	assert_int_equal(kv_long("a=1\tb=2", "b", -1), 2);
	/* A key=value inside a quoted value belongs to that value, not to the line. */
	assert_int_equal(kv_long("note=\"a result=7\" result=1", "result", -1), 1);
	assert_int_equal(kv_long("note=\"result=7\"", "result", -1), -1);
}

static void test_kv_missing_and_bad_numbers(void **state)
{
	char buf[8] = "unset";

	(void)state;
	assert_false(kv_get(suspend_line, "missing", buf, sizeof(buf)));
	assert_false(kv_get("", "result", buf, sizeof(buf)));
	assert_false(kv_get(suspend_line, "result", buf, 0));
	assert_int_equal(kv_long(suspend_line, "missing", 42), 42);
	assert_int_equal(kv_long(suspend_line, "last_failed_step", 42), 42);    /* empty */
	assert_int_equal(kv_long("n=12ms", "n", 42), 42);                      /* trailing junk */
	assert_int_equal(kv_long("n=abc", "n", 42), 42);
	assert_int_equal(kv_long(suspend_line, "rc", 0), -16);
	assert_float_equal(kv_double(suspend_line, "longest_ms", -1), 2010.5, 1e-9);
	assert_float_equal(kv_double(suspend_line, "successes", -1), 1.0, 1e-9);
	assert_float_equal(kv_double(suspend_line, "missing", -1.5), -1.5, 1e-9);
	assert_float_equal(kv_double("v=1.5x", "v", -1.5), -1.5, 1e-9);
	assert_float_equal(kv_double("v=", "v", -2.5), -2.5, 1e-9);
}

static void test_kv_truncates_to_buffer(void **state)
{
	char buf[5];

	(void)state;
	assert_true(kv_get("boot_id=0123456789abcdef x=1", "boot_id", buf, sizeof(buf)));
	assert_string_equal(buf, "0123");
}

/* ---- file_tail ---- */

struct tmpfile {
	char path[64];
};

static void write_file(struct tmpfile *t, const char *content, size_t len)
{
	int fd;

	snprintf(t->path, sizeof(t->path), "/tmp/test_engine_parts.XXXXXX");
	fd = mkstemp(t->path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, content, len), (ssize_t)len);
	assert_int_equal(close(fd), 0);
}

static void assert_tail(const char *path, unsigned n, const char *expected)
{
	char *tail = file_tail(path, n);

	assert_non_null(tail);
	assert_string_equal(tail, expected);
	free(tail);
}

static void test_tail_last_lines(void **state)
{
	struct tmpfile t;
	const char text[] = "l1\nl2\nl3\nl4\nl5\n";

	(void)state;
	write_file(&t, text, strlen(text));
	assert_tail(t.path, 2, "l4\nl5\n");
	assert_tail(t.path, 1, "l5\n");
	assert_tail(t.path, 5, text);
	unlink(t.path);
}

static void test_tail_file_shorter_than_n(void **state)
{
	struct tmpfile t;
	const char text[] = "only\ntwo\n";

	(void)state;
	write_file(&t, text, strlen(text));
	assert_tail(t.path, 40, text);
	unlink(t.path);
}

static void test_tail_unterminated_last_line(void **state)
{
	struct tmpfile t;
	const char text[] = "a\nb\nc";

	(void)state;
	write_file(&t, text, strlen(text));
	assert_tail(t.path, 2, "b\nc");
	assert_tail(t.path, 1, "c");
	unlink(t.path);
}

static void test_tail_big_file(void **state)
{
	struct tmpfile t;
	size_t size = 0, cap = 64 * 1024;
	char *text = malloc(cap);
	char expected[64];

	(void)state;
	assert_non_null(text);
	for (int i = 0; i < 5000; i++)   /* 50 kB: more than the tail ever reads */
		size += (size_t)snprintf(text + size, cap - size, "line %04d\n", i);
	write_file(&t, text, size);
	snprintf(expected, sizeof(expected), "line %04d\nline %04d\nline %04d\n", 4997, 4998, 4999);
	assert_tail(t.path, 3, expected);
	free(text);
	unlink(t.path);
}

static void test_tail_missing_or_empty_file(void **state)
{
	struct tmpfile t;

	(void)state;
	assert_tail("/nonexistent/console.log", 40, "");
	write_file(&t, "", 0);
	assert_tail(t.path, 40, "");
	unlink(t.path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_progress_eta),
		cmocka_unit_test(test_acks_ignores_other_lines),
		cmocka_unit_test(test_acks_parses_kernel_record),
		cmocka_unit_test(test_acks_never_go_backwards),
		cmocka_unit_test(test_acks_table_full),
		cmocka_unit_test(test_acks_overlong_id_is_not_truncated),
		cmocka_unit_test(test_kv_get_values),
		cmocka_unit_test(test_kv_quoted_values),
		cmocka_unit_test(test_kv_key_at_word_start_only),
		cmocka_unit_test(test_kv_words_and_quotes),
		cmocka_unit_test(test_kv_missing_and_bad_numbers),
		cmocka_unit_test(test_kv_truncates_to_buffer),
		cmocka_unit_test(test_tail_last_lines),
		cmocka_unit_test(test_tail_file_shorter_than_n),
		cmocka_unit_test(test_tail_unterminated_last_line),
		cmocka_unit_test(test_tail_big_file),
		cmocka_unit_test(test_tail_missing_or_empty_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
