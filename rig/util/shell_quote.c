#include "util/shell_quote.h"

#include <stdlib.h>

int shell_quote(FILE *out, const char *s)
{
	int rc = fputc('\'', out) == EOF;

	for (; *s && !rc; s++)
		rc = *s == '\'' ? fputs("'\\''", out) == EOF : fputc(*s, out) == EOF;
	if (!rc)
		rc = fputc('\'', out) == EOF;
	return rc ? -1 : 0;
}

char *shell_quoted(const char *s)
{
	char *word = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&word, &size);
	int rc;

	if (!out)
		return NULL;
	rc = shell_quote(out, s);
	if (fclose(out) != 0 || rc) {
		free(word);
		return NULL;
	}
	return word;
}
