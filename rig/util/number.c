#include "util/number.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Digits, with a leading '-' only when signed. */
static bool whole_decimal(const char *text, bool sign)
{
	if (sign && *text == '-')
		text++;
	return *text && strspn(text, "0123456789") == strlen(text);
}

int parse_number(const char *text, long long min, long long max, long long *value)
{
	long long v;

	if (!whole_decimal(text, true))
		return -1;
	errno = 0;
	v = strtoll(text, NULL, 10);
	if (errno || v < min || v > max)
		return -1;
	*value = v;
	return 0;
}

int parse_uint(const char *text, unsigned min, unsigned max, unsigned *value)
{
	long long v;

	if (parse_number(text, min, max, &v) < 0)
		return -1;
	*value = (unsigned)v;
	return 0;
}

int parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *value)
{
	unsigned long long v;

	if (!whole_decimal(text, false))
		return -1;
	errno = 0;
	v = strtoull(text, NULL, 10);
	if (errno || v < min || v > max)
		return -1;
	*value = v;
	return 0;
}

int parse_real(const char *text, double min, double max, double *value)
{
	char *end;
	double v;

	/* strtod would also take blanks, "inf", "nan" and hex: a number here starts with a digit,
	 * a sign or a point, and is decimal. */
	if (!*text || !strchr("0123456789-+.", *text) || strpbrk(text, "xXnN"))
		return -1;
	errno = 0;
	v = strtod(text, &end);
	if (errno || end == text || *end != '\0' || !(v >= min && v <= max))
		return -1;
	*value = v;
	return 0;
}
