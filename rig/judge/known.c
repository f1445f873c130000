/* Known issues applied to a verdict: whether every failure message of it is explained by an
 * active entry of the known-issues file (config/known.h). Pure: no I/O. */
#include "judge/known.h"

#include <string.h>

static bool same_or_any(const char *wanted, const char *actual)
{
	return !wanted || (actual && strcmp(wanted, actual) == 0);
}

/* A bounded entry needs a kernel version to compare: an unknown one ("" or NULL) never fits. */
static bool kernel_in_range(const struct known_issue *issue, const char *version)
{
	if (!issue->min_kernel && !issue->max_kernel)
		return true;
	if (!version || !known_has_version(version))
		return false;
	if (issue->min_kernel && known_version_cmp(version, issue->min_kernel) < 0)
		return false;
	return !issue->max_kernel || known_version_cmp(version, issue->max_kernel) <= 0;
}

static bool entry_explains(const struct known_issue *issue, const char *verdict,
			   const char *filesystem, const char *kernel_version, int knob,
			   const char *message)
{
	if (!same_or_any(issue->verdict, verdict) || !same_or_any(issue->filesystem, filesystem))
		return false;
	if (!kernel_in_range(issue, kernel_version))
		return false;
	if (issue->knob != -1 && issue->knob != knob)
		return false;
	if (!issue->has_re)
		return true;
	return message && regexec(&issue->re, message, 0, NULL, 0) == 0;
}

const struct known_issue *known_match(const struct known_issues *k, const char *verdict,
				      const char *filesystem, const char *kernel_version, int knob,
				      const char *message)
{
	if (!k)
		return NULL;
	for (size_t i = 0; i < k->n; i++)
		if (entry_explains(&k->items[i], verdict, filesystem, kernel_version, knob, message))
			return &k->items[i];
	return NULL;
}

int known_classify(const struct known_issues *k, const char *verdict, const char *filesystem,
		   const char *kernel_version, int knob, const char *const *messages, size_t n,
		   const char **id_out)
{
	const struct known_issue *first = NULL;

	if (!k || n == 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		const struct known_issue *issue =
			known_match(k, verdict, filesystem, kernel_version, knob, messages[i]);

		if (!issue)
			return 0;
		if (!first)
			first = issue;
	}
	if (id_out)
		*id_out = first->id;
	return 1;
}

