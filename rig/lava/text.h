/* Growable text and the few text operations the LAVA job renderer needs: @NAME@ templates,
 * YAML double-quoted scalars and indented blocks. */
#ifndef RIG_LAVA_TEXT_H
#define RIG_LAVA_TEXT_H

#include <stddef.h>

#include "util/err.h"

struct text {
	char *s;      /* always NUL-terminated once anything was appended */
	size_t len, cap;
};

struct tmpl_var {
	const char *name;    /* "KERNEL_URL" matches @KERNEL_URL@ */
	const char *value;   /* inserted as is */
};

void text_free(struct text *t);
int text_append(struct text *t, const char *s, size_t n, struct rig_err *err);
int text_puts(struct text *t, const char *s, struct rig_err *err);
int text_printf(struct text *t, struct rig_err *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* s as a YAML double-quoted scalar ("a\"b\n"), safe for any bytes a board or plan file holds. */
int text_yaml_quote(struct text *t, const char *s, struct rig_err *err);
/* Every line of s, each prefixed with indent spaces (empty lines stay empty). */
int text_indent(struct text *t, const char *s, unsigned indent, struct rig_err *err);
/* Replace every @NAME@ of tmpl by its value; an @NAME@ with no variable is an error naming
 * where (a typo in a template must not reach the lab). "@@" is a literal "@". */
int text_expand(struct text *t, const char *where, const char *tmpl, const struct tmpl_var *vars,
		size_t n_vars, struct rig_err *err);

/* Read a whole file into *out (malloc'ed, NUL-terminated). */
int text_read_file(const char *path, char **out, struct rig_err *err);

#endif
