/* The one way a string reaches a shell command line as one word (placeholders in power.command). */
#ifndef RIG_UTIL_SHELL_QUOTE_H
#define RIG_UTIL_SHELL_QUOTE_H

#include <stdio.h>

/* Write s to out as one POSIX sh word standing for exactly s: single-quoted, each ' written as
 * '\'' (the only character single quotes cannot hold). Returns 0, or -1 on a write error. */
int shell_quote(FILE *out, const char *s);
/* The same word, malloc'ed; NULL only when out of memory. */
char *shell_quoted(const char *s);

#endif
