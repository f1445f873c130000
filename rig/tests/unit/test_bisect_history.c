/* Reading a bisect's commits from a real git repository made here (bisect/history.c), and
 * running helper programs (util/spawn.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bisect/history.h"

struct repo {
	char dir[64];
};

static void sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void sh(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	assert_int_equal(system(cmd), 0);
}

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
		cmocka_unit_test(parse_rejects_garbage),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
