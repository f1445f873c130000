#include "results/table.h"

#include <stdlib.h>
#include <string.h>

struct text_table {
	size_t n_cols;
	size_t n_rows, cap_rows;
	char **cells;          /* (n_rows + 1) * n_cols, row 0 = headers */
	size_t *widths;
};

/* Display width in characters, counting each UTF-8 sequence once. */
static size_t display_width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xC0) != 0x80)
			w++;
	return w;
}

static char *clean_copy(const char *s)
{
	char *c = strdup(s ? s : "-");

	for (char *p = c; p && *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return c;
}

static int store_row(struct text_table *t, const char *const *cells)
{
	size_t base;

	if (t->n_rows == t->cap_rows) {
		size_t cap = t->cap_rows ? t->cap_rows * 2 : 16;
		char **p = reallocarray(t->cells, cap * t->n_cols, sizeof(*p));

		if (!p)
			return -1;
		t->cells = p;
		t->cap_rows = cap;
	}
	base = t->n_rows * t->n_cols;
	for (size_t i = 0; i < t->n_cols; i++) {
		t->cells[base + i] = clean_copy(cells[i]);
		if (!t->cells[base + i]) {
			while (i-- > 0)
				free(t->cells[base + i]);
			return -1;
		}
		size_t w = display_width(t->cells[base + i]);
		if (w > t->widths[i])
			t->widths[i] = w;
	}
	t->n_rows++;
	return 0;
}

struct text_table *text_table_new(const char *const *headers, size_t n_cols)
{
	struct text_table *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->n_cols = n_cols;
	t->widths = calloc(n_cols, sizeof(*t->widths));
	if (!t->widths || store_row(t, headers)) {
		text_table_free(t);
		return NULL;
	}
	return t;
}

void text_table_free(struct text_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n_rows * t->n_cols; i++)
		free(t->cells[i]);
	free(t->cells);
	free(t->widths);
	free(t);
}

int text_table_add_row(struct text_table *t, const char *const *cells)
{
	return store_row(t, cells);
}

static int print_cell(FILE *out, const char *cell, size_t width, int last)
{
	if (last)
		return fprintf(out, "%s\n", cell) < 0 ? -1 : 0;
	if (fputs(cell, out) == EOF)
		return -1;
	for (size_t w = display_width(cell); w < width + 2; w++)
		if (fputc(' ', out) == EOF)
			return -1;
	return 0;
}

int text_table_print(const struct text_table *t, FILE *out)
{
	for (size_t r = 0; r < t->n_rows; r++)
		for (size_t c = 0; c < t->n_cols; c++)
			if (print_cell(out, t->cells[r * t->n_cols + c], t->widths[c],
				       c + 1 == t->n_cols))
				return -1;
	return 0;
}
