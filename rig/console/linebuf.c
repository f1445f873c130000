#include "console/linebuf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void linebuf_init(struct linebuf *lb)
{
	memset(lb, 0, sizeof(*lb));
}

void linebuf_free(struct linebuf *lb)
{
	free(lb->buf);
	linebuf_init(lb);
}

static int append(struct linebuf *lb, char c, const struct timespec *now)
{
	if (lb->len == 0)
		lb->first_byte = *now;
	if (lb->len + 1 > lb->cap) {
		size_t cap = lb->cap ? lb->cap * 2 : 256;
		char *p = realloc(lb->buf, cap);

		if (!p)
			return -ENOMEM;
		lb->buf = p;
		lb->cap = cap;
	}
	lb->buf[lb->len++] = c;
	return 0;
}

static int end_line(struct linebuf *lb, linebuf_emit_fn emit, void *ctx,
		    const struct timespec *now)
{
	int rc;

	if (lb->len == 0)
		lb->first_byte = *now;
	rc = emit(ctx, lb->buf ? lb->buf : "", lb->len, &lb->first_byte);
	lb->len = 0;
	return rc;
}

static int append_text(struct linebuf *lb, const char *text, const struct timespec *now)
{
	for (; *text; text++) {
		int rc = append(lb, *text, now);

		if (rc)
			return rc;
	}
	return 0;
}

/* The line reached LINEBUF_MAX and byte c does not end it: emit it marked as cut, and start
 * the next line with the continuation mark and c. */
static int cut_line(struct linebuf *lb, char c, linebuf_emit_fn emit, void *ctx,
		    const struct timespec *now)
{
	int rc = append_text(lb, LINEBUF_CUT_MARK, now);

	if (rc == 0)
		rc = end_line(lb, emit, ctx, now);
	if (rc == 0)
		rc = append_text(lb, LINEBUF_CONT_MARK, now);
	return rc ? rc : append(lb, c, now);
}

int linebuf_feed(struct linebuf *lb, const char *data, size_t n, const struct timespec *now,
		 linebuf_emit_fn emit, void *ctx)
{
	for (size_t i = 0; i < n; i++) {
		char c = data[i];
		int rc;

		if (lb->after_cr && (c == '\n' || c == '\r')) {
			/* \r\n, and the \r\r\n a tty makes of a program's \r\n, end one line. */
			lb->after_cr = c == '\r';
			continue;
		}
		lb->after_cr = false;
		if (c == '\n' || c == '\r') {
			lb->after_cr = c == '\r';
			rc = end_line(lb, emit, ctx, now);
		} else if (lb->len >= LINEBUF_MAX) {
			rc = cut_line(lb, c, emit, ctx, now);
		} else {
			rc = append(lb, c, now);
		}
		if (rc)
			return rc;
	}
	return 0;
}

int linebuf_flush(struct linebuf *lb, linebuf_emit_fn emit, void *ctx)
{
	if (lb->len == 0)
		return 0;
	return end_line(lb, emit, ctx, &lb->first_byte);
}
