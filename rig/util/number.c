#include "util/number.h"

#include <errno.h>
#include <stdlib.h>

int parse_number(const char *text, long long min, long long max, long long *value)
{
	char *end;

	errno = 0;
	*value = strtoll(text, &end, 10);
	if (errno || end == text || *end != '\0' || *value < min || *value > max)
		return -1;
	return 0;
}

int parse_real(const char *text, double min, double max, double *value)
{
	char *end;

	errno = 0;
	*value = strtod(text, &end);
	if (errno || end == text || *end != '\0' || !(*value >= min && *value <= max))
		return -1;
	return 0;
}
