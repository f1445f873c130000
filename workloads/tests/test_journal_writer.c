/* The journal writer driven in-process: what it writes, and that it acknowledges exactly what a
 * successful sync covered and nothing else. */
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

#include "lib/ack.h"
#include "lib/journal_verify.h"
#include "lib/journal_writer.h"
#include "lib/journal_writer_cli.h"
#include "lib/telemetry.h"

struct fixture {
	char dir[256];
	char journal[300];
	char acks[300];
	char telemetry[300];
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	const char *tmp = getenv("TMPDIR");

	if (fx == NULL)
		return -1;
	snprintf(fx->dir, sizeof(fx->dir), "%s/jw-test-XXXXXX", tmp ? tmp : "/tmp");
	if (mkdtemp(fx->dir) == NULL) {
		free(fx);
		return -1;
	}
	snprintf(fx->journal, sizeof(fx->journal), "%s/journal", fx->dir);
	snprintf(fx->acks, sizeof(fx->acks), "%s/acks", fx->dir);
	snprintf(fx->telemetry, sizeof(fx->telemetry), "%s/writer.tel", fx->dir);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	unlink(fx->journal);
	unlink(fx->acks);
	unlink(fx->telemetry);
	rmdir(fx->dir);
	free(fx);
	return 0;
}

static struct jw_config test_config(const struct fixture *fx, enum jw_mode mode)
{
	struct jw_config cfg;

	jw_config_defaults(&cfg);
	cfg.path = fx->journal;
	cfg.id = "unit";
	cfg.mode = mode;
	cfg.ack_path = fx->acks;
	cfg.telemetry_path = fx->telemetry;
	cfg.interval_ms = 0;
	return cfg;
}

static uint64_t last_ack(const struct fixture *fx)
{
	uint64_t seq;
	bool found;

	assert_int_equal(ack_log_last_seq(fx->acks, "unit", &seq, &found, NULL), 0);
	return found ? seq : 0;
}

static unsigned ack_lines(const struct fixture *fx)
{
	FILE *f = fopen(fx->acks, "r");
	unsigned lines = 0;
	int c;

	assert_non_null(f);
	while ((c = fgetc(f)) != EOF)
		lines += c == '\n';
	assert_int_equal(fclose(f), 0);
	return lines;
}

static void append_n(struct journal_writer *w, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(jw_append_next(w), 0);
}

static void run_loop_then_verify(const struct fixture *fx, enum jw_mode mode)
{
	struct jw_config cfg = test_config(fx, mode);
	struct journal_writer w;
	struct jv_result res;
	struct jv_verdict verdict;

	cfg.max_records = 300;
	cfg.sync_ms = 1;
	assert_int_equal(jw_open(&w, &cfg, NULL), 0);
	assert_int_equal(jw_run(&w, NULL), 0);
	assert_int_equal(w.appended_seq, cfg.max_records);
	assert_int_equal(w.acked_seq, w.appended_seq);
	assert_int_equal(w.errors, 0);
	jw_close(&w);

	assert_int_equal(last_ack(fx), cfg.max_records);
	assert_int_equal(jv_scan_path(fx->journal, "unit", &res, NULL), 0);
	jv_judge(&res, true, last_ack(fx), &verdict);
	assert_true(jv_passed(&verdict));
	assert_int_equal(res.valid_prefix, cfg.max_records);
	assert_int_equal(res.records, cfg.max_records);
	assert_int_equal(res.torn + res.corrupt + res.holes, 0);
}

static void test_mmap_loop_passes_verification(void **state)
{
	run_loop_then_verify(*state, JW_MODE_MMAP);
}

static void test_write_loop_passes_verification(void **state)
{
	run_loop_then_verify(*state, JW_MODE_WRITE);
}

static void test_mmap_file_grows_in_chunks(void **state)
{
	struct fixture *fx = *state;
	struct jw_config cfg = test_config(fx, JW_MODE_MMAP);
	struct journal_writer w;
	unsigned per_chunk;

	cfg.chunk_bytes = (uint64_t)sysconf(_SC_PAGESIZE);
	per_chunk = (unsigned)(cfg.chunk_bytes / JR_SIZE);
	assert_int_equal(jw_open(&w, &cfg, NULL), 0);
	append_n(&w, per_chunk + 1); /* one record past the first chunk forces a remap */
	assert_int_equal(w.backend.allocated, 2 * cfg.chunk_bytes);
	assert_int_equal(jw_sync(&w, true), 0);
	jw_close(&w);
	assert_int_equal(last_ack(fx), per_chunk + 1);
}

static void test_unsynced_records_are_never_acknowledged(void **state)
{
	struct fixture *fx = *state;
	struct jw_config cfg = test_config(fx, JW_MODE_MMAP);
	struct journal_writer w;

	assert_int_equal(jw_open(&w, &cfg, NULL), 0);
	append_n(&w, 10);
	assert_int_equal(last_ack(fx), 0);
	assert_int_equal(jw_sync(&w, false), 0);
	assert_int_equal(last_ack(fx), 10);
	append_n(&w, 5);
	assert_int_equal(last_ack(fx), 10);
	jw_close(&w);
}

static void test_nothing_new_means_no_new_acknowledgement(void **state)
{
	struct fixture *fx = *state;
	struct jw_config cfg = test_config(fx, JW_MODE_WRITE);
	struct journal_writer w;

	assert_int_equal(jw_open(&w, &cfg, NULL), 0);
	append_n(&w, 4);
	assert_int_equal(jw_sync(&w, true), 0);
	assert_int_equal(ack_lines(fx), 1);
	assert_int_equal(jw_sync(&w, true), 0);
	assert_int_equal(jw_sync(&w, false), 0);
	assert_int_equal(ack_lines(fx), 1);
	jw_close(&w);
}

static void test_ack_every_counts_syncs(void **state)
{
	struct fixture *fx = *state;
	struct jw_config cfg = test_config(fx, JW_MODE_WRITE);
	struct journal_writer w;

	cfg.ack_every = 2;
	assert_int_equal(jw_open(&w, &cfg, NULL), 0);
	append_n(&w, 1);
	assert_int_equal(jw_sync(&w, false), 0);
	assert_int_equal(last_ack(fx), 0);
	append_n(&w, 1);
	assert_int_equal(jw_sync(&w, false), 0);
	assert_int_equal(last_ack(fx), 2);
	assert_int_equal(w.durable_seq, 2);
	jw_close(&w);
}

/* A backend whose sync fails, to check the writer's reaction to msync/fdatasync errors. */
static int failing_sync(struct journal_backend *b, uint64_t seq)
{
	journal_backend_op_begin(b, TEL_OP_MSYNC, seq);
	journal_backend_op_end(b, EIO);
	return -EIO;
}

static void test_no_acknowledgement_after_a_failed_sync(void **state)
{
	struct fixture *fx = *state;
	struct jw_config cfg = test_config(fx, JW_MODE_MMAP);
	struct journal_writer w;
	struct journal_backend_ops broken = journal_backend_mmap_ops;
	struct tel_snapshot snap;

	broken.sync = failing_sync;
	assert_int_equal(jw_open(&w, &cfg, NULL), 0);
	append_n(&w, 3);
	assert_int_equal(jw_sync(&w, false), 0);
	append_n(&w, 3);
	w.backend.ops = &broken;
	assert_int_equal(jw_sync(&w, false), -EIO);
	w.backend.ops = &journal_backend_mmap_ops;
	append_n(&w, 3);
	assert_int_equal(jw_sync(&w, true), 0);
	assert_int_equal(last_ack(fx), 3);
	assert_int_equal(w.errors, 1);
	assert_int_equal(w.last_errno, EIO);
	jw_close(&w);

	assert_int_equal(tel_snapshot_load(fx->telemetry, &snap, NULL), 0);
	assert_int_equal(snap.hdr.error_total, 1);
	tel_snapshot_free(&snap);
}

static void test_telemetry_times_every_operation(void **state)
{
	struct fixture *fx = *state;
	struct jw_config cfg = test_config(fx, JW_MODE_WRITE);
	struct journal_writer w;
	struct tel_snapshot snap;
	unsigned records = 20;

	assert_int_equal(jw_open(&w, &cfg, NULL), 0);
	append_n(&w, records);
	assert_int_equal(jw_sync(&w, true), 0);
	jw_close(&w);

	assert_int_equal(tel_snapshot_load(fx->telemetry, &snap, NULL), 0);
	assert_int_equal(snap.hdr.total_ops, records + 1); /* one pwrite each, one fdatasync */
	assert_int_equal(snap.count, records + 1);
	for (size_t i = 0; i < snap.count; i++) {
		assert_true(snap.entries[i].end_ns >= snap.entries[i].start_ns);
		assert_int_equal(snap.entries[i].kind, i < records ? TEL_OP_WRITE : TEL_OP_FDATASYNC);
	}
	assert_int_equal(snap.hdr.inflight_start_ns, 0);
	tel_snapshot_free(&snap);
}

static void test_open_refuses_bad_id(void **state)
{
	struct fixture *fx = *state;
	struct jw_config cfg = test_config(fx, JW_MODE_MMAP);
	struct journal_writer w;
	struct wl_err err = {{0}};

	cfg.id = "two words";
	assert_int_equal(jw_open(&w, &cfg, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "id"));
	jw_close(&w);
}

static void test_cli_parses_options(void **state)
{
	char *argv[] = {"journal-writer", "--file", "/x/j", "--id", "w7", "--mode", "write",
			"--interval-ms", "5", "--sync-ms", "100", "--ack-every", "3", "--ack-ms", "900",
			"--telemetry", "/run/rig/w7.tel", "--duration", "60", NULL};
	struct jw_config cfg;

	(void)state;
	assert_int_equal(jw_cli_parse(19, argv, &cfg, NULL), JW_CLI_RUN);
	assert_string_equal(cfg.path, "/x/j");
	assert_string_equal(cfg.id, "w7");
	assert_int_equal(cfg.mode, JW_MODE_WRITE);
	assert_int_equal(cfg.interval_ms, 5);
	assert_int_equal(cfg.sync_ms, 100);
	assert_int_equal(cfg.ack_every, 3);
	assert_int_equal(cfg.ack_ms, 900);
	assert_string_equal(cfg.telemetry_path, "/run/rig/w7.tel");
	assert_null(cfg.ack_path);
	assert_int_equal(cfg.duration_s, 60);
}

static void test_cli_rejects_bad_input(void **state)
{
	char *bad_mode[] = {"jw", "--file", "f", "--id", "w", "--mode", "splice", NULL};
	char *no_id[] = {"jw", "--file", "f", NULL};
	char *bad_number[] = {"jw", "--file", "f", "--id", "w", "--sync-ms", "-1", NULL};
	char *help[] = {"jw", "--help", NULL};
	struct jw_config cfg;
	struct wl_err err = {{0}};

	(void)state;
	assert_int_equal(jw_cli_parse(7, bad_mode, &cfg, &err), JW_CLI_ERROR);
	assert_non_null(strstr(err.msg, "mode"));
	assert_int_equal(jw_cli_parse(3, no_id, &cfg, &err), JW_CLI_ERROR);
	assert_int_equal(jw_cli_parse(7, bad_number, &cfg, &err), JW_CLI_ERROR);
	assert_int_equal(jw_cli_parse(2, help, &cfg, &err), JW_CLI_HELP);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_mmap_loop_passes_verification, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_loop_passes_verification, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mmap_file_grows_in_chunks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unsynced_records_are_never_acknowledged, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nothing_new_means_no_new_acknowledgement, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ack_every_counts_syncs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_acknowledgement_after_a_failed_sync, setup, teardown),
		cmocka_unit_test_setup_teardown(test_telemetry_times_every_operation, setup, teardown),
		cmocka_unit_test_setup_teardown(test_open_refuses_bad_id, setup, teardown),
		cmocka_unit_test(test_cli_parses_options),
		cmocka_unit_test(test_cli_rejects_bad_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
