/* `rig results`: options, exit codes, JSON that parses, text that stays aligned. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ftw.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/results.h"
#include "results/db.h"

#define HOSTILE "'); DROP TABLE runs;--"

struct fixture {
	char dir[64];
	char path[128];
	int64_t runs[3];
	char out[16384];
	char errout[4096];
};

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

static void add_cycle(struct results_db *db, int64_t run, int idx, const char *detail)
{
	struct results_cycle_info info = { .idx = idx, .step_kind = "suspend",
					   .knob_freeze_filesystems = RESULTS_KNOB_ON };
	struct rig_err err = { 0 };
	struct results_cycle *c = results_cycle_begin(run, &info, &err);

	assert_non_null(c);
	assert_int_equal(results_cycle_add_verdict(c, "no-loss", "nvme-ext4", RESULTS_VERDICT_PASS,
						   NULL, detail, &err), 0);
	assert_int_equal(results_cycle_add_measurement(c, "resume_ms", NULL, 250.5, "ms", &err), 0);
	results_cycle_end(c, RESULTS_CYCLE_PASS, 0, -1);
	assert_int_equal(results_cycle_commit(db, c, NULL, &err), 0);
	results_cycle_free(c);
}

/* Three runs: qemu, other, qemu; the last one has two cycles and a multi-line detail. */
static void populate(struct fixture *f)
{
	static const char *const boards[] = { "qemu", "other", "qemu" };
	struct rig_err err = { 0 };
	struct results_db *db = NULL;

	assert_int_equal(results_open(f->path, RESULTS_OPEN_CREATE, &db, &err), 0);
	for (int i = 0; i < 3; i++) {
		struct results_run_info info = { .board = boards[i], .plan = "smoke",
						 .kernel_version = "6.17.0", .started_at = 1e9 + i };

		assert_int_equal(results_run_begin(db, &info, &f->runs[i], &err), 0);
	}
	add_cycle(db, f->runs[2], 0, "fine");
	add_cycle(db, f->runs[2], 1, HOSTILE "\nsecond line\x1b[31m");
	assert_int_equal(results_run_end(db, f->runs[2], RESULTS_RUN_PASS, 0, &err), 0);
	results_close(db);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/test_results_cli.XXXXXX");
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

static void slurp(FILE *fp, char *buf, size_t len)
{
	size_t n;

	rewind(fp);
	n = fread(buf, 1, len - 1, fp);
	buf[n] = '\0';
	fclose(fp);
}

/* Run `rig results ARGS...` (NULL-terminated), capturing both streams; returns the exit code. */
static int run_cli(struct fixture *f, ...)
{
	char *argv[16] = { "results" };
	int argc = 1, rc;
	FILE *out = tmpfile(), *errout = tmpfile();
	va_list ap;

	assert_non_null(out);
	assert_non_null(errout);
	va_start(ap, f);
	while (argc < 15 && (argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	rc = cmd_results_to(argc, argv, out, errout);
	slurp(out, f->out, sizeof(f->out));
	slurp(errout, f->errout, sizeof(f->errout));
	return rc;
}

static void test_missing_db_is_usage_error(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(run_cli(f, "--db", f->path, NULL), RIG_EXIT_USAGE);
	assert_non_null(strstr(f->errout, f->path));
	assert_non_null(strstr(f->errout, "No such file"));
	assert_string_equal(f->out, "");
	assert_int_equal(access(f->path, F_OK), -1);  /* and it was not created */
}

static void test_help_and_bad_options(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(run_cli(f, "--help", NULL), RIG_EXIT_PASS);
	assert_non_null(strstr(f->out, "usage: rig results"));
	assert_int_equal(run_cli(f, "--bogus", NULL), RIG_EXIT_USAGE);
	assert_non_null(strstr(f->errout, "--bogus"));
	assert_int_equal(run_cli(f, "--run", "abc", NULL), RIG_EXIT_USAGE);
	assert_int_equal(run_cli(f, "--run", "-1", NULL), RIG_EXIT_USAGE);
	assert_int_equal(run_cli(f, "--last", "x", NULL), RIG_EXIT_USAGE);
	assert_int_equal(run_cli(f, "stray", NULL), RIG_EXIT_USAGE);
}

static void test_json_list_parses_and_filters(void **state)
{
	struct fixture *f = *state;
	json_t *doc, *runs;

	populate(f);
	assert_int_equal(run_cli(f, "--db", f->path, "--json", "--board", "qemu", NULL), 0);
	doc = json_loads(f->out, 0, NULL);
	assert_non_null(doc);
	runs = json_object_get(doc, "runs");
	assert_int_equal(json_array_size(runs), 2);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(runs, 0), "id")),
			 f->runs[0]);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(runs, 1), "n_cycles")), 2);
	json_decref(doc);

	assert_int_equal(run_cli(f, "--db", f->path, "--json", "--last", "1", NULL), 0);
	doc = json_loads(f->out, 0, NULL);
	assert_non_null(doc);
	runs = json_object_get(doc, "runs");
	assert_int_equal(json_array_size(runs), 1);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(runs, 0), "id")),
			 f->runs[2]);
	json_decref(doc);
}

static void test_json_run_detail_parses(void **state)
{
	struct fixture *f = *state;
	char id[32];
	json_t *doc, *cycles, *verdict;

	populate(f);
	snprintf(id, sizeof(id), "%lld", (long long)f->runs[2]);
	assert_int_equal(run_cli(f, "--db", f->path, "--json", "--run", id, NULL), 0);
	doc = json_loads(f->out, 0, NULL);
	assert_non_null(doc);
	cycles = json_object_get(json_object_get(doc, "run"), "cycles");
	assert_int_equal(json_array_size(cycles), 2);
	verdict = json_array_get(json_object_get(json_array_get(cycles, 1), "verdicts"), 0);
	assert_string_equal(json_string_value(json_object_get(verdict, "detail")),
			    HOSTILE "\nsecond line\x1b[31m");
	assert_true(json_real_value(json_object_get(json_array_get(json_object_get(
		json_array_get(cycles, 0), "measurements"), 0), "value")) == 250.5);
	json_decref(doc);
}

static void test_unknown_run_is_usage_error(void **state)
{
	struct fixture *f = *state;

	populate(f);
	assert_int_equal(run_cli(f, "--db", f->path, "--run", "999", NULL), RIG_EXIT_USAGE);
	assert_non_null(strstr(f->errout, "no run 999"));
}

/* Every line of a table starts its second column at the same offset. */
static void assert_column_aligned(const char *text, const char *header, const char *second)
{
	const char *line = strstr(text, header);
	long col = -1;

	assert_non_null(line);
	col = strstr(line, second) - line;
	for (; line && *line && *line != '\n' && strchr(line, '\n'); line = strchr(line, '\n') + 1) {
		const char *eol = strchr(line, '\n');

		if (eol == line)
			break;  /* blank line ends the table */
		assert_true(line[col - 1] == ' ' && line[col] != ' ');
	}
}

static void test_text_tables_are_aligned_and_clean(void **state)
{
	struct fixture *f = *state;
	char id[32];
	size_t lines = 0;

	populate(f);
	assert_int_equal(run_cli(f, "--db", f->path, NULL), 0);
	assert_non_null(strstr(f->out, "ID  BOARD"));
	assert_column_aligned(f->out, "ID  ", "BOARD");
	for (const char *p = f->out; (p = strchr(p, '\n')); p++)
		lines++;
	assert_int_equal(lines, 4);  /* header + 3 runs */

	snprintf(id, sizeof(id), "%lld", (long long)f->runs[2]);
	assert_int_equal(run_cli(f, "--db", f->path, "--run", id, NULL), 0);
	assert_non_null(strstr(f->out, "verdicts:"));
	assert_non_null(strstr(f->out, "resume_ms"));
	assert_null(strchr(f->out, '\x1b'));  /* control characters never reach the terminal */
	assert_non_null(strstr(f->out, HOSTILE "?second line?[31m"));
	assert_column_aligned(strstr(f->out, "verdicts:"), "CYCLE  ", "VERDICT");
}

/* One cycle's time budget: asleep, resume, thaw seconds (NAN: unknown). */
static void add_budget_cycle(struct results_db *db, int64_t run, int idx, double asleep,
			     double resume, double thaw)
{
	struct results_cycle_info info = { .idx = idx, .step_kind = "suspend" };
	struct rig_err err = { 0 };
	struct results_cycle *c = results_cycle_begin(run, &info, &err);

	assert_non_null(c);
	assert_int_equal(results_cycle_add_phase(c, "asleep", asleep, &err), 0);
	assert_int_equal(results_cycle_add_phase(c, "resume", resume, &err), 0);
	assert_int_equal(results_cycle_add_phase(c, "thaw", thaw, &err), 0);
	assert_int_equal(results_cycle_add_phase(c, "thaw", -1.0, &err), -1);   /* never negative */
	results_cycle_end(c, RESULTS_CYCLE_PASS, 0, -1);
	assert_int_equal(results_cycle_commit(db, c, NULL, &err), 0);
	results_cycle_free(c);
}

static json_t *budget_row(json_t *run, const char *phase)
{
	json_t *row;
	size_t i;

	json_array_foreach(json_object_get(run, "time_budget"), i, row)
		if (strcmp(json_string_value(json_object_get(row, "phase")), phase) == 0)
			return row;
	fail_msg("no time budget row for %s", phase);
	return NULL;
}

static double number(json_t *row, const char *key)
{
	assert_true(json_is_number(json_object_get(row, key)));
	return json_number_value(json_object_get(row, key));
}

/* The run's time budget: per phase total, mean, max and slowest cycle over the cycles that
 * showed the phase; an unknown phase is counted as unknown, not averaged as 0 (resume's mean is
 * 0.25, not 0.5/3), and shown as "?" per cycle. */
static void test_time_budget(void **state)
{
	struct fixture *f = *state;
	struct results_run_info info = { .board = "qemu", .plan = "nightly" };
	struct results_db *db = NULL;
	struct rig_err err = { 0 };
	int64_t run;
	char id[32];
	json_t *doc, *r;

	assert_int_equal(results_open(f->path, RESULTS_OPEN_CREATE, &db, &err), 0);
	assert_int_equal(results_run_begin(db, &info, &run, &err), 0);
	add_budget_cycle(db, run, 0, 5.0, 0.2, NAN);
	add_budget_cycle(db, run, 1, 6.5, NAN, 0.01);
	add_budget_cycle(db, run, 2, 5.5, 0.3, 0.02);
	results_close(db);
	snprintf(id, sizeof(id), "%lld", (long long)run);
	assert_int_equal(run_cli(f, "--db", f->path, "--json", "--run", id, NULL), 0);
	doc = json_loads(f->out, 0, NULL);
	assert_non_null(doc);
	r = json_object_get(doc, "run");
	assert_int_equal(json_array_size(json_object_get(r, "time_budget")), 3);
	assert_true(fabs(number(budget_row(r, "asleep"), "total_s") - 17.0) < 1e-9);
	assert_true(fabs(number(budget_row(r, "asleep"), "max_s") - 6.5) < 1e-9);
	assert_int_equal(number(budget_row(r, "asleep"), "slowest_cycle"), 1);
	assert_int_equal(number(budget_row(r, "resume"), "cycles_known"), 2);
	assert_int_equal(number(budget_row(r, "resume"), "cycles_unknown"), 1);
	assert_true(fabs(number(budget_row(r, "resume"), "mean_s") - 0.25) < 1e-9);
	assert_int_equal(number(budget_row(r, "resume"), "slowest_cycle"), 2);
	assert_int_equal(number(budget_row(r, "thaw"), "slowest_cycle"), 2);
	assert_true(json_is_null(json_object_get(json_array_get(json_object_get(json_array_get(
		json_object_get(r, "cycles"), 1), "phases"), 1), "seconds")));
	json_decref(doc);

	assert_int_equal(run_cli(f, "--db", f->path, "--run", id, NULL), 0);
	assert_non_null(strstr(f->out, "time budget (seconds per phase"));
	assert_non_null(strstr(f->out, "resume  2       1        0.500    0.250"));
	assert_non_null(strstr(f->out, "1      6.500   ?"));      /* cycle 1: asleep, resume unknown */
	assert_column_aligned(strstr(f->out, "time budget per cycle"), "CYCLE  ", "asleep");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_missing_db_is_usage_error, setup, teardown),
		cmocka_unit_test_setup_teardown(test_help_and_bad_options, setup, teardown),
		cmocka_unit_test_setup_teardown(test_json_list_parses_and_filters, setup, teardown),
		cmocka_unit_test_setup_teardown(test_json_run_detail_parses, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown_run_is_usage_error, setup, teardown),
		cmocka_unit_test_setup_teardown(test_time_budget, setup, teardown),
		cmocka_unit_test_setup_teardown(test_text_tables_are_aligned_and_clean, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
