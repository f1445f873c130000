/* A LAVA job's console replayed into evidence records, kernel events and acknowledgements. */
#include "lava/evidence.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console/base64.h"
#include "console/console.h"
#include "console/kstamp.h"
#include "console/replay.h"
#include "util/array.h"
#include "util/number.h"

#define REQUEST_PREFIX "@@RIG? "
#define SIGNAL_START "<LAVA_SIGNAL_STARTRUN "
#define SIGNAL_END "<LAVA_SIGNAL_ENDRUN "

struct reader {
	struct lava_evidence *e;
	struct kevent_parser *parser;
	struct lava_suite *current;     /* the suite running, NULL between suites */
	struct lava_record *open;       /* the record whose reply is still coming */
	/* events seen outside a suite: they go with the next one */
	struct judge_event *pending;
	size_t n_pending, cap_pending;
	struct acks acks;
	struct rig_err *err;
};

static void free_events(struct judge_event *ev, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(ev[i].text);
	free(ev);
}

static void free_suite(struct lava_suite *s)
{
	for (size_t i = 0; i < s->n_records; i++) {
		free(s->records[i].cmd);
		agent_reply_free(&s->records[i].reply);
	}
	free(s->records);
	free_events(s->events, s->n_events);
	free(s->name);
}

void lava_evidence_free(struct lava_evidence *e)
{
	for (size_t i = 0; i < e->n; i++)
		free_suite(&e->suites[i]);
	free(e->suites);
	memset(e, 0, sizeof(*e));
}

/* The acknowledgements a board going away could lose are those seen before its next boot. */
static void close_acks(struct reader *r)
{
	for (size_t i = 0; i < r->e->n; i++)
		if (!r->e->suites[i].acked_closed) {
			r->e->suites[i].acked = r->acks;
			r->e->suites[i].acked_closed = true;
		}
}

/* "<LAVA_SIGNAL_STARTRUN 1_cycle-000-suspend 1_1.1.3.5>": the definition's name. */
static int signal_name(const char *line, const char *signal, char *name, size_t size)
{
	const char *at = strstr(line, signal);
	size_t n;

	if (!at)
		return -1;
	at += strlen(signal);
	n = strcspn(at, " >");
	if (n == 0 || n >= size)
		return -1;
	memcpy(name, at, n);
	name[n] = '\0';
	return 0;
}

static int start_suite(struct reader *r, const char *name)
{
	struct lava_suite *s;

	if (array_grow((void **)&r->e->suites, &r->e->cap, r->e->n, sizeof(*r->e->suites)))
		return rig_err_set(r->err, RIG_EXIT_INFRA, "lava evidence: out of memory");
	s = &r->e->suites[r->e->n++];
	memset(s, 0, sizeof(*s));
	if (!(s->name = strdup(name)))
		return rig_err_set(r->err, RIG_EXIT_INFRA, "lava evidence: out of memory");
	/* the events since the last suite are this one's */
	s->events = r->pending;
	s->n_events = r->n_pending;
	s->cap_events = r->cap_pending;
	r->pending = NULL;
	r->n_pending = r->cap_pending = 0;
	r->current = s;
	return 0;
}

static int add_event(struct reader *r, const struct kevent *ev, const char *line,
		     const struct timespec *host_time)
{
	struct judge_event **v = r->current ? &r->current->events : &r->pending;
	size_t *n = r->current ? &r->current->n_events : &r->n_pending;
	size_t *cap = r->current ? &r->current->cap_events : &r->cap_pending;
	struct judge_event *e;

	if (array_grow((void **)v, cap, *n, sizeof(**v)))
		return rig_err_set(r->err, RIG_EXIT_INFRA, "lava evidence: out of memory");
	e = &(*v)[*n];
	e->ev = *ev;
	e->ev.message = NULL;
	e->host_ts = (double)host_time->tv_sec + (double)host_time->tv_nsec / 1e9;
	if (!(e->text = strdup(line)))
		return rig_err_set(r->err, RIG_EXIT_INFRA, "lava evidence: out of memory");
	(*n)++;
	return 0;
}

/* "@@RIG? <seq> <base64>": a recorded request opens a record in the current suite. */
static int open_record(struct reader *r, const char *line)
{
	const char *p = line + strlen(REQUEST_PREFIX);
	size_t digits = strspn(p, "0123456789");
	char number[16], cmd[3072];
	struct lava_record *rec;
	unsigned seq;

	if (digits == 0 || digits >= sizeof(number) || p[digits] != ' ')
		return 0;
	memcpy(number, p, digits);
	number[digits] = '\0';
	if (parse_uint(number, 0, UINT_MAX, &seq) < 0 ||
	    base64_decode(p + digits + 1, cmd, sizeof(cmd)) < 0 || !r->current)
		return 0;   /* not ours, or outside any test definition */
	if (array_grow((void **)&r->current->records, &r->current->cap_records, r->current->n_records,
		 sizeof(*r->current->records)))
		return rig_err_set(r->err, RIG_EXIT_INFRA, "lava evidence: out of memory");
	rec = &r->current->records[r->current->n_records++];
	agent_reply_init(&rec->reply, seq);
	if (!(rec->cmd = strdup(cmd)))
		return rig_err_set(r->err, RIG_EXIT_INFRA, "lava evidence: out of memory");
	r->open = rec;
	r->e->n_records++;
	return 0;
}

/* Every logical line of the console, in order: as the engine's session sees them. */
static int on_line(void *ctx, const char *line, const struct timespec *host_time)
{
	struct reader *r = ctx;
	struct kevent ev;
	struct kstamp ks;
	char name[128];

	if (signal_name(line, SIGNAL_START, name, sizeof(name)) == 0) {
		r->open = NULL;
		return start_suite(r, name);
	}
	if (signal_name(line, SIGNAL_END, name, sizeof(name)) == 0) {
		r->open = NULL;
		r->current = NULL;
		return 0;
	}
	(void)acks_feed(&r->acks, line, (double)host_time->tv_sec + (double)host_time->tv_nsec / 1e9,
			kstamp_parse(line, &ks) ? ks.secs : -1);
	if (kevent_parse(r->parser, line, &ev) == 1) {
		if (ev.kind == KEV_KERNEL_BOOT)
			close_acks(r);
		if (ev.kind != KEV_AGENT_BEGIN && ev.kind != KEV_AGENT_END &&
		    add_event(r, &ev, line, host_time) < 0)
			return -1;
	}
	if (strncmp(line, REQUEST_PREFIX, strlen(REQUEST_PREFIX)) == 0)
		return open_record(r, line);
	if (r->open && agent_reply_feed(&r->open->reply, CONSOLE_AGENT_MARKER, line, r->err) != 0) {
		if (r->open->reply.status == AGENT_PENDING)
			return -1;   /* out of memory */
		/* a writer started afresh: its old acknowledgements no longer apply */
		if (strncmp(r->open->cmd, EV_CMD_START_WORKLOADS " ",
			    sizeof(EV_CMD_START_WORKLOADS)) == 0 &&
		    strcmp(r->open->cmd, EV_CMD_START_WORKLOADS " none") != 0)
			acks_reset(&r->acks);
		r->open = NULL;
	}
	return 0;
}

/* The console as one text, each line with LAVA's time as the host stamp the replay reads. */
static char *console_text(const struct lava_cases *job, size_t *len)
{
	size_t size = 0, used = 0;
	char *text;

	for (size_t i = 0; i < job->n_console; i++)
		size += strlen(job->console[i].text) + 32;
	if (!(text = malloc(size + 1)))
		return NULL;
	for (size_t i = 0; i < job->n_console; i++) {
		/* Out-of-range stamps (from a hostile log) become 0, not an undefined cast. */
		double t = job->console[i].logged >= 0 && job->console[i].logged < 1e15
			   ? job->console[i].logged : 0;
		long long secs = (long long)t;

		used += (size_t)snprintf(text + used, size + 1 - used, "[%lld.%06ld] %s\n", secs,
					 (long)((t - (double)secs) * 1e6), job->console[i].text);
	}
	*len = used;
	return text;
}

int lava_evidence_read(const struct lava_cases *job, struct lava_evidence *out,
		       struct rig_err *err)
{
	struct reader r = { .e = out, .err = err };
	size_t len = 0;
	char *text;
	FILE *f;
	int rc;

	memset(out, 0, sizeof(*out));
	if (job->n_console == 0)
		return 0;
	if (!(text = console_text(job, &len)))
		return rig_err_set(err, RIG_EXIT_INFRA, "lava evidence: out of memory");
	if (kevent_parser_new(CONSOLE_AGENT_MARKER, &r.parser, err) < 0) {
		free(text);
		return -1;
	}
	f = fmemopen(text, len, "r");
	rc = f ? console_replay_stream(f, CONSOLE_AGENT_MARKER, on_line, &r, err)
	       : rig_err_set(err, RIG_EXIT_INFRA, "lava evidence: out of memory");
	if (f)
		fclose(f);
	close_acks(&r);
	free_events(r.pending, r.n_pending);
	kevent_parser_free(r.parser);
	free(text);
	if (rc)
		lava_evidence_free(out);
	return rc ? -1 : 0;
}

bool lava_is_command(const char *cmd, const char *command)
{
	size_t n = strlen(command);

	return strncmp(cmd, command, n) == 0 && (cmd[n] == '\0' || cmd[n] == ' ');
}

const struct lava_record *lava_suite_record(const struct lava_suite *s, const char *command,
					    size_t *from)
{
	for (size_t i = *from; i < s->n_records; i++)
		if (lava_is_command(s->records[i].cmd, command)) {
			*from = i + 1;
			return &s->records[i];
		}
	return NULL;
}

const char *const *lava_record_lines(const struct lava_record *r)
{
	return (const char *const *)r->reply.lines;
}
