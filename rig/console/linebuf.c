#include "console/linebuf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A line this long without a terminator is cut so a stream of junk cannot grow memory. */
#define LINEBUF_MAX (64 * 1024)

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
			rc = end_line(lb, emit, ctx, now);
			if (rc == 0)
				rc = append(lb, c, now);
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
