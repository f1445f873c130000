#include "util/kv.h"

#include <stdlib.h>
#include <string.h>

static const char *find_key(const char *line, const char *key)
{
	size_t klen = strlen(key);

	for (const char *p = line; (p = strstr(p, key)) != NULL; p += klen) {
		bool at_word_start = p == line || p[-1] == ' ';

		if (at_word_start && p[klen] == '=')
			return p + klen + 1;
	}
	return NULL;
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
	char buf[32], *end;
	long v;

	if (!kv_get(line, key, buf, sizeof(buf)) || !*buf)
		return fallback;
	v = strtol(buf, &end, 10);
	return *end ? fallback : v;
}

double kv_double(const char *line, const char *key, double fallback)
{
	char buf[48], *end;
	double v;

	if (!kv_get(line, key, buf, sizeof(buf)) || !*buf)
		return fallback;
	v = strtod(buf, &end);
	return *end ? fallback : v;
}
