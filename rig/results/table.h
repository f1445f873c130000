/* Aligned plain-text tables: cells are collected as strings, widths computed, then printed. */
#ifndef RIG_RESULTS_TABLE_H
#define RIG_RESULTS_TABLE_H

#include <stddef.h>
#include <stdio.h>

struct text_table;

/* headers: n_cols column titles. Returns NULL when out of memory. */
struct text_table *text_table_new(const char *const *headers, size_t n_cols);
void text_table_free(struct text_table *t);
/*
 * Append a row of n_cols cells (NULL prints as "-"). Control characters are shown as '?' so
 * a stored string can never break the layout or drive the terminal.
 */
int text_table_add_row(struct text_table *t, const char *const *cells);
/* The last column is not padded, so a long detail text does not widen the others. */
int text_table_print(const struct text_table *t, FILE *out);

#endif
