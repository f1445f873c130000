/* Known issues: the shipped file loads and recognises the real kernel lines it was written for,
 * bad files fail naming file:line (fixtures in rig/tests/data/known mark it with "# <- error"),
 * versions compare numerically, each matching condition narrows, and a fresh failure among known
 * ones keeps a verdict failing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/unit/support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/known.h"
#include "judge/known.h"

#define REAL_FILE "known-issues/known-issues.yaml"
#define MATCH_FILE "rig/tests/data/known/match.yaml"

/* Lines as the kernels print them: 7.3's __warn() (kernel/panic.c), the pre-7.x shape, and the
 * freezer's failure report followed by its task dump (kernel/power/process.c, sched/core.c). */
static const char warn_7x[] =
	"WARNING: kernel/freezer.c:139 at __set_task_frozen+0x8b/0x90, CPU#1: sh/1";
static const char warn_6x[] =
	"WARNING: CPU: 0 PID: 1 at kernel/freezer.c:139 __set_task_frozen+0x8b/0x90";
static const char warn_terse[] = "WARNING: at __set_task_frozen+0x8b/0x90, CPU#0: dd/312";
static const char warn_other[] =
	"WARNING: fs/ext4/inode.c:3950 at ext4_page_mkwrite+0x6c5/0x730, CPU#0: fio/231";
static const char freeze_failed[] =
	"Freezing remaining freezable tasks failed after 20.006 seconds "
	"(1 tasks refusing to freeze, wq_busy=0):";
static const char freeze_failed_two[] =
	"Freezing remaining freezable tasks failed after 20.006 seconds "
	"(2 tasks refusing to freeze, wq_busy=0):";
static const char task_lazyinit[] =
	"task:ext4lazyinit    state:D stack:0     pid:97    tgid:97    ppid:2      "
	"task_flags:0x208040 flags:0x00004000";
static const char task_kworker[] =
	"task:kworker/u8:3    state:D stack:0     pid:87    tgid:87    ppid:2      "
	"task_flags:0x4208060 flags:0x00004000";

static unsigned marked_line(const char *path)
{
	FILE *fp = fopen(path, "r");
	char line[512];
	unsigned n = 0;

	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp)) {
		n++;
		if (strstr(line, "# <- error")) {
			fclose(fp);
			return n;
		}
	}
	fclose(fp);
	fail_msg("%s has no \"# <- error\" marker", path);
	return 0;
}

static struct known_issues *load_ok(const char *relative)
{
	char *path = top_path(relative);
	struct rig_err err = { 0 };
	struct known_issues *k = NULL;

	if (known_load(path, &k, &err) != 0)
		fail_msg("%s: %s", path, err.msg);
	assert_non_null(k);
	assert_string_equal(k->path, path);
	free(path);
	return k;
}

static int setup_real(void **state)
{
	*state = load_ok(REAL_FILE);
	return 0;
}

static int setup_match(void **state)
{
	*state = load_ok(MATCH_FILE);
	return 0;
}

static int teardown(void **state)
{
	known_free(*state);
	return 0;
}

static const char *match_id(const struct known_issues *k, const char *verdict, const char *fs,
			    const char *kernel, int knob, const char *message)
{
	const struct known_issue *issue = known_match(k, verdict, fs, kernel, knob, message);

	return issue ? issue->id : NULL;
}

/* ---- the shipped file ------------------------------------------------------------------- */

static void test_real_file_entries(void **state)
{
	const struct known_issues *k = *state;
	const struct known_issue *lockdep = known_find(k, "lockdep-freezer-set-task-frozen");
	const struct known_issue *lazyinit = known_find(k, "ext4lazyinit-freeze-timeout");

	assert_non_null(lockdep);
	assert_true(lockdep->has_re);
	assert_string_equal(lockdep->verdict, "clean-resume");
	assert_int_equal(lockdep->knob, 1);
	assert_true(lockdep->intermittent);
	assert_string_equal(lockdep->min_kernel, "6.16");
	assert_null(lockdep->max_kernel);
	assert_non_null(lockdep->note);
	assert_non_null(lazyinit);
	assert_int_equal(lazyinit->knob, 0);
	assert_true(lazyinit->intermittent);
	for (size_t i = 0; i < k->n; i++)
		assert_true(k->items[i].pattern || k->items[i].verdict);
}

static void test_real_lockdep_warning_in_every_shape(void **state)
{
	const struct known_issues *k = *state;
	const char *const lines[] = { warn_7x, warn_6x, warn_terse };

	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		assert_string_equal(match_id(k, "clean-resume", NULL, "7.3.4-rig", 1, lines[i]),
				    "lockdep-freezer-set-task-frozen");
		assert_null(match_id(k, "clean-resume", NULL, "7.3.4-rig", 0, lines[i]));
		assert_null(match_id(k, "clean-resume", NULL, "6.12.58", 1, lines[i]));
		assert_null(match_id(k, "no-loss", NULL, "7.3.4-rig", 1, lines[i]));
	}
	assert_null(match_id(k, "clean-resume", NULL, "7.3.4-rig", 1, warn_other));
}

static void test_real_ext4lazyinit_needs_every_line(void **state)
{
	const struct known_issues *k = *state;
	const char *const known[] = { freeze_failed, task_lazyinit };
	const char *const with_fresh[] = { freeze_failed, task_lazyinit, task_kworker };
	const char *const two_stuck[] = { freeze_failed_two, task_lazyinit };
	const char *id = NULL;

	assert_int_equal(known_classify(k, "clean-resume", NULL, "7.3.4", 0, known, 2, &id), 1);
	assert_string_equal(id, "ext4lazyinit-freeze-timeout");
	assert_int_equal(known_classify(k, "clean-resume", NULL, "7.3.4", 1, known, 2, &id), 0);
	assert_int_equal(known_classify(k, "clean-resume", NULL, "7.3.4", 0, with_fresh, 3, &id), 0);
	assert_int_equal(known_classify(k, "clean-resume", NULL, "7.3.4", 0, two_stuck, 2, &id), 0);
}

/* A suspend the freezer aborted at knob 0 is known as such; which task refused stays the
 * clean-resume verdict's to explain. The suspend line of the saturated soak's cycle 10. */
static void test_real_freezer_abort_at_knob_0(void **state)
{
	const struct known_issues *k = *state;
	const char *aborted = "result=1 successes=0 slept_s=29 presync_ms=0 last_failed_step=freeze "
			      "(the board never reported sleeping)";
	const char *other_step = "result=1 successes=0 slept_s=1 presync_ms=0 "
				 "last_failed_step=suspend_noirq";

	assert_string_equal(match_id(k, "suspend", NULL, "7.3.4-rig", 0, aborted),
			    "freezer-abort-knob0");
	assert_null(match_id(k, "suspend", NULL, "7.3.4-rig", 1, aborted));     /* knob 1: a bug */
	assert_null(match_id(k, "suspend", NULL, "6.12.58", 0, aborted));       /* no knob there */
	assert_null(match_id(k, "suspend", NULL, "7.3.4-rig", 0, other_step));
	assert_null(match_id(k, "clean-resume", NULL, "7.3.4-rig", 0, aborted));
}

/* ---- bad files -------------------------------------------------------------------------- */

struct bad_case {
	const char *file;     /* under rig/tests/data/known */
	const char *expect;   /* part of the message after "file:line: " */
};

static const struct bad_case bad_cases[] = {
	{ "unknown-key.yaml", "issues[0].severity: unknown key" },
	{ "bad-regex.yaml", "issues[1].pattern: not a valid POSIX extended regular expression" },
	{ "duplicate-id.yaml", "issues[1].id: duplicate id \"same\" (first given on line 2)" },
	{ "missing-title.yaml", "issues[1].title: required key missing" },
	{ "missing-id.yaml", "issues[0].id: required key missing" },
	{ "no-pattern-no-verdict.yaml", "issues[0]: needs a pattern or a verdict" },
	{ "bad-id.yaml", "issues[0].id: must be lower-case letters, digits and '-' only" },
	{ "bad-version.yaml", "issues[0].kernels.max: expected a kernel version" },
	{ "min-above-max.yaml", "issues[0].kernels: min 7.3 is above max 6.16" },
	{ "bad-knob.yaml", "issues[0].knob: expected 0 or 1, got \"2\"" },
	{ "bad-intermittent.yaml", "issues[0].intermittent: expected a boolean" },
	{ "not-a-list.yaml", "issues: expected a list of mappings" },
};

static void test_bad_files_name_file_and_line(void **state)
{
	static struct known_issues stale;

	(void)state;
	for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		char relative[128], *path, prefix[512];
		struct rig_err err = { 0 };
		struct known_issues *k = &stale;  /* a failed load must reset it to NULL */

		snprintf(relative, sizeof(relative), "rig/tests/data/known/%s", bad_cases[i].file);
		path = top_path(relative);
		snprintf(prefix, sizeof(prefix), "%s:%u: ", path, marked_line(path));
		if (known_load(path, &k, &err) != -1)
			fail_msg("%s loaded", bad_cases[i].file);
		assert_null(k);
		assert_int_equal(err.class, RIG_EXIT_USAGE);
		if (strncmp(err.msg, prefix, strlen(prefix)) != 0 ||
		    !strstr(err.msg, bad_cases[i].expect))
			fail_msg("%s: got \"%s\", want \"%s...%s\"", bad_cases[i].file, err.msg,
				 prefix, bad_cases[i].expect);
		free(path);
	}
}

static void test_missing_file_is_usage_error(void **state)
{
	char *path = top_path("rig/tests/data/known/absent.yaml");
	struct rig_err err = { 0 };
	struct known_issues *k = NULL;

	(void)state;
	assert_int_equal(known_load(path, &k, &err), -1);
	free(path);
	assert_null(k);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	assert_non_null(strstr(err.msg, "absent.yaml: cannot open"));
}

/* ---- versions --------------------------------------------------------------------------- */

static void test_version_cmp_table(void **state)
{
	static const struct {
		const char *a, *b;
		int sign;
	} cases[] = {
		{ "7.3.4-rig", "7.3.10", -1 }, { "6.16", "6.18", -1 }, { "6.16", "6.16.0", 0 },
		{ "6.16.0-rc1", "6.16", 0 },   { "7.3.99", "7.3.4", 1 }, { "10.0", "9.99", 1 },
		{ "7", "7.0.0", 0 },           { "7.3", "7.3.1", -1 },   { "6.9", "6.10", -1 },
		{ "7.3.4.1", "7.3.4", 1 },     { "abc", "0", 0 },        { "", "0.1", -1 },
		{ "7.3.", "7.3", 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int forward = known_version_cmp(cases[i].a, cases[i].b);
		int backward = known_version_cmp(cases[i].b, cases[i].a);

		if ((forward > 0) - (forward < 0) != cases[i].sign || backward != -forward)
			fail_msg("cmp(\"%s\", \"%s\") = %d, reverse %d, want sign %d", cases[i].a,
				 cases[i].b, forward, backward, cases[i].sign);
	}
}

/* ---- matching --------------------------------------------------------------------------- */

static void test_match_pattern_verdict_and_filesystem(void **state)
{
	const struct known_issues *k = *state;

	assert_string_equal(match_id(k, "no-loss", "nvme-ext4", NULL, -1, "lost 4096 bytes"),
			    "fs-loss");
	assert_null(match_id(k, "no-loss", "nvme-btrfs", NULL, -1, "lost 4096 bytes"));
	assert_null(match_id(k, "no-loss", NULL, NULL, -1, "lost 4096 bytes"));
	assert_null(match_id(k, "owner", "nvme-ext4", NULL, -1, "lost 4096 bytes"));
	assert_null(match_id(k, "no-loss", "nvme-ext4", NULL, -1, "lost some bytes"));
	assert_null(match_id(k, "no-loss", "nvme-ext4", NULL, -1, NULL));
}

static void test_match_kernel_range_edges(void **state)
{
	const struct known_issues *k = *state;
	static const struct {
		const char *kernel;
		bool inside;
	} cases[] = {
		{ "6.15.11", false }, { "6.16", true },   { "6.16.0-rc1", true }, { "7.3.4-rig", true },
		{ "7.3.99", true },   { "7.3.100", false }, { "7.4", false },     { "", false },
		{ "unknown", false },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *id = match_id(k, "clean-resume", NULL, cases[i].kernel, -1, "RANGED");

		if ((id != NULL) != cases[i].inside)
			fail_msg("kernel \"%s\": matched %s", cases[i].kernel, id ? id : "nothing");
	}
	assert_null(match_id(k, "clean-resume", NULL, NULL, -1, "RANGED"));
	assert_null(match_id(k, "clean-resume", NULL, NULL, -1, "MINONLY"));
	assert_null(match_id(k, "clean-resume", NULL, "6.12.58", -1, "MINONLY"));
	assert_string_equal(match_id(k, "clean-resume", NULL, "12.0", -1, "MINONLY"), "min-only");
	/* Below an upper bound, but an unknown version is not "0": it never fits a bound. */
	assert_string_equal(match_id(k, "clean-resume", NULL, "6.15", -1, "MAXONLY"), "max-only");
	assert_null(match_id(k, "clean-resume", NULL, "6.16", -1, "MAXONLY"));
	assert_null(match_id(k, "clean-resume", NULL, "", -1, "MAXONLY"));
	assert_null(match_id(k, "clean-resume", NULL, "unknown", -1, "MAXONLY"));
}

static void test_match_knob(void **state)
{
	const struct known_issues *k = *state;

	assert_string_equal(match_id(k, "clean-resume", NULL, NULL, 1, "KNOB"), "knob-on");
	assert_null(match_id(k, "clean-resume", NULL, NULL, 0, "KNOB"));
	assert_null(match_id(k, "clean-resume", NULL, NULL, -1, "KNOB"));
	/* An entry without a knob condition holds whatever the knob was. */
	assert_string_equal(match_id(k, "clean-resume", NULL, NULL, 0, "OTHER"), "shared-second");
	assert_string_equal(match_id(k, "clean-resume", NULL, NULL, -1, "OTHER"), "shared-second");
}

static void test_match_verdict_only_and_order(void **state)
{
	const struct known_issues *k = *state;

	assert_string_equal(match_id(k, "hang", NULL, NULL, -1, "anything at all"), "any-hang");
	assert_string_equal(match_id(k, "hang", NULL, NULL, -1, NULL), "any-hang");
	assert_string_equal(match_id(k, "clean-resume", NULL, NULL, -1, "SHARED"), "shared-first");
	assert_null(match_id(k, "clean-resume", NULL, "7.3.4", 1, "Oops: general protection fault"));
	assert_null(known_match(NULL, "hang", NULL, NULL, -1, "x"));
}

static void test_classify_every_message_must_be_known(void **state)
{
	const struct known_issues *k = *state;
	const char *const all_known[] = { "OTHER", "SHARED" };
	const char *const mixed[] = { "SHARED", "BUG: fresh failure", "OTHER" };
	const char *id = "untouched";

	assert_int_equal(known_classify(k, "clean-resume", NULL, NULL, -1, all_known, 2, &id), 1);
	assert_string_equal(id, "shared-second");
	id = "untouched";
	assert_int_equal(known_classify(k, "clean-resume", NULL, NULL, -1, mixed, 3, &id), 0);
	assert_string_equal(id, "untouched");
	assert_int_equal(known_classify(k, "clean-resume", NULL, NULL, -1, all_known, 0, &id), 0);
	assert_int_equal(known_classify(NULL, "clean-resume", NULL, NULL, -1, all_known, 2, &id), 0);
	assert_int_equal(known_classify(k, "clean-resume", NULL, NULL, -1, all_known, 2, NULL), 1);
	assert_string_equal(id, "untouched");
}

static void test_quiet_nights_double_for_intermittent(void **state)
{
	const struct known_issues *k = *state;
	const struct known_issue *steady = known_find(k, "shared-first");
	const struct known_issue *flaky = known_find(k, "shared-second");

	assert_non_null(steady);
	assert_non_null(flaky);
	assert_null(known_find(k, "no-such-id"));
	assert_int_equal(known_quiet_nights(steady, 0), KNOWN_QUIET_NIGHTS_DEFAULT);
	assert_int_equal(known_quiet_nights(flaky, 0), 2 * KNOWN_QUIET_NIGHTS_DEFAULT);
	assert_int_equal(known_quiet_nights(steady, 3), 3);
	assert_int_equal(known_quiet_nights(flaky, 3), 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_real_file_entries, setup_real, teardown),
		cmocka_unit_test_setup_teardown(test_real_lockdep_warning_in_every_shape, setup_real,
						teardown),
		cmocka_unit_test_setup_teardown(test_real_freezer_abort_at_knob_0, setup_real,
						teardown),
		cmocka_unit_test_setup_teardown(test_real_ext4lazyinit_needs_every_line, setup_real,
						teardown),
		cmocka_unit_test(test_bad_files_name_file_and_line),
		cmocka_unit_test(test_missing_file_is_usage_error),
		cmocka_unit_test(test_version_cmp_table),
		cmocka_unit_test_setup_teardown(test_match_pattern_verdict_and_filesystem,
						setup_match, teardown),
		cmocka_unit_test_setup_teardown(test_match_kernel_range_edges, setup_match, teardown),
		cmocka_unit_test_setup_teardown(test_match_knob, setup_match, teardown),
		cmocka_unit_test_setup_teardown(test_match_verdict_only_and_order, setup_match,
						teardown),
		cmocka_unit_test_setup_teardown(test_classify_every_message_must_be_known,
						setup_match, teardown),
		cmocka_unit_test_setup_teardown(test_quiet_nights_double_for_intermittent,
						setup_match, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
