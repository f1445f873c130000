/* Reading a bisect's commits from a real git repository made here (bisect/history.c), and
 * rig bisect's loop (bisect/driver.c) over it with a flaky culprit inside the merged branch: the
 * answer must be the branch commit, not the merge. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bisect/driver.h"
#include "bisect/history.h"
#include "bisect/rng.h"

struct repo {
	char dir[64];
};

static int sh_status(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh_status(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}
#define sh(...) assert_int_equal(sh_status(__VA_ARGS__), 0)

/* main: c0 - c1 - c2 - merge(c2, side) - c4, side branching from c0. */
static int setup(void **state)
{
	struct repo *r = calloc(1, sizeof(*r));

	if (!r)
		return -1;
	snprintf(r->dir, sizeof(r->dir), "/tmp/test_bisect_history.XXXXXX");
	if (!mkdtemp(r->dir))
		return -1;
	sh("cd %s && export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t "
	   "GIT_COMMITTER_EMAIL=t@t && git init -q -b main . && "
	   "for i in 0 1 2; do echo $i > f; git add f; git commit -q -m \"c$i subject\"; git tag c$i; done && "
	   "git checkout -q -b side c0 && echo s > g && git add g && git commit -q -m side && "
	   "git checkout -q main && git merge -q --no-edit -m merge side && git tag m && "
	   "echo 4 > f && git commit -q -am 'c4 subject' && git tag c4", r->dir);
	*state = r;
	return 0;
}

static int teardown(void **state)
{
	struct repo *r = *state;

	sh("rm -rf %s", r->dir);
	free(r);
	return 0;
}

static int index_of(const struct history *h, const char *subject)
{
	for (size_t i = 0; i < h->n; i++)
		if (strcmp(h->commits[i].subject, subject) == 0)
			return (int)i;
	return -1;
}

/* The whole graph between good and bad: the merged side commit too, parents before children,
 * the merge's two parents, edges for the search. */
static void lists_the_graph_parents_first(void **state)
{
	struct repo *r = *state;
	struct history h;
	struct rig_err err = { 0 };
	int *edges, n_edges;

	assert_int_equal(history_load(r->dir, "c0", "c4", &h, &err), 0);
	assert_int_equal(h.n, 6);   /* c0 c1 c2 side merge c4 */
	assert_string_equal(h.commits[0].subject, "c0 subject");
	assert_string_equal(h.commits[5].subject, "c4 subject");
	int side = index_of(&h, "side"), merge = index_of(&h, "merge");
	assert_true(side > 0 && merge > side);
	assert_int_equal(h.commits[merge].n_parents, 2);
	assert_int_equal(h.commits[merge].parents[0], index_of(&h, "c2 subject"));
	assert_int_equal(h.commits[merge].parents[1], side);
	assert_int_equal(h.commits[side].n_parents, 1);
	assert_int_equal(h.commits[side].parents[0], 0);
	assert_int_equal(h.commits[0].n_parents, 0);   /* its parents are outside the range */
	for (size_t i = 0; i < h.n; i++) {
		assert_int_equal(strlen(h.commits[i].sha), HISTORY_SHA_LEN);
		for (int k = 0; k < h.commits[i].n_parents; k++)
			assert_true(h.commits[i].parents[k] < (int)i);
	}
	assert_false(history_is_line(&h));
	assert_int_equal(history_edges(&h, &edges, &n_edges), 0);
	assert_int_equal(n_edges, 6);
	free(edges);
	history_free(&h);
}

static void a_line_is_a_line(void **state)
{
	struct repo *r = *state;
	struct history h;
	struct rig_err err = { 0 };

	assert_int_equal(history_load(r->dir, "c0", "c2", &h, &err), 0);
	assert_int_equal(h.n, 3);
	assert_true(history_is_line(&h));
	history_free(&h);
	/* Negative control: from the side commit the merge's first parent c2 is not after good. */
	assert_int_equal(history_load(r->dir, "side", "c4", &h, &err), 0);
	assert_false(history_is_line(&h));
	history_free(&h);
}

static void rejects_bad_ranges(void **state)
{
	struct repo *r = *state;
	struct history h;
	struct rig_err err = { 0 };

	assert_int_equal(history_load(r->dir, "c2", "c1", &h, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	assert_non_null(strstr(err.msg, "not an ancestor"));
	assert_int_equal(history_load(r->dir, "c1", "c1", &h, &err), -1);
	assert_non_null(strstr(err.msg, "no commits from good"));
	assert_int_equal(history_load(r->dir, "nosuchref", "c4", &h, &err), -1);
	assert_non_null(strstr(err.msg, "'nosuchref' is not a commit"));
	assert_int_equal(history_load("/", "c0", "c4", &h, &err), -1);
	assert_non_null(strstr(err.msg, "is not a git tree"));
}

/* The culprit is the side commit (it adds g); a commit whose tree has g fails each of its four
 * cycles with probability p. Building is a no-op. */
struct flaky_board {
	const char *dir;
	double p;
	struct bisect_rng rng;
};

static int fake_build(void *ctx, const struct history_commit *c, char *artefact, size_t size,
		      struct rig_err *err)
{
	(void)ctx;
	(void)err;
	snprintf(artefact, size, "%s", c->sha);
	return 0;
}

static int flaky_test(void *ctx, const struct history_commit *c, const char *artefact,
		      char *outcomes, size_t size, struct rig_err *err)
{
	struct flaky_board *b = ctx;
	bool bad = sh_status("git -C %s cat-file -e %s:g 2>/dev/null", b->dir, c->sha) == 0;
	int n = 0;

	(void)artefact;
	(void)err;
	for (; n < 4 && (size_t)n + 1 < size; n++)
		outcomes[n] = bad && bisect_rng_unit(&b->rng) < b->p ? OUTCOME_HANG : OUTCOME_PASS;
	outcomes[n] = '\0';
	return 0;
}

static int step_done(void *ctx, const struct bisect_step_report *s, struct rig_err *err)
{
	(void)ctx;
	(void)s;
	(void)err;
	return 0;
}

static const struct bisect_driver_ops flaky_ops = {
	.build = fake_build, .test = flaky_test, .step_done = step_done,
};

/* The subject of the commit a bisect of h (p = 0.5 estimated) names; it must find one. */
static const char *bisect_names(const struct history *h, const char *dir, uint64_t seed)
{
	struct bisect_driver_params params = { .confidence = 0.95, .q = 0.0, .max_cycles = 1000,
		.endpoint_fails = 1, .unusable_tries = 2 };
	struct flaky_board board = { .dir = dir, .p = 0.5 };
	struct bisect_driver_result res;
	struct rig_err err = { 0 };

	bisect_rng_seed(&board.rng, seed);
	assert_int_equal(bisect_drive(h, &params, &flaky_ops, &board, &res, &err), 0);
	assert_int_equal(res.verdict.status, BISECT_FOUND);
	return h->commits[res.verdict.first].subject;
}

static void bisect_names_the_branch_commit(void **state)
{
	struct repo *r = *state;
	struct history h;
	struct rig_err err = { 0 };

	assert_int_equal(history_load(r->dir, "c0", "c4", &h, &err), 0);
	for (uint64_t seed = 1; seed <= 5; seed++)
		assert_string_equal(bisect_names(&h, r->dir, seed), "side");
	history_free(&h);
}

/* Negative control: the first-parent walk rig bisect used before (c0 c1 c2 merge c4) cannot see
 * the side commit and blames the merge. */
static void first_parent_walk_blames_the_merge(void **state)
{
	struct repo *r = *state;
	struct history full, line = { 0 };
	struct rig_err err = { 0 };
	int chain[8], n = 0;

	assert_int_equal(history_load(r->dir, "c0", "c4", &full, &err), 0);
	for (int i = (int)full.n - 1; n < 8; i = full.commits[i].parents[0]) {
		chain[n++] = i;
		if (i == 0)
			break;
	}
	assert_int_equal(n, 5);
	line.n = (size_t)n;
	assert_non_null(line.commits = calloc((size_t)n, sizeof(*line.commits)));
	for (int k = 0; k < n; k++) {
		struct history_commit *c = &line.commits[k];
		*c = full.commits[chain[n - 1 - k]];
		assert_non_null(c->subject = strdup(c->subject));
		c->parents = NULL;
		c->n_parents = 0;
		if (k > 0) {
			assert_non_null(c->parents = malloc(sizeof(*c->parents)));
			c->parents[0] = k - 1;
			c->n_parents = 1;
		}
	}
	assert_true(history_is_line(&line));
	assert_string_equal(bisect_names(&line, r->dir, 1), "merge");
	history_free(&line);
	history_free(&full);
}

static void parse_rejects_garbage(void **state)
{
	struct history h = { 0 };
	struct rig_err err = { 0 };

	(void)state;
	assert_int_equal(history_parse("0123456789abcdef0123456789abcdef01234567\t\tok\n\n", &h, &err), 0);
	assert_int_equal(h.n, 1);
	assert_int_equal(history_parse("1123456789abcdef0123456789abcdef01234567\t"
				       "0123456789abcdef0123456789abcdef01234567 "
				       "2123456789abcdef0123456789abcdef01234567\tmerge\n", &h, &err), 0);
	assert_int_equal(h.n, 2);
	assert_int_equal(h.commits[1].n_parents, 1);   /* the unknown parent is left out */
	assert_int_equal(h.commits[1].parents[0], 0);
	assert_int_equal(history_parse("not-a-sha\t\tsubject\n", &h, &err), -1);
	assert_int_equal(history_parse("0123456789abcdef0123456789abcdef01234567\tno second tab\n", &h, &err), -1);
	assert_int_equal(history_parse("3123456789abcdef0123456789abcdef01234567\tnot-a-parent\ts\n", &h, &err), -1);
	assert_int_equal(h.n, 2);
	history_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lists_the_graph_parents_first),
		cmocka_unit_test(a_line_is_a_line),
		cmocka_unit_test(rejects_bad_ranges),
		cmocka_unit_test(bisect_names_the_branch_commit),
		cmocka_unit_test(first_parent_walk_blames_the_merge),
		cmocka_unit_test(parse_rejects_garbage),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
