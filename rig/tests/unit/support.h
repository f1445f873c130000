/* Helpers shared by the cmocka programs (include after <cmocka.h>). */
#ifndef RIG_TESTS_SUPPORT_H
#define RIG_TESTS_SUPPORT_H

#include <stdio.h>
#include <stdlib.h>

/* Project top: $RIG_TOP, or the current directory (make runs tests from the top). */
static inline char *top_path(const char *relative)
{
	const char *top = getenv("RIG_TOP");
	char *path;

	if (asprintf(&path, "%s/%s", top && *top ? top : ".", relative) < 0)
		fail_msg("out of memory");
	return path;
}

#endif
