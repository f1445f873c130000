#include "util/text_copy.h"

#include <stdlib.h>
#include <string.h>

char *text_copy(const char *text, bool *oom)
{
	char *c = text ? strdup(text) : NULL;

	if (text && !c)
		*oom = true;
	return c;
}
