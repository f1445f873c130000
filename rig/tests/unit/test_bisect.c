/* Flake-aware culprit search: posterior, search order, stopping, skips. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "bisect/bisect.h"
#include "bisect/sim.h"

static double posterior_sum(const struct bisect *b)
{
	double sum = 0.0;
	for (int i = 0; i < bisect_commits(b); i++)
		sum += bisect_posterior(b, i);
	return sum;
}

/* ceil(log2(x)) for x >= 1. */
static int ceil_log2(int x)
{
	int bits = 0;
	while ((1 << bits) < x)
		bits++;
	return bits;
}

/* Drive b against a deterministic history: commits >= culprit always fail, others never. */
static void run_noiseless(struct bisect *b, int culprit)
{
	for (int i = bisect_next(b); i >= 0; i = bisect_next(b))
		assert_int_equal(bisect_observe(b, i, i >= culprit), 0);
}

static void test_rejects_bad_arguments(void **state)
{
	(void)state;
	assert_null(bisect_new(1, 0.95, 0.01));
	assert_null(bisect_new(10, 1.0, 0.01));
	assert_null(bisect_new(10, 0.0, 0.01));
	assert_null(bisect_new(10, 0.95, -0.1));
	assert_null(bisect_new(10, 0.95, 0.5));
	struct bisect *b = bisect_new(10, 0.95, 0.01);
	assert_non_null(b);
	assert_int_equal(bisect_observe(b, 10, true), -1);
	assert_int_equal(bisect_observe(b, -1, false), -1);
	assert_int_equal(bisect_skip(b, 10), -1);
	assert_int_equal(bisect_set_fail_rate(b, 0.0), -1);
	assert_int_equal(bisect_set_fail_rate(b, 1.5), -1);
	assert_int_equal(bisect_set_fail_rate_prior(b, 0.0, 1.0), -1);
	assert_int_equal(bisect_set_max_cycles(b, -1), -1);
	assert_int_equal(bisect_set_endpoint_fails(b, -1), -1);
	assert_int_equal(bisect_set_stop_fail_rate(b, 0.0), -1);
	assert_int_equal(bisect_set_stop_fail_rate(b, 1.5), -1);
	assert_int_equal(bisect_cycles(b), 0);
	bisect_free(b);
}

static void test_prior_is_uniform_over_culprits(void **state)
{
	(void)state;
	struct bisect *b = bisect_new(9, 0.95, 0.01);
	assert_non_null(b);
	assert_float_equal(bisect_posterior(b, 0), 0.0, 1e-12);  /* commit 0 is known good */
	for (int i = 1; i < 9; i++)
		assert_float_equal(bisect_posterior(b, i), 1.0 / 8.0, 1e-12);
	bisect_free(b);
}

static void test_posterior_sums_to_one(void **state)
{
	(void)state;
	struct bisect_sim_params params = { .commits = 200, .p = 0.3, .q = 0.01, .confidence = 0.95,
		.trials = 1, .seed = 42 };
	struct bisect_history h;
	struct bisect *b = bisect_new(200, 0.95, 0.01);
	assert_non_null(b);
	bisect_history_for_trial(&h, &params, 0);
	assert_float_equal(posterior_sum(b), 1.0, 1e-9);
	for (int i = bisect_next(b); i >= 0; i = bisect_next(b)) {
		assert_int_equal(bisect_observe(b, i, bisect_history_cycle(&h, i)), 0);
		assert_float_equal(posterior_sum(b), 1.0, 1e-9);
	}
	assert_true(bisect_cycles(b) > 0);
	bisect_free(b);
}

/* A failure at i says the culprit is at or before i; a pass says (weakly) after i. */
static void test_observation_moves_mass_the_right_way(void **state)
{
	(void)state;
	struct bisect *b = bisect_new(11, 0.95, 0.01);
	assert_non_null(b);
	double before = bisect_posterior(b, 3);
	assert_int_equal(bisect_observe(b, 5, true), 0);
	assert_true(bisect_posterior(b, 3) > before);
	assert_true(bisect_posterior(b, 8) < before);
	double left = bisect_posterior(b, 2);
	assert_int_equal(bisect_observe(b, 2, false), 0);
	assert_true(bisect_posterior(b, 2) < left);
	bisect_free(b);
}

/* With p pinned to 1 and no false alarms, the search is plain binary search. */
static void test_noiseless_known_p_is_binary_search(void **state)
{
	(void)state;
	static const int sizes[] = { 2, 3, 17, 64, 100 };
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		int n = sizes[s];
		for (int culprit = 1; culprit < n; culprit++) {
			struct bisect *b = bisect_new(n, 0.95, 0.0);
			assert_non_null(b);
			assert_int_equal(bisect_set_fail_rate(b, 1.0), 0);
			assert_int_equal(bisect_set_endpoint_fails(b, 0), 0);
			run_noiseless(b, culprit);
			int idx = -1;
			double conf = 0.0;
			assert_int_equal(bisect_result(b, &idx, &conf), BISECT_FOUND);
			assert_int_equal(idx, culprit);
			assert_true(conf >= 0.95);
			assert_true(bisect_cycles(b) <= ceil_log2(n - 1));
			bisect_free(b);
		}
	}
}

/* Not told p, the search must first learn that failures are deterministic: a few cycles more. */
static void test_noiseless_unknown_p_finds_exact_culprit(void **state)
{
	(void)state;
	const int n = 256;
	long total = 0;
	for (int culprit = 1; culprit < n; culprit++) {
		struct bisect *b = bisect_new(n, 0.95, 0.01);
		assert_non_null(b);
		run_noiseless(b, culprit);
		int idx = -1;
		assert_int_equal(bisect_result(b, &idx, NULL), BISECT_FOUND);
		assert_int_equal(idx, culprit);
		assert_true(bisect_fail_rate(b) > 0.8);
		assert_true(bisect_cycles(b) <= 4 * ceil_log2(n));
		total += bisect_cycles(b);
		bisect_free(b);
	}
	/* On average about log2(n) + 8 (16.0 measured for n = 256): the cycles it takes to learn
	 * that p = 1 before a pass may count as proof of a good commit. */
	assert_true((double)total / (n - 1) <= ceil_log2(n) + 10);
}

/* A bad commit that happens to pass must not send the search away for good. */
static void test_pass_on_bad_commit_does_not_derail(void **state)
{
	(void)state;
	const int n = 64, culprit = 20;
	struct bisect *b = bisect_new(n, 0.95, 0.01);
	assert_non_null(b);
	assert_int_equal(bisect_set_fail_rate(b, 0.5), 0);
	/* Misleading start: the culprit itself and a later bad commit pass once. */
	assert_int_equal(bisect_observe(b, culprit, false), 0);
	assert_int_equal(bisect_observe(b, 40, false), 0);
	assert_true(bisect_posterior(b, culprit) > 0.0);
	/* Then the truth, alternating like a 50 % hang would. */
	int cycle = 0;
	for (int i = bisect_next(b); i >= 0; i = bisect_next(b), cycle++)
		assert_int_equal(bisect_observe(b, i, i >= culprit && (cycle % 2 == 0)), 0);
	int idx = -1;
	assert_int_equal(bisect_result(b, &idx, NULL), BISECT_FOUND);
	assert_int_equal(idx, culprit);
	bisect_free(b);
}

static void test_skipped_commits_make_a_range(void **state)
{
	(void)state;
	const int n = 32, culprit = 12;
	struct bisect *b = bisect_new(n, 0.95, 0.0);
	assert_non_null(b);
	assert_int_equal(bisect_set_fail_rate(b, 1.0), 0);
	/* 10 and 11 do not build: culprits 10, 11 and 12 cannot be told apart. */
	assert_int_equal(bisect_skip(b, 10), 0);
	assert_int_equal(bisect_skip(b, 11), 0);
	assert_int_equal(bisect_observe(b, 10, true), -1);
	for (int i = bisect_next(b); i >= 0; i = bisect_next(b)) {
		assert_true(i != 10 && i != 11);
		assert_int_equal(bisect_observe(b, i, i >= culprit), 0);
	}
	struct bisect_verdict v;
	bisect_verdict(b, &v);
	assert_int_equal(v.status, BISECT_RANGE);
	assert_int_equal(v.first, 10);
	assert_int_equal(v.last, 12);
	assert_true(v.confidence >= 0.95);
	/* Nothing separates them, so they share the mass equally. */
	assert_float_equal(bisect_posterior(b, 10), bisect_posterior(b, 12), 1e-12);
	bisect_free(b);
}

/* A skip next to the culprit still leaves the exact answer when the culprit itself is testable. */
static void test_skip_elsewhere_still_finds_commit(void **state)
{
	(void)state;
	const int n = 32, culprit = 12;
	struct bisect *b = bisect_new(n, 0.95, 0.0);
	assert_non_null(b);
	assert_int_equal(bisect_set_fail_rate(b, 1.0), 0);
	assert_int_equal(bisect_skip(b, 16), 0);
	assert_int_equal(bisect_skip(b, 13), 0);
	run_noiseless(b, culprit);
	int idx = -1;
	assert_int_equal(bisect_result(b, &idx, NULL), BISECT_FOUND);
	assert_int_equal(idx, culprit);
	bisect_free(b);
}

static void test_max_cycles_gives_inconclusive_top3(void **state)
{
	(void)state;
	struct bisect *b = bisect_new(64, 0.95, 0.01);
	assert_non_null(b);
	assert_int_equal(bisect_set_max_cycles(b, 5), 0);
	int steps = 0;
	for (int i = bisect_next(b); i >= 0; i = bisect_next(b), steps++)
		assert_int_equal(bisect_observe(b, i, i >= 30 && steps % 3 == 0), 0);
	assert_int_equal(steps, 5);
	assert_int_equal(bisect_result(b, NULL, NULL), BISECT_INCONCLUSIVE);
	int idx[3];
	double prob[3];
	assert_int_equal(bisect_top(b, 3, idx, prob), 3);
	assert_true(prob[0] >= prob[1] && prob[1] >= prob[2]);
	assert_float_equal(prob[0], bisect_posterior(b, idx[0]), 1e-12);
	for (int c = 1; c < 64; c++)
		assert_true(bisect_posterior(b, c) <= prob[0] + 1e-15);
	bisect_free(b);
}

static void test_top_never_exceeds_candidates(void **state)
{
	(void)state;
	struct bisect *b = bisect_new(3, 0.95, 0.01);
	assert_non_null(b);
	int idx[5];
	double prob[5];
	assert_int_equal(bisect_top(b, 5, idx, prob), 2);  /* culprits 1 and 2 only */
	assert_int_equal(bisect_top(b, 0, idx, prob), 0);
	bisect_free(b);
}

static void test_endpoint_is_confirmed_first(void **state)
{
	(void)state;
	struct bisect *b = bisect_new(50, 0.95, 0.01);
	assert_non_null(b);
	assert_int_equal(bisect_next(b), 49);
	assert_int_equal(bisect_observe(b, 49, false), 0);
	assert_int_equal(bisect_next(b), 49);
	assert_int_equal(bisect_observe(b, 49, true), 0);
	assert_true(bisect_next(b) != 49);
	bisect_free(b);
}

/* Same seed, same observations, same answers. */
/* The simulator's bound (--stop-known-p): the same observations stop or not depending only on
 * the p the stopping rule is told. Commit 2 failed once, commit 1 passed three times: at p near 1
 * three passes clear commit 1 (culprit 2 holds ~1), at p = 0.1 they are weak (0.9^3 = 0.73, so
 * culprit 2 holds 1 / 1.73 = 0.58) and the search goes on; estimating p it goes on as well. */
static void test_stop_fail_rate_decides_stopping(void **state)
{
	(void)state;
	double told[] = { 0.999, 0.1, 0.0 };   /* 0: not told, p estimated */
	enum bisect_status want[] = { BISECT_FOUND, BISECT_RUNNING, BISECT_RUNNING };
	for (int t = 0; t < 3; t++) {
		struct bisect *b = bisect_new(3, 0.95, 0.0);
		assert_non_null(b);
		if (told[t] > 0.0)
			assert_int_equal(bisect_set_stop_fail_rate(b, told[t]), 0);
		assert_int_equal(bisect_observe(b, 2, true), 0);
		for (int i = 0; i < 3; i++)
			assert_int_equal(bisect_observe(b, 1, false), 0);
		int idx;
		double conf;
		assert_int_equal(bisect_result(b, &idx, &conf), want[t]);
		assert_int_equal(idx, 2);
		if (told[t] == 0.1)
			assert_float_equal(conf, 1.0 / (1.0 + pow(0.9, 3)), 1e-6);
		bisect_free(b);
	}
}

static void test_deterministic_with_seed(void **state)
{
	(void)state;
	struct bisect_sim_params params = { .commits = 128, .p = 0.3, .q = 0.01, .confidence = 0.95,
		.trials = 20, .seed = 7 };
	struct bisect_sim_stats a, b;
	assert_int_equal(bisect_sim_flake_aware(&params, &a), 0);
	assert_int_equal(bisect_sim_flake_aware(&params, &b), 0);
	assert_int_equal(a.correct, b.correct);
	assert_int_equal(a.total_cycles, b.total_cycles);
	params.seed = 8;
	assert_int_equal(bisect_sim_flake_aware(&params, &b), 0);
	assert_true(a.total_cycles != b.total_cycles || a.correct != b.correct);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rejects_bad_arguments),
		cmocka_unit_test(test_prior_is_uniform_over_culprits),
		cmocka_unit_test(test_posterior_sums_to_one),
		cmocka_unit_test(test_observation_moves_mass_the_right_way),
		cmocka_unit_test(test_noiseless_known_p_is_binary_search),
		cmocka_unit_test(test_noiseless_unknown_p_finds_exact_culprit),
		cmocka_unit_test(test_pass_on_bad_commit_does_not_derail),
		cmocka_unit_test(test_skipped_commits_make_a_range),
		cmocka_unit_test(test_skip_elsewhere_still_finds_commit),
		cmocka_unit_test(test_max_cycles_gives_inconclusive_top3),
		cmocka_unit_test(test_top_never_exceeds_candidates),
		cmocka_unit_test(test_endpoint_is_confirmed_first),
		cmocka_unit_test(test_stop_fail_rate_decides_stopping),
		cmocka_unit_test(test_deterministic_with_seed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
