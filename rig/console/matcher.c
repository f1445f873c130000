#include "console/matcher.h"

#include <regex.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct compiled {
	regex_t *re;
	long long *deadline;      /* -1 = never */
	size_t n;                 /* compiled so far */
};

static void compiled_free(struct compiled *cp)
{
	for (size_t i = 0; i < cp->n; i++)
		regfree(&cp->re[i]);
	free(cp->re);
	free(cp->deadline);
}

static int compile(const struct console_pattern *patterns, size_t n, struct compiled *cp,
		   struct rig_err *err)
{
	long long now = console_now_ms();

	memset(cp, 0, sizeof(*cp));
	cp->re = calloc(n ? n : 1, sizeof(*cp->re));
	cp->deadline = calloc(n ? n : 1, sizeof(*cp->deadline));
	if (!cp->re || !cp->deadline)
		return rig_err_set(err, RIG_EXIT_INFRA, "console wait: out of memory");
	for (; cp->n < n; cp->n++) {
		int rc = regcomp(&cp->re[cp->n], patterns[cp->n].regex, REG_EXTENDED | REG_NOSUB);

		if (rc != 0) {
			char msg[128];

			regerror(rc, &cp->re[cp->n], msg, sizeof(msg));
			return rig_err_set(err, RIG_EXIT_USAGE, "console wait: pattern /%s/: %s",
					   patterns[cp->n].regex, msg);
		}
		cp->deadline[cp->n] = patterns[cp->n].timeout_ms < 0
				      ? -1 : now + patterns[cp->n].timeout_ms;
	}
	return 0;
}

static bool is_live(const struct compiled *cp, size_t i, long long now)
{
	return cp->deadline[i] < 0 || now < cp->deadline[i];
}

/* Time to wait for the next line: until the last live pattern expires; -1 = forever; 0 when
 * none is live any more. */
static int time_left(const struct compiled *cp, long long now)
{
	long long last = 0;

	for (size_t i = 0; i < cp->n; i++) {
		if (cp->deadline[i] < 0)
			return -1;
		if (cp->deadline[i] > last)
			last = cp->deadline[i];
	}
	return last > now ? (int)(last - now) : 0;
}

static int first_match(const struct compiled *cp, const char *text, long long now)
{
	for (size_t i = 0; i < cp->n; i++)
		if (is_live(cp, i, now) && regexec(&cp->re[i], text, 0, NULL, 0) == 0)
			return (int)i;
	return -1;
}

static int record_match(struct console_match *m, int index, const struct console_line *line,
			struct rig_err *err)
{
	if (!m)
		return index;
	m->index = index;
	m->host_time = line->host_time;
	if (!(m->line = strdup(line->text)))
		return rig_err_set(err, RIG_EXIT_INFRA, "console wait: out of memory");
	return index;
}

static int wait_loop(struct console *c, const struct compiled *cp, struct console_match *m,
		     struct rig_err *err)
{
	for (;;) {
		long long now = console_now_ms();
		int left = time_left(cp, now);
		struct console_line line;
		int rc, index;

		if (left == 0)
			return CONSOLE_WAIT_TIMEOUT;
		rc = console_next_line(c, left, &line, err);
		if (rc < 0)
			return -1;
		if (rc == 0)
			continue;
		index = first_match(cp, line.text, console_now_ms());
		if (index >= 0)
			return record_match(m, index, &line, err);
	}
}

int console_wait(struct console *c, const struct console_pattern *patterns, size_t n,
		 struct console_match *m, struct rig_err *err)
{
	struct compiled cp;
	int rc;

	if (m) {
		memset(m, 0, sizeof(*m));
		m->index = -1;
	}
	rc = compile(patterns, n, &cp, err);
	if (rc == 0)
		rc = n ? wait_loop(c, &cp, m, err) : CONSOLE_WAIT_TIMEOUT;
	compiled_free(&cp);
	return rc;
}

int console_wait_for(struct console *c, const char *regex, int timeout_ms,
		     struct console_match *m, struct rig_err *err)
{
	struct console_pattern p = { .regex = regex, .timeout_ms = timeout_ms };

	return console_wait(c, &p, 1, m, err);
}

void console_match_free(struct console_match *m)
{
	if (!m)
		return;
	free(m->line);
	m->line = NULL;
}
