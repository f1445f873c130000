#include "console/splitter.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "console/kstamp.h"

/* More records than this while undecided means the line was not a payload line after all. */
#define MAX_HELD 64

struct splitter_held {
	char *text;
	struct timespec time;
};

void splitter_init(struct splitter *s, const char *marker)
{
	memset(s, 0, sizeof(*s));
	s->marker = marker;
}

static void drop_held(struct splitter *s)
{
	for (size_t i = 0; i < s->n_held; i++)
		free(s->held[i].text);
	s->n_held = 0;
}

static void set_idle(struct splitter *s)
{
	free(s->pending);
	s->pending = NULL;
	s->state = SPLIT_IDLE;
}

void splitter_free(struct splitter *s)
{
	drop_held(s);
	free(s->held);
	set_idle(s);
}

static bool starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static bool is_record(const char *line)
{
	struct kstamp ks;

	return kstamp_parse(line, &ks);
}

static int hold(struct splitter *s, const char *line, const struct timespec *t)
{
	if (!s->held && !(s->held = calloc(MAX_HELD, sizeof(*s->held))))
		return -ENOMEM;
	if (!(s->held[s->n_held].text = strdup(line)))
		return -ENOMEM;
	s->held[s->n_held++].time = *t;
	return 0;
}

static int emit_held(struct splitter *s, splitter_emit_fn emit, void *ctx)
{
	int rc = 0;

	for (size_t i = 0; i < s->n_held && rc == 0; i++)
		rc = emit(ctx, s->held[i].text, &s->held[i].time);
	drop_held(s);
	return rc;
}

static int become(struct splitter *s, int state, const char *text, size_t len, size_t cut,
		  const struct timespec *t)
{
	char *copy = strndup(text, len);

	if (!copy)
		return -ENOMEM;
	free(s->pending);
	s->pending = copy;
	s->state = state;
	s->cut = cut;
	s->pending_time = *t;
	return 0;
}

/* A line with no pending history. */
static int take_fresh(struct splitter *s, const char *line, const struct timespec *t,
		      splitter_emit_fn emit, void *ctx)
{
	struct kstamp ks;
	long col = is_record(line) ? -1 : kstamp_find(line, 1, &ks);
	int rc;

	if (col < 0)
		return emit(ctx, line, t);
	if (starts_with(line, s->marker))
		return become(s, SPLIT_UNDECIDED, line, strlen(line), (size_t)col, t);
	/* Anything else (a prompt, a plain program's output) cannot carry a record as text
	 * at a non-zero column in any way the rig relies on: split at once. */
	rc = emit(ctx, line + col, t);
	return rc ? rc : become(s, SPLIT_FRAGMENT, line, (size_t)col, 0, t);
}

/* The undecided record was injected: emit it (and any held after it), keep the fragment. */
static int settle_as_injection(struct splitter *s, splitter_emit_fn emit, void *ctx)
{
	int rc = emit(ctx, s->pending + s->cut, &s->pending_time);

	if (rc == 0)
		rc = emit_held(s, emit, ctx);
	if (rc == 0) {
		s->pending[s->cut] = '\0';
		s->state = SPLIT_FRAGMENT;
	}
	return rc;
}

static int settle_as_payload(struct splitter *s, splitter_emit_fn emit, void *ctx)
{
	int rc = emit(ctx, s->pending, &s->pending_time);

	if (rc == 0)
		rc = emit_held(s, emit, ctx);
	set_idle(s);
	return rc;
}

/* The held-back fragment outgrew SPLITTER_MAX_FRAGMENT: it goes out as a line of its own,
 * marked, and the continuation starts afresh. Without this a console server that tags every
 * line ("host: [ 1.0] ...") grew one fragment by every line's tag: quadratic time and one
 * huge garbage line at the end (40k lines: 8.9 s and 240 KB). */
static int cut_fragment(struct splitter *s, const char *rest, const struct timespec *t,
			splitter_emit_fn emit, void *ctx)
{
	size_t a = strlen(s->pending);
	size_t keep = a < SPLITTER_MAX_FRAGMENT ? a : SPLITTER_MAX_FRAGMENT;
	char *marked = malloc(keep + sizeof(SPLITTER_CUT_MARK));
	int rc;

	if (!marked)
		return -ENOMEM;
	memcpy(marked, s->pending, keep);
	memcpy(marked + keep, SPLITTER_CUT_MARK, sizeof(SPLITTER_CUT_MARK));
	rc = emit(ctx, marked, &s->pending_time);
	free(marked);
	set_idle(s);
	return rc ? rc : take_fresh(s, rest, t, emit, ctx);
}

static int join_fragment(struct splitter *s, const char *rest, const struct timespec *rest_time,
			 splitter_emit_fn emit, void *ctx)
{
	size_t a = strlen(s->pending), b = strlen(rest);
	struct timespec t = s->pending_time;
	char *joined;
	int rc;

	if (a > SPLITTER_MAX_FRAGMENT)
		return cut_fragment(s, rest, rest_time, emit, ctx);
	if (!(joined = malloc(a + b + 1)))
		return -ENOMEM;
	memcpy(joined, s->pending, a);
	memcpy(joined + a, rest, b + 1);
	set_idle(s);
	/* The continuation may itself have been interrupted again. */
	rc = take_fresh(s, joined, &t, emit, ctx);
	free(joined);
	return rc;
}

static int push_undecided(struct splitter *s, const char *line, const struct timespec *t,
			  splitter_emit_fn emit, void *ctx)
{
	int rc;

	if (is_record(line) && s->n_held < MAX_HELD)
		return hold(s, line, t);
	if (starts_with(line, s->marker)) {
		rc = settle_as_payload(s, emit, ctx);
		return rc ? rc : take_fresh(s, line, t, emit, ctx);
	}
	rc = settle_as_injection(s, emit, ctx);
	if (rc)
		return rc;
	if (is_record(line))
		return emit(ctx, line, t);
	return join_fragment(s, line, t, emit, ctx);
}

static int push_fragment(struct splitter *s, const char *line, const struct timespec *t,
			 splitter_emit_fn emit, void *ctx)
{
	int rc;

	if (is_record(line))
		return emit(ctx, line, t);
	if (starts_with(line, s->marker)) {
		rc = emit(ctx, s->pending, &s->pending_time);
		set_idle(s);
		return rc ? rc : take_fresh(s, line, t, emit, ctx);
	}
	return join_fragment(s, line, t, emit, ctx);
}

int splitter_push(struct splitter *s, const char *line, const struct timespec *host_time,
		  splitter_emit_fn emit, void *ctx)
{
	switch (s->state) {
	case SPLIT_UNDECIDED:
		return push_undecided(s, line, host_time, emit, ctx);
	case SPLIT_FRAGMENT:
		return push_fragment(s, line, host_time, emit, ctx);
	default:
		return take_fresh(s, line, host_time, emit, ctx);
	}
}

int splitter_idle(struct splitter *s, splitter_emit_fn emit, void *ctx)
{
	if (s->state != SPLIT_UNDECIDED)
		return 0;
	return settle_as_injection(s, emit, ctx);
}

int splitter_flush(struct splitter *s, splitter_emit_fn emit, void *ctx)
{
	int rc = 0;

	if (s->state == SPLIT_UNDECIDED)
		return settle_as_payload(s, emit, ctx);
	if (s->state == SPLIT_FRAGMENT)
		rc = emit(ctx, s->pending, &s->pending_time);
	set_idle(s);
	return rc;
}
