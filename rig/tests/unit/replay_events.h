/* Recorded console logs (rig/tests/data/console/) replayed into the judge's events, as the
 * engine's session keeps them: kernel and agent events with their printk time, the host time
 * each line arrived, and the message without its printk stamp. Include after <cmocka.h>. */
#ifndef RIG_TESTS_REPLAY_EVENTS_H
#define RIG_TESTS_REPLAY_EVENTS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console/events.h"
#include "console/replay.h"
#include "judge/judge.h"

#define REPLAY_MAX_EVENTS 1024

struct replayed {
	struct kevent_parser *parser;
	struct judge_event ev[REPLAY_MAX_EVENTS];
	size_t n;
};

static inline int replay_on_line(void *ctx, const char *line, const struct timespec *host_time)
{
	struct replayed *r = ctx;
	struct judge_event *e = &r->ev[r->n];

	if (kevent_parse(r->parser, line, &e->ev) == 0)
		return 0;
	assert_true(r->n < REPLAY_MAX_EVENTS - 1);
	e->text = strdup(e->ev.message ? e->ev.message : line);
	e->ev.message = NULL;
	e->host_ts = (double)host_time->tv_sec + host_time->tv_nsec / 1e9;
	assert_non_null(e->text);
	r->n++;
	return 0;
}

/* Append the events of one log (several calls: a board that booted more than once). */
static inline void replay(struct replayed *r, const char *name)
{
	const char *top = getenv("RIG_TOP");
	char path[1024];
	struct rig_err err = { 0 };

	snprintf(path, sizeof(path), "%s/rig/tests/data/console/%s", top ? top : ".", name);
	assert_int_equal(kevent_parser_new("@@RIG@@", &r->parser, &err), 0);
	if (console_replay_file(path, "@@RIG@@", replay_on_line, r, &err) != 0)
		fail_msg("%s", err.msg);
	kevent_parser_free(r->parser);
}

static inline void release(struct replayed *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->ev[i].text);
}

#endif
