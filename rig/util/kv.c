#include "util/kv.h"

#include <float.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "util/number.h"

/* Keys start a word (words are separated by spaces or tabs); a "quoted value" is skipped whole,
 * so a key=value inside it is not a key of the line. */
static const char *find_key(const char *line, const char *key)
{
	size_t klen = strlen(key);
	const char *p = line;

	for (;;) {
		p += strspn(p, " \t");
		if (!*p)
			return NULL;
		if (strncmp(p, key, klen) == 0 && p[klen] == '=')
			return p + klen + 1;
		while (*p && *p != ' ' && *p != '\t') {
			const char *close = *p == '"' ? strchr(p + 1, '"') : NULL;

			p = close ? close + 1 : *p == '"' ? p + strlen(p) : p + 1;
		}
	}
}

bool kv_get(const char *line, const char *key, char *buf, size_t size)
{
	const char *v = find_key(line, key);
	size_t n;

	if (!v || size == 0)
		return false;
	if (*v == '"') {
		const char *end = strchr(++v, '"');

		n = end ? (size_t)(end - v) : strlen(v);
	} else {
		n = strcspn(v, " \t\r\n");
	}
	if (n >= size)
		n = size - 1;
	memcpy(buf, v, n);
	buf[n] = '\0';
	return true;
}

long kv_long(const char *line, const char *key, long fallback)
{
	char buf[32];
	long long v;

	if (!kv_get(line, key, buf, sizeof(buf)) || parse_number(buf, LONG_MIN, LONG_MAX, &v) < 0)
		return fallback;
	return (long)v;
}

double kv_double(const char *line, const char *key, double fallback)
{
	char buf[48];
	double v;

	if (!kv_get(line, key, buf, sizeof(buf)) || parse_real(buf, -DBL_MAX, DBL_MAX, &v) < 0)
		return fallback;
	return v;
}
