/* Copying text read from the results database into structures that outlive the row. */
#ifndef RIG_UTIL_TEXT_COPY_H
#define RIG_UTIL_TEXT_COPY_H

#include <stdbool.h>

/* A malloc'ed copy of text, or NULL for NULL (SQL NULL stays NULL); a copy that fails sets
 * *oom, so a row's fields can all be copied before one check. */
char *text_copy(const char *text, bool *oom);

#endif
