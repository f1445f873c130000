#include "config/placeholder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

char *placeholder_expand(const char *text, const struct board_paths *paths)
{
	char *result = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&result, &size);

	if (!out)
		return NULL;
	while (*text) {
		size_t len;
		const char *value = *text == '{' ? lookup(text, paths, &len) : NULL;

		if (value) {
			fputs(value, out);
			text += len;
		} else {
			fputc(*text++, out);
		}
	}
	if (fclose(out) != 0) {
		free(result);
		return NULL;
	}
	return result;
}
