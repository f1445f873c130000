/* The bisect loop (bisect/driver.c) against fake builders and boards: a planted culprit that fails
 * a fraction of cycles, commits that do not build, boards that give no usable cycle. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect/driver.h"
#include "bisect/rng.h"

#define MAX_COMMITS 64

struct fake {
	int culprit;                  /* first bad commit */
	double p;                     /* per-cycle failure rate at and after it */
	int cycles_per_step;
	bool no_build[MAX_COMMITS];   /* these commits do not build */
	int unusable_steps[MAX_COMMITS]; /* this many steps of only 'I' before real cycles */
	int stop_after_steps;         /* test() fails after this many steps (0 = never) */
	struct bisect_rng rng;
	int builds[MAX_COMMITS];
	int tests;
	int cycles_run;               /* outcomes handed out by fake_test */
	int reports;
	int last_cycles_total;
	char notes[8][64];
	int n_notes;
};

static int fake_build(void *ctx, const struct history_commit *c, char *artefact, size_t size,
		      struct rig_err *err)
{
	struct fake *f = ctx;
	int idx = atoi(c->sha);

	(void)err;
	f->builds[idx]++;
	if (f->no_build[idx])
		return 1;
	snprintf(artefact, size, "/artefacts/%d", idx);
	return 0;
}

static int fake_test(void *ctx, const struct history_commit *c, const char *artefact,
		     char *outcomes, size_t size, struct rig_err *err)
{
	struct fake *f = ctx;
	int idx = atoi(c->sha), n = 0;
	char expected[32];

	snprintf(expected, sizeof(expected), "/artefacts/%d", idx);
	assert_string_equal(artefact, expected);
	if (f->stop_after_steps && ++f->tests > f->stop_after_steps)
		return rig_err_set(err, RIG_EXIT_INFRA, "interrupted");
	if (f->unusable_steps[idx] > 0) {
		f->unusable_steps[idx]--;
		snprintf(outcomes, size, "II");
		return 0;
	}
	for (; n < f->cycles_per_step && (size_t)n + 1 < size; n++) {
		bool bad = idx >= f->culprit && bisect_rng_unit(&f->rng) < f->p;

		outcomes[n] = bad ? (n % 2 ? OUTCOME_HANG : OUTCOME_FAIL) : OUTCOME_PASS;
	}
	outcomes[n] = '\0';
	f->cycles_run += n;
	return 0;
}

static int fake_step_done(void *ctx, const struct bisect_step_report *r, struct rig_err *err)
{
	struct fake *f = ctx;

	(void)err;
	assert_int_equal(r->step, f->reports);
	assert_true(r->cycles_total >= f->last_cycles_total);
	assert_true(r->n_top >= 1 && r->n_top <= DRIVER_TOP);
	for (int i = 1; i < r->n_top; i++)
		assert_true(r->top_p[i] <= r->top_p[i - 1]);
	if (r->note && f->n_notes < 8)
		snprintf(f->notes[f->n_notes++], sizeof(f->notes[0]), "%d:%s", r->commit, r->note);
	f->last_cycles_total = r->cycles_total;
	f->reports++;
	return 0;
}

static const struct bisect_driver_ops fake_ops = {
	.build = fake_build, .test = fake_test, .step_done = fake_step_done,
};

/* Commits named by their index, so the fakes know where they are. */
static void make_history(struct history *h, int n)
{
	h->n = (size_t)n;
	h->commits = calloc((size_t)n, sizeof(*h->commits));
	assert_non_null(h->commits);
	for (int i = 0; i < n; i++) {
		snprintf(h->commits[i].sha, sizeof(h->commits[i].sha), "%d", i);
		h->commits[i].subject = strdup("subject");
		if (i > 0) {   /* a line: each commit's parent is the one before */
			h->commits[i].parents = malloc(sizeof(*h->commits[i].parents));
			assert_non_null(h->commits[i].parents);
			h->commits[i].parents[0] = i - 1;
			h->commits[i].n_parents = 1;
		}
	}
}

static struct bisect_driver_params default_params(void)
{
	return (struct bisect_driver_params){ .confidence = 0.95, .q = 0.01, .max_cycles = 1000,
		.endpoint_fails = 1, .unusable_tries = 2 };
}

static void fake_init(struct fake *f, int culprit, double p, uint64_t seed)
{
	memset(f, 0, sizeof(*f));
	f->culprit = culprit;
	f->p = p;
	f->cycles_per_step = 4;
	bisect_rng_seed(&f->rng, seed);
}

static int drive(struct fake *f, int n, const struct bisect_driver_params *params,
		 struct bisect_driver_result *res, struct rig_err *err)
{
	struct history h;
	int rc;

	make_history(&h, n);
	rc = bisect_drive(&h, params, &fake_ops, f, res, err);
	history_free(&h);
	return rc;
}

/* Flaky culprit (p = 1/3) anywhere in 16 commits: found at the confidence asked, over seeds. */
static void finds_flaky_culprit(void **state)
{
	struct bisect_driver_params params = default_params();
	int found = 0, runs = 0;

	(void)state;
	for (int culprit = 1; culprit < 16; culprit += 2) {
		for (uint64_t seed = 1; seed <= 3; seed++, runs++) {
			struct fake f;
			struct bisect_driver_result res;
			struct rig_err err = { 0 };

			fake_init(&f, culprit, 1.0 / 3.0, seed * 7919 + (uint64_t)culprit);
			assert_int_equal(drive(&f, 16, &params, &res, &err), 0);
			assert_int_equal(res.steps, f.reports);
			assert_true(res.cycles > 0);
			if (res.verdict.status == BISECT_FOUND && res.verdict.first == culprit)
				found++;
			for (int i = 0; i < 16; i++)
				assert_true(f.builds[i] <= 1);   /* every commit is built at most once */
		}
	}
	/* 0.95 confidence: allow one miss in 24 rather than demand perfection from a posterior. */
	assert_true(found >= runs - 1);
}

/* A pass on a bad commit does not derail the search: with p = 0.5 most bad commits pass
 * some of their cycles, and the answer is still the culprit. */
static void passes_on_bad_commits_do_not_derail(void **state)
{
	struct bisect_driver_params params = default_params();
	struct fake f;
	struct bisect_driver_result res;
	struct rig_err err = { 0 };

	(void)state;
	fake_init(&f, 5, 0.5, 42);
	f.cycles_per_step = 1;
	assert_int_equal(drive(&f, 12, &params, &res, &err), 0);
	assert_int_equal(res.verdict.status, BISECT_FOUND);
	assert_int_equal(res.verdict.first, 5);
	assert_true(res.verdict.confidence >= 0.95);
}

/* A commit that does not build is skipped, never blamed: the culprit's predecessor not
 * building leaves a range the skip cannot split. */
static void build_failure_is_a_skip(void **state)
{
	struct bisect_driver_params params = default_params();
	struct fake f;
	struct bisect_driver_result res;
	struct rig_err err = { 0 };

	(void)state;
	fake_init(&f, 6, 1.0, 3);
	f.no_build[6] = true;
	assert_int_equal(drive(&f, 10, &params, &res, &err), 0);
	assert_int_equal(res.verdict.status, BISECT_RANGE);
	assert_int_equal(res.verdict.first, 6);
	assert_int_equal(res.verdict.last, 7);
	assert_int_equal(f.builds[6], 1);
	assert_string_equal(f.notes[0], "6:build failed: skipped");
}

static void bad_endpoint_must_build(void **state)
{
	struct bisect_driver_params params = default_params();
	struct fake f;
	struct bisect_driver_result res;
	struct rig_err err = { 0 };

	(void)state;
	fake_init(&f, 3, 1.0, 1);
	f.no_build[7] = true;
	assert_int_equal(drive(&f, 8, &params, &res, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_INFRA);
	assert_non_null(strstr(err.msg, "does not build"));
}

/* Infrastructure trouble is retried, then skipped, never counted as a failure. */
static void unusable_cycles_retry_then_skip(void **state)
{
	struct bisect_driver_params params = default_params();
	struct fake f;
	struct bisect_driver_result res;
	struct rig_err err = { 0 };

	(void)state;
	fake_init(&f, 4, 1.0, 5);
	f.unusable_steps[4] = 1;   /* one bad step, then real cycles: retried */
	f.unusable_steps[2] = 5;   /* never usable: skipped after two tries */
	assert_int_equal(drive(&f, 8, &params, &res, &err), 0);
	assert_int_equal(res.verdict.status, BISECT_FOUND);
	assert_int_equal(res.verdict.first, 4);
	bool retried = false;
	for (int i = 0; i < f.n_notes; i++)
		retried |= strcmp(f.notes[i], "4:no usable cycle: will retry") == 0;
	assert_true(retried);
}

static void out_of_cycles_is_inconclusive(void **state)
{
	struct bisect_driver_params params = default_params();
	struct fake f;
	struct bisect_driver_result res;
	struct rig_err err = { 0 };

	(void)state;
	params.max_cycles = 12;
	fake_init(&f, 9, 0.1, 11);
	assert_int_equal(drive(&f, 32, &params, &res, &err), 0);
	assert_int_equal(res.verdict.status, BISECT_INCONCLUSIVE);
	assert_true(res.cycles <= 12 + f.cycles_per_step);
}

static void a_failing_test_stops_the_bisect(void **state)
{
	struct bisect_driver_params params = default_params();
	struct fake f;
	struct bisect_driver_result res;
	struct rig_err err = { 0 };

	(void)state;
	fake_init(&f, 3, 0.5, 9);
	f.stop_after_steps = 2;
	assert_int_equal(drive(&f, 16, &params, &res, &err), -1);
	assert_string_equal(err.msg, "interrupted");
	assert_int_equal(f.reports, 2);
}

/* The bad commit's history (30 of 100 cycles failed, as a nightly that found the regression
 * might have seen) is evidence about p: the same flaky bisects need fewer cycles with it, and
 * those fed cycles are not counted as the bisect's own. */
static void bad_history_saves_cycles(void **state)
{
	long without = 0, with = 0;
	int right = 0, runs = 0;

	(void)state;
	for (int culprit = 1; culprit < 32; culprit += 3) {
		for (uint64_t seed = 1; seed <= 4; seed++, runs++) {
			struct bisect_driver_params params = default_params();
			struct fake f;
			struct bisect_driver_result res;
			struct rig_err err = { 0 };

			params.q = 0.0;
			fake_init(&f, culprit, 0.3, seed * 131 + (uint64_t)culprit);
			assert_int_equal(drive(&f, 32, &params, &res, &err), 0);
			without += res.cycles;
			params.history_fails = 30;
			params.history_cycles = 100;
			fake_init(&f, culprit, 0.3, seed * 131 + (uint64_t)culprit);
			assert_int_equal(drive(&f, 32, &params, &res, &err), 0);
			assert_int_equal(res.cycles, f.cycles_run);
			with += res.cycles;
			right += res.verdict.status == BISECT_FOUND && res.verdict.first == culprit;
		}
	}
	print_message("p = 0.3, 32 commits, %d bisects: %.1f cycles without the history, %.1f with "
		      "(%d right)\n", runs, (double)without / runs, (double)with / runs, right);
	assert_true(with < 0.9 * without);
	assert_true(right >= 0.9 * runs);
}

static void bad_params_are_usage_errors(void **state)
{
	struct bisect_driver_params params = default_params();
	struct fake f;
	struct bisect_driver_result res;
	struct rig_err err = { 0 };

	(void)state;
	fake_init(&f, 1, 1.0, 1);
	params.confidence = 1.0;
	assert_int_equal(drive(&f, 4, &params, &res, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	params = default_params();
	params.endpoint_fails = 0;
	assert_int_equal(drive(&f, 4, &params, &res, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	params = default_params();
	params.history_fails = 5;
	params.history_cycles = 4;
	assert_int_equal(drive(&f, 4, &params, &res, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	assert_int_equal(f.reports, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(finds_flaky_culprit),
		cmocka_unit_test(passes_on_bad_commits_do_not_derail),
		cmocka_unit_test(build_failure_is_a_skip),
		cmocka_unit_test(bad_endpoint_must_build),
		cmocka_unit_test(unusable_cycles_retry_then_skip),
		cmocka_unit_test(out_of_cycles_is_inconclusive),
		cmocka_unit_test(a_failing_test_stops_the_bisect),
		cmocka_unit_test(bad_history_saves_cycles),
		cmocka_unit_test(bad_params_are_usage_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
