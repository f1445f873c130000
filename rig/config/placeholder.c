#include "config/placeholder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/shell_quote.h"

/* Value for the placeholder starting at text ("{run}..."), with its length in *len. */
static const char *lookup(const char *text, const struct board_paths *paths, size_t *len)
{
	const struct {
		const char *name;
		const char *value;
	} known[] = {
		{ "{run}", paths ? paths->run : NULL },
		{ "{out}", paths ? paths->out : NULL },
		{ "{top}", paths ? paths->top : NULL },
	};

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		*len = strlen(known[i].name);
		if (known[i].value && strncmp(text, known[i].name, *len) == 0)
			return known[i].value;
	}
	return NULL;
}

/* Where the command line's scanner is: what quote the next character is inside. */
enum quoting { BARE, SINGLE, DOUBLE };

/* The quoting after c (c not escaped). */
static enum quoting after(enum quoting q, char c)
{
	if (q == BARE)
		return c == '\'' ? SINGLE : c == '"' ? DOUBLE : BARE;
	if (q == SINGLE)
		return c == '\'' ? BARE : SINGLE;
	return c == '"' ? BARE : DOUBLE;
}

/*
 * The value as one word where the template has its placeholder: a quote the template opened is
 * closed, the value goes in single-quoted, and the quote is reopened ("a{out}b" becomes
 * "a"'/x'"b", which sh reads as one word).
 */
static int put_shell_value(FILE *out, const char *value, enum quoting q)
{
	const char *close = q == SINGLE ? "'" : q == DOUBLE ? "\"" : "";

	if (fputs(close, out) == EOF || shell_quote(out, value) || fputs(close, out) == EOF)
		return -1;
	return 0;
}

char *placeholder_expand(const char *text, const struct board_paths *paths, bool shell)
{
	enum quoting q = BARE;
	char *result = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&result, &size);
	int rc = 0;

	if (!out)
		return NULL;
	while (*text && !rc) {
		size_t len;
		const char *value = *text == '{' ? lookup(text, paths, &len) : NULL;

		if (value) {
			rc = shell ? put_shell_value(out, value, q) : fputs(value, out) == EOF;
			text += len;
		} else if (shell && *text == '\\' && q != SINGLE && text[1]) {
			/* an escaped character is data: neither a quote nor a placeholder's brace */
			rc = fputc(text[0], out) == EOF || fputc(text[1], out) == EOF;
			text += 2;
		} else {
			q = after(q, *text);
			rc = fputc(*text++, out) == EOF;
		}
	}
	if (fclose(out) != 0 || rc) {
		free(result);
		return NULL;
	}
	return result;
}
