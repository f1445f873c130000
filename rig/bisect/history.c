#include "bisect/history.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/process.h"

/* git's answers (a commit list, a sha) are small; anything bigger is not git being sane. */
#define GIT_OUTPUT_MAX ((size_t)64 << 20)

/* git -C path ARGS...; stdout into *out (NULL to discard). git's own stderr is dropped: every
 * failure is reported here, in terms of the bisect. */
static int git(const char *path, const char *const *args, int *exit_code, char **out,
	       struct rig_err *err)
{
	char *argv[16] = { "git", "-C", (char *)path };
	size_t n = 3;

	for (; *args && n < sizeof(argv) / sizeof(argv[0]) - 1; args++)
		argv[n++] = (char *)*args;
	argv[n] = NULL;
	struct process_spec spec = { .argv = argv, .out = PROCESS_IO_CAPTURE };
	struct process_result res;

	if (process_run(&spec, 0, 0, GIT_OUTPUT_MAX, &res, err) < 0)
		return -1;
	if (res.out_cut) {   /* a history read in part would bisect the wrong range */
		process_result_free(&res);
		return rig_err_set(err, RIG_EXIT_INFRA, "git -C %s %s: more than %zu MiB of output",
				   path, argv[3] ? argv[3] : "", GIT_OUTPUT_MAX >> 20);
	}
	*exit_code = res.exit_code;
	if (out) {
		*out = res.out;
		res.out = NULL;
	}
	process_result_free(&res);
	return 0;
}

static bool is_sha(const char *s, size_t len)
{
	if (len != HISTORY_SHA_LEN)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!strchr("0123456789abcdef", s[i]))
			return false;
	return true;
}

/* Index of sha among h's commits, or -1. Searched from the newest: a parent is most often the
 * commit just before, so a long range costs about one comparison per parent, not n. */
static int find_commit(const struct history *h, const char *sha)
{
	for (size_t i = h->n; i-- > 0;)
		if (memcmp(h->commits[i].sha, sha, HISTORY_SHA_LEN) == 0)
			return (int)i;
	return -1;
}

/* Space-separated parent shas in [p, end): those already listed become indices. */
static int add_parents(struct history_commit *c, const struct history *h, const char *p,
		       const char *end)
{
	while (p < end) {
		size_t len = strcspn(p, " ");
		if (p + len > end)
			len = (size_t)(end - p);
		if (len && !is_sha(p, len))
			return 1;
		int idx = len ? find_commit(h, p) : -1;
		if (idx >= 0) {
			int *grown = realloc(c->parents, (size_t)(c->n_parents + 1) * sizeof(*grown));
			if (!grown)
				return -1;
			c->parents = grown;
			c->parents[c->n_parents++] = idx;
		}
		p += len + (p + len < end);
	}
	return 0;
}

/* 0, -1 out of memory, 1 a malformed parent list. */
static int append(struct history *h, const char *sha, const char *parents, const char *parents_end,
		  const char *subject, size_t subject_len)
{
	struct history_commit *grown = realloc(h->commits, (h->n + 1) * sizeof(*grown));

	if (!grown)
		return -1;
	h->commits = grown;
	struct history_commit *c = &grown[h->n];
	memset(c, 0, sizeof(*c));
	memcpy(c->sha, sha, HISTORY_SHA_LEN);
	int rc = add_parents(c, h, parents, parents_end);
	if (rc != 0 || !(c->subject = strndup(subject, subject_len))) {
		free(c->parents);
		return rc ? rc : -1;
	}
	h->n++;
	return 0;
}

int history_parse(const char *text, struct history *h, struct rig_err *err)
{
	for (const char *line = text; *line;) {
		const char *nl = strchr(line, '\n'), *end = nl ? nl : line + strlen(line);
		const char *tab = memchr(line, '\t', (size_t)(end - line));
		const char *tab2 = tab ? memchr(tab + 1, '\t', (size_t)(end - tab - 1)) : NULL;

		if (end > line) {
			int rc = !tab2 || !is_sha(line, (size_t)(tab - line))
					 ? 1 : append(h, line, tab + 1, tab2, tab2 + 1, (size_t)(end - tab2 - 1));
			if (rc > 0)
				return rig_err_set(err, RIG_EXIT_INFRA, "unexpected git log line: %.*s",
						   (int)(end - line), line);
			if (rc < 0)
				return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
		}
		line = nl ? nl + 1 : end;
	}
	return 0;
}

bool history_is_line(const struct history *h)
{
	for (size_t i = 1; i < h->n; i++)
		if (h->commits[i].n_parents != 1 || h->commits[i].parents[0] != (int)i - 1)
			return false;
	return true;
}

int history_edges(const struct history *h, int **edges, int *n_edges)
{
	size_t count = 0;

	for (size_t i = 0; i < h->n; i++)
		count += (size_t)h->commits[i].n_parents;
	*n_edges = 0;
	if (!(*edges = malloc((count ? count : 1) * 2 * sizeof(**edges))))
		return -1;
	for (size_t i = 0; i < h->n; i++) {
		for (int k = 0; k < h->commits[i].n_parents; k++) {
			(*edges)[2 * *n_edges] = (int)i;
			(*edges)[2 * *n_edges + 1] = h->commits[i].parents[k];
			(*n_edges)++;
		}
	}
	return 0;
}

/* Full sha of a commit-ish, or a usage error naming it. */
static int resolve(const char *path, const char *rev, char sha[HISTORY_SHA_LEN + 1],
		   struct rig_err *err)
{
	char spec[512], *out = NULL;
	int code;

	snprintf(spec, sizeof(spec), "%s^{commit}", rev);
	const char *args[] = { "rev-parse", "--verify", "-q", spec, NULL };

	if (git(path, args, &code, &out, err) < 0)
		return -1;
	if (code != 0 || !is_sha(out, strcspn(out, "\n"))) {
		free(out);
		return rig_err_set(err, RIG_EXIT_USAGE, "'%s' is not a commit in %s", rev, path);
	}
	memcpy(sha, out, HISTORY_SHA_LEN);
	sha[HISTORY_SHA_LEN] = '\0';
	free(out);
	return 0;
}

/* Append what `git log ARGS --format=%H%x09%P%x09%s` lists. */
static int log_commits(const char *path, const char *const *args, struct history *h,
		       struct rig_err *err)
{
	char *out = NULL;
	int code, rc;

	if (git(path, args, &code, &out, err) < 0)
		return -1;
	rc = code == 0 ? history_parse(out, h, err)
		       : rig_err_set(err, RIG_EXIT_INFRA, "git log failed in %s (exit %d)", path, code);
	free(out);
	return rc;
}

static int check_tree(const char *path, struct rig_err *err)
{
	const char *args[] = { "rev-parse", "--git-dir", NULL };
	int code;

	if (git(path, args, &code, NULL, err) < 0)
		return -1;
	return code == 0 ? 0 : rig_err_set(err, RIG_EXIT_USAGE, "%s is not a git tree", path);
}

static int check_ancestry(const char *path, const char *good, const char *bad, struct rig_err *err)
{
	const char *args[] = { "merge-base", "--is-ancestor", good, bad, NULL };
	int code;

	if (git(path, args, &code, NULL, err) < 0)
		return -1;
	if (code == 1)
		return rig_err_set(err, RIG_EXIT_USAGE, "good %.12s is not an ancestor of bad %.12s",
				   good, bad);
	return code == 0 ? 0 : rig_err_set(err, RIG_EXIT_INFRA, "git merge-base failed (exit %d)", code);
}

/* The range must end at bad, and bad must be the one commit with no child in it: --topo-order
 * --reverse puts every parent before its children, so the newest is last. */
static bool ends_at_bad(const struct history *h, const char *bad_sha)
{
	return h->n >= 2 && strcmp(h->commits[h->n - 1].sha, bad_sha) == 0;
}

int history_load(const char *path, const char *good, const char *bad, struct history *out,
		 struct rig_err *err)
{
	char good_sha[HISTORY_SHA_LEN + 1], bad_sha[HISTORY_SHA_LEN + 1], range[2 * HISTORY_SHA_LEN + 3];

	memset(out, 0, sizeof(*out));
	if (check_tree(path, err) < 0 || resolve(path, good, good_sha, err) < 0 ||
	    resolve(path, bad, bad_sha, err) < 0 || check_ancestry(path, good_sha, bad_sha, err) < 0)
		return -1;
	snprintf(range, sizeof(range), "%s..%s", good_sha, bad_sha);
	const char *first[] = { "log", "-1", "--format=%H%x09%P%x09%s", good_sha, NULL };
	const char *rest[] = { "log", "--topo-order", "--reverse", "--format=%H%x09%P%x09%s", range,
			       NULL };

	if (log_commits(path, first, out, err) < 0 || log_commits(path, rest, out, err) < 0) {
		history_free(out);
		return -1;
	}
	if (!ends_at_bad(out, bad_sha)) {
		history_free(out);
		return rig_err_set(err, RIG_EXIT_USAGE, "no commits from good %.12s to bad %.12s",
				   good_sha, bad_sha);
	}
	return 0;
}

void history_free(struct history *h)
{
	for (size_t i = 0; h && i < h->n; i++) {
		free(h->commits[i].subject);
		free(h->commits[i].parents);
	}
	if (h) {
		free(h->commits);
		h->commits = NULL;
		h->n = 0;
	}
}
