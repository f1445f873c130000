/* The host's CPU accounting files as numbers (judge/host_cpu.h). */
#include "judge/host_cpu.h"

#include <string.h>

#include "util/number.h"

/* The next blank-separated word of *p (at most size - 1 characters), *p moved past it; false
 * when there is none or it does not fit. */
static bool next_word(const char **p, char *word, size_t size)
{
	size_t n;

	*p += strspn(*p, " \t");
	n = strcspn(*p, " \t\n");
	if (n == 0 || n >= size)
		return false;
	memcpy(word, *p, n);
	word[n] = '\0';
	*p += n;
	return true;
}

int host_schedstat_parse(const char *text, uint64_t *run_ns, uint64_t *wait_ns)
{
	char word[3][24];
	uint64_t v[3];
	const char *p = text;

	for (int i = 0; i < 3; i++)
		if (!next_word(&p, word[i], sizeof(word[i])) ||
		    parse_u64(word[i], 0, UINT64_MAX, &v[i]) < 0)
			return -1;
	/* the line ends there, with the kernel's newline: a file cut short has none, and
	 * "1 2 3 4" is another file's format, not a longer schedstat */
	p += strspn(p, " \t");
	if (strcmp(p, "\n") != 0)
		return -1;
	*run_ns = v[0];
	*wait_ns = v[1];
	return 0;
}

int host_psi_some_parse(const char *text, uint64_t *some_us)
{
	const char *line = text;

	while (line && *line) {
		const char *end = strchr(line, '\n');

		if (strncmp(line, "some ", 5) == 0) {
			const char *p = line + 5;
			char word[64];

			/* only a line the kernel finished: a "total=" cut short has no newline */
			if (!end)
				return -1;
			while (p < end && next_word(&p, word, sizeof(word)))
				if (strncmp(word, "total=", 6) == 0)
					return parse_u64(word + 6, 0, UINT64_MAX, some_us);
			return -1;
		}
		line = end ? end + 1 : NULL;
	}
	return -1;
}
