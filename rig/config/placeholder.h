/* {run}, {out} and {top} in board strings (boards/README.md, "Placeholders"). */
#ifndef RIG_CONFIG_PLACEHOLDER_H
#define RIG_CONFIG_PLACEHOLDER_H

#include <stdbool.h>

#include "config/board.h"

/*
 * A malloc'ed copy of text with every known placeholder replaced by its value in paths; a
 * placeholder whose value is NULL (or paths NULL), and any other {word}, is kept as written.
 * shell: text is a command line for `sh -c` (power.command): each value is inserted as one
 * shell-quoted word (util/shell_quote.h) whatever the quotes around the placeholder, so a path
 * holding ';', '$(...)', spaces or quotes stays data. Returns NULL only when out of memory.
 */
char *placeholder_expand(const char *text, const struct board_paths *paths, bool shell);

#endif
