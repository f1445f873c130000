#include "console/kstamp.h"

#include <ctype.h>
#include <string.h>

static size_t skip_spaces(const char *s, size_t i)
{
	while (s[i] == ' ')
		i++;
	return i;
}

/* "[  T123]" or "[   C1]" after the time stamp. */
static size_t caller_len(const char *s)
{
	size_t i;

	if (s[0] != '[')
		return 0;
	i = skip_spaces(s, 1);
	if ((s[i] != 'T' && s[i] != 'C') || !isdigit((unsigned char)s[i + 1]))
		return 0;
	for (i++; isdigit((unsigned char)s[i]); i++)
		;
	return s[i] == ']' ? i + 1 : 0;
}

/* Length of "[ secs.usecs]" (no trailing space) at s, or 0; sets *secs. */
static size_t time_len(const char *s, double *secs)
{
	size_t i, whole_start, frac_start;
	double whole = 0, frac = 0, scale = 1;

	if (s[0] != '[')
		return 0;
	i = skip_spaces(s, 1);
	for (whole_start = i; isdigit((unsigned char)s[i]); i++)
		whole = whole * 10 + (s[i] - '0');
	if (i == whole_start || s[i] != '.')
		return 0;
	for (frac_start = ++i; isdigit((unsigned char)s[i]); i++) {
		scale /= 10;
		frac += (s[i] - '0') * scale;
	}
	if (i - frac_start != 6 || s[i] != ']')
		return 0;
	*secs = whole + frac;
	return i + 1;
}

static size_t prefix_len(const char *s, double *secs)
{
	size_t len = time_len(s, secs);

	if (len)
		len += caller_len(s + len);
	return len;
}

bool kstamp_parse(const char *s, struct kstamp *ks)
{
	double secs;
	size_t len = prefix_len(s, &secs);

	if (!len || (s[len] != ' ' && s[len] != '\0'))
		return false;
	ks->secs = secs;
	ks->len = len + (s[len] == ' ');
	return true;
}

long kstamp_find(const char *s, size_t from, struct kstamp *ks)
{
	size_t n = strlen(s);

	for (size_t i = from; i < n; i++) {
		double secs;
		size_t len;

		if (s[i] != '[')
			continue;
		len = prefix_len(s + i, &secs);
		if (len && s[i + len] == ' ') {
			ks->secs = secs;
			ks->len = len + 1;
			return (long)i;
		}
	}
	return -1;
}
