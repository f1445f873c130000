/* Simulated suspend-hang bisections: the flake-aware search's accuracy and the repeat-N baseline. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "bisect/repeat.h"
#include "cli/bisect.h"
#include "util/err.h"
#include "bisect/rng.h"
#include "bisect/sim.h"

/* The acceptance figure: a hang in 3 resumes, 1 % false alarms, 64 commits, 1,000 bisections. */
static void test_flake_aware_accuracy_p03(void **state)
{
	(void)state;
	struct bisect_sim_params params = { .commits = 64, .p = 0.3, .q = 0.01, .confidence = 0.95,
		.trials = 1000, .seed = 2023 };
	struct bisect_sim_stats s;
	assert_int_equal(bisect_sim_flake_aware(&params, &s), 0);
	assert_int_equal(s.trials, 1000);
	print_message("flake-aware n=64 p=0.3 q=0.01: accuracy %.3f, mean cycles %.1f, inconclusive %d\n",
		      s.accuracy, s.mean_cycles, s.inconclusive);
	assert_true(s.accuracy >= 0.95);
	/* Measured 74.2 (rig/doc/bisect.md): a slower search fails here, not only a wrong one. */
	assert_true(s.mean_cycles <= 76.0);
}

/* Issue 23 part 3 at q = 0, n = 64, p = 0.3 over 1,000 bisections with the doc's seed: repeat-N
 * tuned with the true p, against the search estimating p. The <= 0.85x goal at >= 0.95 accuracy
 * is met when the search is fed 200 earlier cycles of the bad commit (--bad-history); from its
 * own cycles it is not (1.31x), and not even when told p for its stopping decision (0.92x: a
 * bound on what any stopping rule could save). Both gaps are asserted, so that closing one shows
 * here and rig/doc/bisect.md is updated with it. */
static double cycles_ratio(const struct bisect_sim_params *params, const struct bisect_sim_stats *rn)
{
	struct bisect_sim_stats fa;
	assert_int_equal(bisect_sim_flake_aware(params, &fa), 0);
	print_message("flake-aware q=0 detect=%d stop-known-p=%d: accuracy %.3f, %.1f cycles, %.2fx\n",
		      params->detect_cycles, params->stop_known_p, fa.accuracy, fa.mean_cycles,
		      fa.mean_cycles / rn->mean_cycles);
	assert_true(fa.accuracy >= 0.95);
	return fa.mean_cycles / rn->mean_cycles;
}

static void test_goal_085_repeat_n_q0(void **state)
{
	(void)state;
	struct bisect_sim_params params = { .commits = 64, .p = 0.3, .q = 0.0, .confidence = 0.95,
		.trials = 1000, .seed = 1 };
	struct bisect_sim_stats rn;
	bool reached = false;
	assert_int_equal(bisect_sim_find_tries(&params, 0.95, 40, &rn, &reached), 12);
	assert_true(reached);
	print_message("repeat-N q=0: N=12, accuracy %.3f, %.1f cycles\n", rn.accuracy, rn.mean_cycles);

	double scratch = cycles_ratio(&params, &rn);
	assert_true(scratch > 0.85 && scratch <= 1.35);
	params.stop_known_p = true;
	assert_true(cycles_ratio(&params, &rn) > 0.85);
	params.stop_known_p = false;
	params.detect_cycles = 200;
	assert_true(cycles_ratio(&params, &rn) <= 0.85);
}

/* Same trial index, same culprit, whichever method runs it. */
static void test_history_is_reproducible(void **state)
{
	(void)state;
	struct bisect_sim_params params = { .commits = 100, .p = 0.5, .q = 0.0, .trials = 1, .seed = 3 };
	struct bisect_history a, b;
	bisect_history_for_trial(&a, &params, 5);
	bisect_history_for_trial(&b, &params, 5);
	assert_int_equal(a.culprit, b.culprit);
	assert_in_range(a.culprit, 1, 99);
	for (int i = 0; i < 50; i++)
		assert_int_equal(bisect_history_cycle(&a, 99), bisect_history_cycle(&b, 99));
	/* q = 0: good commits never fail. */
	for (int i = 0; i < 200; i++)
		assert_false(bisect_history_cycle(&a, 0));
}

static void test_history_failure_rate(void **state)
{
	(void)state;
	struct bisect_sim_params params = { .commits = 10, .p = 0.3, .q = 0.02, .trials = 1, .seed = 11 };
	struct bisect_history h;
	bisect_history_for_trial(&h, &params, 0);
	int bad = 0, good = 0;
	const int cycles = 20000;
	for (int i = 0; i < cycles; i++) {
		bad += bisect_history_cycle(&h, 9);
		good += bisect_history_cycle(&h, 0);
	}
	assert_float_equal((double)bad / cycles, 0.3, 0.02);
	assert_float_equal((double)good / cycles, 0.02, 0.005);
}

static void test_rng_range_stays_in_bounds(void **state)
{
	(void)state;
	struct bisect_rng r;
	bisect_rng_seed(&r, 99);
	int seen_lo = 0, seen_hi = 0;
	for (int i = 0; i < 10000; i++) {
		int v = bisect_rng_range(&r, 3, 7);
		assert_in_range(v, 3, 7);
		seen_lo += v == 3;
		seen_hi += v == 7;
		double u = bisect_rng_unit(&r);
		assert_true(u >= 0.0 && u < 1.0);
	}
	assert_true(seen_lo > 0 && seen_hi > 0);
}

static void test_repeat_bisect_deterministic_failure(void **state)
{
	(void)state;
	for (int culprit = 1; culprit < 40; culprit++) {
		struct repeat_bisect r;
		assert_int_equal(repeat_bisect_init(&r, 40, 1), 0);
		for (int idx = repeat_bisect_next(&r); idx >= 0; idx = repeat_bisect_next(&r))
			assert_int_equal(repeat_bisect_observe(&r, idx >= culprit), 0);
		assert_int_equal(repeat_bisect_result(&r), culprit);
		assert_true(r.cycles <= 6);  /* ceil(log2(39)) */
		assert_int_equal(repeat_bisect_observe(&r, false), -1);
	}
}

/* ktest semantics: one failure is bad at once, good needs N passes in a row. */
static void test_repeat_bisect_needs_n_passes(void **state)
{
	(void)state;
	struct repeat_bisect r;
	assert_int_equal(repeat_bisect_init(&r, 9, 3), 0);
	int mid = repeat_bisect_next(&r);
	assert_int_equal(mid, 4);
	assert_int_equal(repeat_bisect_observe(&r, false), 0);
	assert_int_equal(repeat_bisect_observe(&r, false), 0);
	assert_int_equal(repeat_bisect_next(&r), 4);      /* still testing the same commit */
	assert_int_equal(repeat_bisect_observe(&r, false), 0);
	assert_int_equal(r.good, 4);                       /* third pass: good */
	assert_int_equal(repeat_bisect_observe(&r, true), 0);
	assert_int_equal(r.bad, 6);                        /* first failure: bad */
	assert_int_equal(r.cycles, 4);
	assert_int_equal(repeat_bisect_init(&r, 1, 3), -1);
	assert_int_equal(repeat_bisect_init(&r, 9, 0), -1);
}

/* With no false alarms more tries can only help; the search returns the first N that is enough. */
static void test_find_tries_is_smallest_sufficient(void **state)
{
	(void)state;
	struct bisect_sim_params params = { .commits = 64, .p = 0.3, .q = 0.0, .confidence = 0.95,
		.trials = 300, .seed = 5 };
	struct bisect_sim_stats s, below;
	bool reached = false;
	int tries = bisect_sim_find_tries(&params, 0.95, 60, &s, &reached);
	assert_true(reached);
	assert_true(tries > 1);
	assert_true(s.accuracy >= 0.95);
	assert_int_equal(bisect_sim_repeat(&params, tries - 1, &below), 0);
	assert_true(below.accuracy < 0.95);
}

/* False alarms on good commits sink repeat-N: more tries mean more chances to fail a good one. */
static void test_false_alarms_cap_repeat_accuracy(void **state)
{
	(void)state;
	struct bisect_sim_params params = { .commits = 64, .p = 0.3, .q = 0.01, .confidence = 0.95,
		.trials = 300, .seed = 5 };
	struct bisect_sim_stats s;
	bool reached = true;
	int tries = bisect_sim_find_tries(&params, 0.95, 60, &s, &reached);
	assert_true(tries >= 1);
	assert_false(reached);
	assert_true(s.accuracy < 0.95);
}

static void test_sim_rejects_bad_params(void **state)
{
	(void)state;
	struct bisect_sim_params params = { .commits = 1, .p = 0.3, .q = 0.0, .confidence = 0.95,
		.trials = 10, .seed = 1 };
	struct bisect_sim_stats s;
	bool reached;
	assert_int_equal(bisect_sim_flake_aware(&params, &s), -1);
	assert_int_equal(bisect_sim_repeat(&params, 3, &s), -1);
	params.commits = 10;
	params.p = 0.0;
	assert_int_equal(bisect_sim_flake_aware(&params, &s), -1);
	params.p = 0.5;
	assert_int_equal(bisect_sim_repeat(&params, 0, &s), -1);
	assert_int_equal(bisect_sim_find_tries(&params, 0.95, 0, &s, &reached), -1);
}

static void test_cmd_bisect_sim(void **state)
{
	(void)state;
	char *one_row[] = { "bisect-sim", "--commits", "16", "--p", "1", "--q", "0", "--trials", "5",
			    "--seed", "9", "--max-tries", "3", NULL };
	char *bad_p[] = { "bisect-sim", "--p", "1.5", NULL };
	char *stray[] = { "bisect-sim", "extra", NULL };
	char *bound[] = { "bisect-sim", "--commits", "16", "--p", "0.5", "--q", "0", "--trials", "5",
			  "--max-tries", "3", "--stop-known-p", NULL };
	assert_int_equal(cmd_bisect_sim(13, one_row), RIG_EXIT_PASS);
	assert_int_equal(cmd_bisect_sim(12, bound), RIG_EXIT_PASS);
	assert_int_equal(cmd_bisect_sim(3, bad_p), RIG_EXIT_USAGE);
	assert_int_equal(cmd_bisect_sim(2, stray), RIG_EXIT_USAGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_history_is_reproducible),
		cmocka_unit_test(test_history_failure_rate),
		cmocka_unit_test(test_rng_range_stays_in_bounds),
		cmocka_unit_test(test_repeat_bisect_deterministic_failure),
		cmocka_unit_test(test_repeat_bisect_needs_n_passes),
		cmocka_unit_test(test_find_tries_is_smallest_sufficient),
		cmocka_unit_test(test_false_alarms_cap_repeat_accuracy),
		cmocka_unit_test(test_sim_rejects_bad_params),
		cmocka_unit_test(test_cmd_bisect_sim),
		cmocka_unit_test(test_flake_aware_accuracy_p03),
		cmocka_unit_test(test_goal_085_repeat_n_q0),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
