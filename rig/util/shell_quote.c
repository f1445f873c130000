#include "util/shell_quote.h"

int shell_quote(FILE *out, const char *s)
{
	int rc = fputc('\'', out) == EOF;

	for (; *s && !rc; s++)
		rc = *s == '\'' ? fputs("'\\''", out) == EOF : fputc(*s, out) == EOF;
	if (!rc)
		rc = fputc('\'', out) == EOF;
	return rc ? -1 : 0;
}
