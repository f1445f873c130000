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

static int append(struct history *h, const char *sha, const char *subject, size_t subject_len)
{
	struct history_commit *grown = realloc(h->commits, (h->n + 1) * sizeof(*grown));

	if (!grown)
		return -1;
	h->commits = grown;
	memcpy(grown[h->n].sha, sha, HISTORY_SHA_LEN);
	grown[h->n].sha[HISTORY_SHA_LEN] = '\0';
	if (!(grown[h->n].subject = strndup(subject, subject_len)))
		return -1;
	h->n++;
	return 0;
}

int history_parse(const char *text, struct history *h, struct rig_err *err)
{
	for (const char *line = text; *line;) {
		const char *nl = strchr(line, '\n'), *end = nl ? nl : line + strlen(line);
		const char *tab = memchr(line, '\t', (size_t)(end - line));

		if (end > line) {
			if (!tab || !is_sha(line, (size_t)(tab - line)))
				return rig_err_set(err, RIG_EXIT_INFRA, "unexpected git log line: %.*s",
						   (int)(end - line), line);
			if (append(h, line, tab + 1, (size_t)(end - tab - 1)) < 0)
				return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
		}
		line = nl ? nl + 1 : end;
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

/* Append what `git log ARGS --format=%H%x09%s` lists. */
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

/* Every commit's first parent is the one before it: good is reached from bad by first parents
 * only, so "the commit after X" means what a bisect needs it to mean. */
static bool on_first_parent_path(const char *path, const struct history *h, const char *bad_sha,
				 struct rig_err *err)
{
	char parent_rev[HISTORY_SHA_LEN + 4], parent[HISTORY_SHA_LEN + 1];

	if (h->n < 2 || strcmp(h->commits[h->n - 1].sha, bad_sha) != 0)
		return false;
	snprintf(parent_rev, sizeof(parent_rev), "%s^1", h->commits[1].sha);
	return resolve(path, parent_rev, parent, err) == 0 && strcmp(parent, h->commits[0].sha) == 0;
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
	const char *first[] = { "log", "-1", "--format=%H%x09%s", good_sha, NULL };
	const char *rest[] = { "log", "--first-parent", "--reverse", "--format=%H%x09%s", range, NULL };

	if (log_commits(path, first, out, err) < 0 || log_commits(path, rest, out, err) < 0) {
		history_free(out);
		return -1;
	}
	if (!on_first_parent_path(path, out, bad_sha, err)) {
		history_free(out);
		return rig_err_set(err, RIG_EXIT_USAGE,
				   "no first-parent path from good %.12s to bad %.12s (bad is good, or "
				   "good is reached only through a merge's second parent)", good_sha, bad_sha);
	}
	return 0;
}

void history_free(struct history *h)
{
	for (size_t i = 0; h && i < h->n; i++)
		free(h->commits[i].subject);
	if (h) {
		free(h->commits);
		h->commits = NULL;
		h->n = 0;
	}
}
