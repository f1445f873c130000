/* Assembles console bytes into physical lines ended by \n, \r\n or a lone \r, remembering
 * when each line's first byte arrived. */
#ifndef RIG_CONSOLE_LINEBUF_H
#define RIG_CONSOLE_LINEBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

/* A line this long without a terminator is cut so a stream of junk cannot grow memory. The
 * cut is marked on both sides, like the splitter's fragment cut: the part emitted ends with
 * LINEBUF_CUT_MARK and the rest starts a line with LINEBUF_CONT_MARK, so evidence never joins
 * or splits silently (an agent reply line cut in two fails its checksum, it is not taken for
 * two good lines; the rest cannot pass for an agent line of its own). */
#define LINEBUF_MAX (64 * 1024)
#define LINEBUF_CUT_MARK " [rig: line cut]"
#define LINEBUF_CONT_MARK "[rig: line cut] "

/* Called once per complete line (without its terminator); a non-zero return stops feeding
 * and is passed back to the caller of linebuf_feed(). */
typedef int (*linebuf_emit_fn)(void *ctx, const char *line, size_t len,
			       const struct timespec *first_byte);

struct linebuf {
	char *buf;
	size_t len, cap;
	struct timespec first_byte;
	bool after_cr;        /* swallow the \n (or extra \r) that follows a \r */
};

void linebuf_init(struct linebuf *lb);
void linebuf_free(struct linebuf *lb);
int linebuf_feed(struct linebuf *lb, const char *data, size_t n, const struct timespec *now,
		 linebuf_emit_fn emit, void *ctx);
/* Emit the unterminated tail, if any (end of stream). */
int linebuf_flush(struct linebuf *lb, linebuf_emit_fn emit, void *ctx);

#endif
