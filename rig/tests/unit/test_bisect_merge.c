/* rig bisect's loop (bisect/driver.c) over a real git history read by bisect/history.c, with the
 * flaky culprit inside a merged branch: the answer must be the branch commit, not the merge.
 * The build is a no-op and the test looks for the culprit's file in the commit's tree. */
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
#include "bisect/rng.h"

struct repo {
	char dir[64];
	char culprit[41], merge[41];
};

struct flaky_board {
	const char *dir;
	double p;
	struct bisect_rng rng;
};

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

static void read_sha(const char *dir, const char *rev, char sha[41])
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "git -C %s rev-parse %s", dir, rev);
	FILE *f = popen(cmd, "r");
	assert_non_null(f);
	assert_non_null(fgets(sha, 41, f));
	assert_int_equal(strlen(sha), 40);
	assert_int_equal(pclose(f), 0);
}

/* main: c0 - c1 - c2 - c3 - merge(c3, s3) - c5; side from c1: s1 - s2 (the culprit: adds
 * "hang") - s3. Mainline c2 and c3 never contain the culprit, though they come before the merge. */
static int setup(void **state)
{
	struct repo *r = calloc(1, sizeof(*r));

	if (!r)
		return -1;
	snprintf(r->dir, sizeof(r->dir), "/tmp/test_bisect_merge.XXXXXX");
	if (!mkdtemp(r->dir))
		return -1;
	if (sh("cd %s && export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t "
	       "GIT_COMMITTER_EMAIL=t@t && git init -q -b main . && "
	       "c() { echo $1 > $1; git add -A; git commit -q -m $1; git tag $1; } && "
	       "c c0 && c c1 && c c2 && c c3 && git checkout -q -b side c1 && c s1 && "
	       "touch hang && c s2 && c s3 && git checkout -q main && "
	       "git merge -q --no-edit -m merge side && git tag merge && c c5", r->dir) != 0)
		return -1;
	read_sha(r->dir, "s2", r->culprit);
	read_sha(r->dir, "merge", r->merge);
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

static int build(void *ctx, const struct history_commit *c, char *artefact, size_t size,
		 struct rig_err *err)
{
	(void)ctx;
	(void)err;
	snprintf(artefact, size, "%s", c->sha);
	return 0;
}

/* Four cycles per step; a commit whose tree has the culprit's file hangs each with rate p. */
static int test(void *ctx, const struct history_commit *c, const char *artefact, char *outcomes,
		size_t size, struct rig_err *err)
{
	struct flaky_board *b = ctx;
	int n = 0;

	(void)artefact;
	(void)err;
	bool bad = sh("git -C %s cat-file -e %s:hang 2>/dev/null", b->dir, c->sha) == 0;
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

static const struct bisect_driver_ops ops = { .build = build, .test = test, .step_done = step_done };

static const char *drive(const struct history *h, const char *dir, uint64_t seed,
			 struct bisect_driver_result *res)
{
	struct bisect_driver_params params = { .confidence = 0.95, .q = 0.0, .max_cycles = 1000,
		.endpoint_fails = 1, .unusable_tries = 2 };
	struct flaky_board board = { .dir = dir, .p = 0.5 };
	struct rig_err err = { 0 };

	bisect_rng_seed(&board.rng, seed);
	assert_int_equal(bisect_drive(h, &params, &ops, &board, res, &err), 0);
	assert_int_equal(res->verdict.status, BISECT_FOUND);
	return h->commits[res->verdict.first].sha;
}

static void names_the_branch_commit_not_the_merge(void **state)
{
	struct repo *r = *state;
	struct history h;
	struct bisect_driver_result res;
	struct rig_err err = { 0 };

	assert_int_equal(history_load(r->dir, "c0", "c5", &h, &err), 0);
	assert_int_equal(h.n, 9);   /* c0 c1 c2 c3 s1 s2 s3 merge c5 */
	for (uint64_t seed = 1; seed <= 5; seed++)
		assert_string_equal(drive(&h, r->dir, seed, &res), r->culprit);
	print_message("culprit s2 named; last run %d cycles in %d steps\n", res.cycles, res.steps);
	history_free(&h);
}

/* Negative control: the first-parent walk rig bisect used before (c0 c1 c2 c3 merge c5) cannot
 * see s2 and blames the merge. */
static void first_parent_walk_blames_the_merge(void **state)
{
	struct repo *r = *state;
	struct history full, line = { 0 };
	struct bisect_driver_result res;
	struct rig_err err = { 0 };
	int chain[16], n = 0;

	assert_int_equal(history_load(r->dir, "c0", "c5", &full, &err), 0);
	for (int i = (int)full.n - 1; n < 16; i = full.commits[i].parents[0]) {
		chain[n++] = i;
		if (i == 0)
			break;
	}
	assert_int_equal(n, 6);
	line.n = (size_t)n;
	line.commits = calloc((size_t)n, sizeof(*line.commits));
	assert_non_null(line.commits);
	for (int k = 0; k < n; k++) {
		struct history_commit *c = &line.commits[k];
		memcpy(c->sha, full.commits[chain[n - 1 - k]].sha, sizeof(c->sha));
		c->subject = strdup("first parent");
		if (k > 0) {
			c->parents = malloc(sizeof(*c->parents));
			assert_non_null(c->parents);
			c->parents[0] = k - 1;
			c->n_parents = 1;
		}
	}
	assert_true(history_is_line(&line));
	assert_string_equal(drive(&line, r->dir, 1, &res), r->merge);
	history_free(&line);
	history_free(&full);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_the_branch_commit_not_the_merge),
		cmocka_unit_test(first_parent_walk_blames_the_merge),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
