#include "console/replay.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console/ansi.h"
#include "console/splitter.h"
#include "util/number.h"

/* "[1700000000.123456] " at the start of a log line: the host's stamp, not the kernel's
 * (kernel stamps have spaces before the seconds and far smaller values). */
static size_t host_stamp(const char *s, struct timespec *t)
{
	const char *dot = s + 1 + strspn(s + 1, "0123456789");
	const char *close = dot + (*dot == '.') + strspn(dot + (*dot == '.'), "0123456789");
	char secs_text[24], usecs_text[16];
	long long secs, usecs;

	if (s[0] != '[' || *dot != '.' || dot - s < 10 || close[0] != ']' || close[1] != ' ' ||
	    (size_t)(dot - s - 1) >= sizeof(secs_text) ||
	    (size_t)(close - dot - 1) >= sizeof(usecs_text))
		return 0;
	snprintf(secs_text, sizeof(secs_text), "%.*s", (int)(dot - s - 1), s + 1);
	snprintf(usecs_text, sizeof(usecs_text), "%.*s", (int)(close - dot - 1), dot + 1);
	if (parse_number(secs_text, 0, LLONG_MAX, &secs) < 0 ||
	    parse_number(usecs_text, 0, 999999, &usecs) < 0)
		return 0;
	t->tv_sec = (time_t)secs;
	t->tv_nsec = (long)usecs * 1000;
	return (size_t)(close + 2 - s);
}

static int replay_line(struct splitter *sp, char *raw, size_t len, replay_line_fn fn,
		       void *ctx)
{
	struct timespec t = { 0, 0 };
	char *text = malloc(len + 1);
	size_t skip;
	int rc;

	if (!text)
		return -ENOMEM;
	while (len > 0 && (raw[len - 1] == '\n' || raw[len - 1] == '\r'))
		len--;
	ansi_strip(raw, len, text);
	skip = host_stamp(text, &t);
	rc = splitter_push(sp, text + skip, &t, fn, ctx);
	free(text);
	return rc;
}

int console_replay_stream(FILE *in, const char *marker, replay_line_fn fn, void *ctx,
			  struct rig_err *err)
{
	struct splitter sp;
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;
	int rc = 0;

	splitter_init(&sp, marker);
	while (rc == 0 && (n = getline(&buf, &cap, in)) >= 0)
		rc = replay_line(&sp, buf, (size_t)n, fn, ctx);
	if (rc == -ENOMEM)
		rig_err_set(err, RIG_EXIT_INFRA, "console replay: out of memory");
	if (rc == 0 && ferror(in))
		rc = rig_err_set(err, RIG_EXIT_INFRA, "console replay: read: %s", strerror(errno));
	if (rc == 0)
		rc = splitter_flush(&sp, fn, ctx);
	splitter_free(&sp);
	free(buf);
	return rc;
}

int console_replay_file(const char *path, const char *marker, replay_line_fn fn, void *ctx,
			struct rig_err *err)
{
	FILE *f = fopen(path, "re");
	int rc;

	if (!f)
		return rig_err_set(err, RIG_EXIT_INFRA, "console replay: %s: %s", path,
				   strerror(errno));
	rc = console_replay_stream(f, marker, fn, ctx, err);
	fclose(f);
	return rc;
}
