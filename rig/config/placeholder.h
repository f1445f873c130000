/* {run}, {out} and {top} in board strings (boards/README.md, "Placeholders"). */
#ifndef RIG_CONFIG_PLACEHOLDER_H
#define RIG_CONFIG_PLACEHOLDER_H

#include "config/board.h"

/* A malloc'ed copy of text with every known placeholder replaced by its value in paths; a
 * placeholder whose value is NULL (or paths NULL), and any other {word}, is kept as written.
 * Returns NULL only when out of memory. */
char *placeholder_expand(const char *text, const struct board_paths *paths);

#endif
