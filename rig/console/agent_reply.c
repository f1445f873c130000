#include "console/agent_reply.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console/cksum.h"

void agent_reply_init(struct agent_reply *r, unsigned seq)
{
	memset(r, 0, sizeof(*r));
	r->seq = seq;
}

static void drop_lines(struct agent_reply *r)
{
	for (size_t i = 0; i < r->n_lines; i++)
		free(r->lines[i]);
	r->n_lines = 0;
}

void agent_reply_free(struct agent_reply *r)
{
	drop_lines(r);
	free(r->lines);
	r->lines = NULL;
	r->cap = 0;
}

const char *agent_status_name(enum agent_status status)
{
	static const char *const names[] = { "pending", "ok", "corrupt", "refused", "timeout" };

	return (unsigned)status < sizeof(names) / sizeof(names[0]) ? names[status] : "unknown";
}

static int add_line(struct agent_reply *r, const char *text, struct rig_err *err)
{
	if (r->n_lines == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 16;
		char **p = realloc(r->lines, cap * sizeof(*p));

		if (!p)
			return rig_err_set(err, RIG_EXIT_INFRA, "agent reply: out of memory");
		r->lines = p;
		r->cap = cap;
	}
	if (!(r->lines[r->n_lines] = strdup(text)))
		return rig_err_set(err, RIG_EXIT_INFRA, "agent reply: out of memory");
	r->n_lines++;
	return 0;
}

static uint32_t output_crc(const struct agent_reply *r)
{
	struct posix_cksum ck;

	posix_cksum_init(&ck);
	for (size_t i = 0; i < r->n_lines; i++) {
		posix_cksum_update(&ck, r->lines[i], strlen(r->lines[i]));
		posix_cksum_update(&ck, "\n", 1);
	}
	return posix_cksum_final(&ck);
}

static int finish(struct agent_reply *r, const char *rest)
{
	int rc, used = 0;
	size_t lines;
	uint32_t crc;

	if (sscanf(rest, "end rc=%d lines=%zu crc=%" SCNu32 "%n", &rc, &lines, &crc, &used) != 3 ||
	    rest[used] != '\0') {
		r->status = AGENT_CORRUPT;   /* an end line we cannot read: garbled */
		return 1;
	}
	r->rc = rc;
	r->lines_expected = lines;
	r->crc_expected = crc;
	r->crc_actual = output_crc(r);
	r->status = r->begun && lines == r->n_lines && crc == r->crc_actual ? AGENT_OK
									   : AGENT_CORRUPT;
	return 1;
}

/* rest = what follows "<marker> <seq> " on a line of this request. */
static int take(struct agent_reply *r, const char *rest, struct rig_err *err)
{
	if (strcmp(rest, "begin") == 0) {
		drop_lines(r);
		r->begun = true;
		return 0;
	}
	if (rest[0] == '|' && (rest[1] == ' ' || rest[1] == '\0'))
		return add_line(r, rest[1] ? rest + 2 : "", err);
	if (strncmp(rest, "end ", 4) == 0)
		return finish(r, rest);
	if (strncmp(rest, "error", 5) == 0) {
		snprintf(r->error, sizeof(r->error), "%s", rest[5] ? rest + 6 : "");
		r->status = AGENT_REFUSED;
		return 1;
	}
	return 0;   /* a garbled line of ours: the count or crc will show it */
}

int agent_reply_feed(struct agent_reply *r, const char *marker, const char *line,
		     struct rig_err *err)
{
	size_t mlen = strlen(marker);
	char *end;
	unsigned long seq;

	if (r->status != AGENT_PENDING)
		return 1;
	if (strncmp(line, marker, mlen) != 0 || line[mlen] != ' ')
		return 0;
	seq = strtoul(line + mlen + 1, &end, 10);
	if (end == line + mlen + 1 || *end != ' ' || seq != r->seq)
		return 0;
	return take(r, end + 1, err);
}

char *agent_reply_output(const struct agent_reply *r)
{
	size_t len = 0, o = 0;
	char *out;

	for (size_t i = 0; i < r->n_lines; i++)
		len += strlen(r->lines[i]) + 1;
	if (!(out = malloc(len + 1)))
		return NULL;
	for (size_t i = 0; i < r->n_lines; i++) {
		size_t n = strlen(r->lines[i]);

		memcpy(out + o, r->lines[i], n);
		o += n;
		out[o++] = '\n';
	}
	out[o] = '\0';
	return out;
}
