/* libFuzzer harness: console bytes -> physical lines (linebuf) -> escape stripping -> kernel
 * record splitting, the path every byte from a board's console takes; then the same bytes as a
 * recorded console log through console_replay_stream (host stamps, replay). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console/ansi.h"
#include "console/linebuf.h"
#include "console/replay.h"
#include "console/splitter.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct feed {
	struct splitter sp;
	size_t lines;
};

static int logical(void *ctx, const char *line, const struct timespec *t)
{
	size_t *n = ctx;

	(void)line;
	(void)t;
	(*n)++;
	return 0;
}

static int physical(void *ctx, const char *line, size_t len, const struct timespec *t)
{
	struct feed *f = ctx;
	char *text = malloc(len + 1);
	int rc;

	if (!text)
		return -1;
	ansi_strip(line, len, text);
	rc = splitter_push(&f->sp, text, t, logical, &f->lines);
	free(text);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct timespec now = { 100, 0 };
	struct feed f = { .lines = 0 };
	struct linebuf lb;
	size_t half = size / 2, n = 0;
	FILE *in;

	/* Two chunks, so a line split across reads is exercised too. */
	linebuf_init(&lb);
	splitter_init(&f.sp, "@@RIG@@");
	if (linebuf_feed(&lb, (const char *)data, half, &now, physical, &f) == 0 &&
	    linebuf_feed(&lb, (const char *)data + half, size - half, &now, physical, &f) == 0 &&
	    linebuf_flush(&lb, physical, &f) == 0) {
		(void)splitter_idle(&f.sp, logical, &f.lines);
		(void)splitter_flush(&f.sp, logical, &f.lines);
	}
	splitter_free(&f.sp);
	linebuf_free(&lb);

	if (size > 0 && (in = fmemopen((void *)data, size, "r"))) {
		struct rig_err err = { 0 };

		(void)console_replay_stream(in, "@@RIG@@", logical, &n, &err);
		fclose(in);
	}
	return 0;
}
