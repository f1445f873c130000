#include "lava/text.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void text_free(struct text *t)
{
	free(t->s);
	t->s = NULL;
	t->len = t->cap = 0;
}

static int text_reserve(struct text *t, size_t more, struct rig_err *err)
{
	size_t need = t->len + more + 1;
	size_t cap = t->cap ? t->cap : 256;
	char *grown;

	if (need <= t->cap)
		return 0;
	while (cap < need)
		cap *= 2;
	grown = realloc(t->s, cap);
	if (!grown)
		return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
	t->s = grown;
	t->cap = cap;
	return 0;
}

int text_append(struct text *t, const char *s, size_t n, struct rig_err *err)
{
	if (text_reserve(t, n, err))
		return -1;
	memcpy(t->s + t->len, s, n);
	t->len += n;
	t->s[t->len] = '\0';
	return 0;
}

int text_puts(struct text *t, const char *s, struct rig_err *err)
{
	return text_append(t, s, strlen(s), err);
}

int text_printf(struct text *t, struct rig_err *err, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "format error");
	if (text_reserve(t, (size_t)n, err))
		return -1;
	va_start(ap, fmt);
	vsnprintf(t->s + t->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	t->len += (size_t)n;
	return 0;
}

int text_yaml_quote(struct text *t, const char *s, struct rig_err *err)
{
	const unsigned char *p;

	if (text_puts(t, "\"", err))
		return -1;
	for (p = (const unsigned char *)s; *p; p++) {
		int rc;

		if (*p == '"' || *p == '\\')
			rc = text_printf(t, err, "\\%c", *p);
		else if (*p == '\n')
			rc = text_puts(t, "\\n", err);
		else if (*p == '\t')
			rc = text_puts(t, "\\t", err);
		else if (*p < 0x20 || *p == 0x7f)
			rc = text_printf(t, err, "\\x%02x", *p);
		else
			rc = text_append(t, (const char *)p, 1, err);
		if (rc)
			return -1;
	}
	return text_puts(t, "\"", err);
}

int text_indent(struct text *t, const char *s, unsigned indent, struct rig_err *err)
{
	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);

		if (n && text_printf(t, err, "%*s", (int)indent, ""))
			return -1;
		if (text_append(t, s, n, err) || text_puts(t, "\n", err))
			return -1;
		s += n + (nl ? 1 : 0);
	}
	return 0;
}

static const char *lookup(const struct tmpl_var *vars, size_t n_vars, const char *name, size_t len)
{
	for (size_t i = 0; i < n_vars; i++)
		if (strlen(vars[i].name) == len && !strncmp(vars[i].name, name, len))
			return vars[i].value;
	return NULL;
}

static unsigned line_of(const char *tmpl, const char *at)
{
	unsigned line = 1;

	for (; tmpl < at; tmpl++)
		line += *tmpl == '\n';
	return line;
}

int text_expand(struct text *t, const char *where, const char *tmpl, const struct tmpl_var *vars,
		size_t n_vars, struct rig_err *err)
{
	const char *p = tmpl;

	for (;;) {
		const char *at = strchr(p, '@'), *end, *value;

		if (!at)
			return text_puts(t, p, err);
		if (text_append(t, p, (size_t)(at - p), err))
			return -1;
		if (at[1] == '@') {
			if (text_puts(t, "@", err))
				return -1;
			p = at + 2;
			continue;
		}
		end = strchr(at + 1, '@');
		value = end ? lookup(vars, n_vars, at + 1, (size_t)(end - at - 1)) : NULL;
		if (!value)
			return rig_err_set(err, RIG_EXIT_USAGE, "%s:%u: unknown template variable '%.*s'",
					   where, line_of(tmpl, at), end ? (int)(end - at + 1) : 1, at);
		if (text_puts(t, value, err))
			return -1;
		p = end + 1;
	}
}

int text_read_file(const char *path, char **out, struct rig_err *err)
{
	FILE *f = fopen(path, "r");
	struct text t = {0};
	char buf[4096];
	size_t n;

	if (!f)
		return rig_err_set(err, errno == ENOENT ? RIG_EXIT_USAGE : RIG_EXIT_INFRA, "%s: %s",
				   path, strerror(errno));
	if (text_puts(&t, "", err))
		goto fail;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		if (text_append(&t, buf, n, err))
			goto fail;
	if (ferror(f)) {
		rig_err_set(err, RIG_EXIT_INFRA, "%s: read error", path);
		goto fail;
	}
	fclose(f);
	*out = t.s;
	return 0;
fail:
	fclose(f);
	text_free(&t);
	return -1;
}
