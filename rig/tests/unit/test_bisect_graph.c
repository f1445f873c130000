/* The flake-aware search over a commit graph (bisect/graph.c): a culprit inside a merged branch
 * is named itself, where the line model (the old first-parent view) cannot name it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdbool.h>

#include "bisect/bisect.h"
#include "bisect/rng.h"

/*
 *   0 good --- 3 m1 --- 4 m2 --- 5 merge --- 6 bad
 *     \                         /
 *      1 s1 ------- 2 s2 ------
 * Topological order with the side branch first: on a line, s1 being bad would make m1 and m2
 * bad too, which they are not.
 */
#define N 7
static const int edges[] = { 1, 0, 2, 1, 3, 0, 4, 3, 5, 4, 5, 2, 6, 5 };
#define N_EDGES ((int)(sizeof(edges) / sizeof(edges[0]) / 2))

/* The truth: commits that contain the culprit. */
static bool contains(int culprit, int i)
{
	static const bool anc[N][N] = {
		/* i = 0 */ { 1, 0, 0, 0, 0, 0, 0 },
		/* 1 */ { 1, 1, 0, 0, 0, 0, 0 },
		/* 2 */ { 1, 1, 1, 0, 0, 0, 0 },
		/* 3 */ { 1, 0, 0, 1, 0, 0, 0 },
		/* 4 */ { 1, 0, 0, 1, 1, 0, 0 },
		/* 5 */ { 1, 1, 1, 1, 1, 1, 0 },
		/* 6 */ { 1, 1, 1, 1, 1, 1, 1 },
	};
	return anc[i][culprit];
}

/* Run the search against culprit, failing bad commits with probability p. */
static int search(bool graph, int culprit, double p, uint64_t seed, int skip,
		  struct bisect_verdict *v)
{
	struct bisect *b = bisect_new(N, 0.95, 0.0);
	struct bisect_rng rng;

	assert_non_null(b);
	bisect_rng_seed(&rng, seed);
	if (graph)
		assert_int_equal(bisect_set_graph(b, edges, N_EDGES), 0);
	if (p >= 1.0)
		assert_int_equal(bisect_set_fail_rate(b, 1.0), 0);
	if (skip > 0)
		assert_int_equal(bisect_skip(b, skip), 0);
	for (int i = bisect_next(b); i >= 0; i = bisect_next(b)) {
		bool fail = contains(culprit, i) && bisect_rng_unit(&rng) < p;
		assert_int_equal(bisect_observe(b, i, fail), 0);
	}
	bisect_verdict(b, v);
	int cycles = bisect_cycles(b);
	bisect_free(b);
	return cycles;
}

/* A deterministic failure (p = 1, told) at culprit, commit skip skipped (0: none), ends so. */
static void expect_answer(bool graph, int culprit, int skip, enum bisect_status status, int first,
			  int last)
{
	struct bisect_verdict v;

	search(graph, culprit, 1.0, 1, skip, &v);
	assert_int_equal(v.status, status);
	assert_int_equal(v.first, first);
	assert_int_equal(v.last, last);
}

static void deterministic_every_culprit_is_named(void **state)
{
	(void)state;
	for (int c = 1; c < N; c++)
		expect_answer(true, c, 0, BISECT_FOUND, c, c);
}

/* Negative control: the same history as a line blames the merge for a side-branch culprit. */
static void line_model_names_the_merge(void **state)
{
	(void)state;
	expect_answer(false, 1, 0, BISECT_FOUND, 5, 5);
}

/* p = 0.3 estimated, q = 0: the side-branch culprit named at the confidence asked. */
static void flaky_side_branch_culprit(void **state)
{
	int right = 0, runs = 200;

	(void)state;
	for (int t = 0; t < runs; t++) {
		struct bisect_verdict v;
		int culprit = 1 + t % (N - 1);
		search(true, culprit, 0.3, 1000 + (uint64_t)t, 0, &v);
		right += v.status == BISECT_FOUND && v.first == culprit;
	}
	print_message("graph, p = 0.3 estimated: %d/%d right\n", right, runs);
	assert_true(right >= 0.95 * runs);
}

/* A skipped commit cannot be told from its only child: s1 from s2, m2 from the merge (which has
 * a second parent, yet contains nothing m2 does not, but m2). */
static void skips_make_ranges_only_along_chains(void **state)
{
	(void)state;
	expect_answer(true, 1, 1, BISECT_RANGE, 1, 2);
	expect_answer(true, 5, 4, BISECT_RANGE, 4, 5);
	/* Skipping s2 still lets m2 be named: they share no descendant but the merge. */
	expect_answer(true, 4, 2, BISECT_FOUND, 4, 4);
}

/* The ancestry is filled in child order whatever order the edges come in: given backwards, the
 * graph gives the same posterior after the same observations. */
static void edge_order_does_not_matter(void **state)
{
	int reversed[2 * N_EDGES];
	struct bisect *a = bisect_new(N, 0.95, 0.0), *b = bisect_new(N, 0.95, 0.0);

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	for (int k = 0; k < N_EDGES; k++) {
		reversed[2 * k] = edges[2 * (N_EDGES - 1 - k)];
		reversed[2 * k + 1] = edges[2 * (N_EDGES - 1 - k) + 1];
	}
	assert_int_equal(bisect_set_graph(a, edges, N_EDGES), 0);
	assert_int_equal(bisect_set_graph(b, reversed, N_EDGES), 0);
	for (int i = 1; i < N; i++) {
		assert_int_equal(bisect_observe(a, i, contains(2, i)), 0);
		assert_int_equal(bisect_observe(b, i, contains(2, i)), 0);
	}
	for (int c = 0; c < N; c++)
		assert_true(fabs(bisect_posterior(a, c) - bisect_posterior(b, c)) < 1e-12);
	/* ... and that posterior is the graph's: after one pass and one failure per commit, the
	 * culprit 2 leads (on a line, 5 would). */
	int top, n_top;
	double p;
	n_top = bisect_top(a, 1, &top, &p);
	assert_int_equal(n_top, 1);
	assert_int_equal(top, 2);
	bisect_free(a);
	bisect_free(b);
}

static void rejects_bad_graphs(void **state)
{
	struct bisect *b = bisect_new(N, 0.95, 0.0);
	const int backwards[] = { 1, 2 };
	const int out_of_range[] = { N, 0 };
	/* 6 not containing 2: the bad commit must contain every commit of the range. */
	const int partial[] = { 1, 0, 2, 0, 3, 1, 4, 3, 5, 4, 6, 5 };

	(void)state;
	assert_non_null(b);
	assert_int_equal(bisect_set_graph(NULL, edges, N_EDGES), -1);
	assert_int_equal(bisect_set_graph(b, backwards, 1), -1);
	assert_int_equal(bisect_set_graph(b, out_of_range, 1), -1);
	assert_int_equal(bisect_set_graph(b, partial, 6), -1);
	assert_int_equal(bisect_set_graph(b, edges, -1), -1);
	assert_int_equal(bisect_set_graph(b, edges, N_EDGES), 0);
	bisect_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(deterministic_every_culprit_is_named),
		cmocka_unit_test(line_model_names_the_merge),
		cmocka_unit_test(flaky_side_branch_culprit),
		cmocka_unit_test(skips_make_ranges_only_along_chains),
		cmocka_unit_test(edge_order_does_not_matter),
		cmocka_unit_test(rejects_bad_graphs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
