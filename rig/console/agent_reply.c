#include "console/agent_reply.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console/cksum.h"
#include "util/number.h"

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
	static const char *const names[] = { "pending", "ok", "corrupt", "refused", "timeout",
					      "too long" };

	return (unsigned)status < sizeof(names) / sizeof(names[0]) ? names[status] : "unknown";
}

static int add_line(struct agent_reply *r, const char *text, struct rig_err *err)
{
	size_t len = strlen(text) + 1;

	if (len > AGENT_REPLY_MAX_BYTES - r->bytes) {
		snprintf(r->error, sizeof(r->error), "reply cut after %zu lines: over %d bytes",
			 r->n_lines, AGENT_REPLY_MAX_BYTES);
		r->status = AGENT_TOO_LONG;
		return 1;
	}
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
	r->bytes += len;
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

/* "KEY=N" at *p, then a blank or the end: N read whole and range-checked (util/number). */
static int field(const char **p, const char *key, long long min, long long max, long long *v)
{
	size_t klen = strlen(key), n;
	char text[24];

	if (strncmp(*p, key, klen) != 0 || (*p)[klen] != '=')
		return -1;
	*p += klen + 1;
	n = strcspn(*p, " ");
	if (n >= sizeof(text))
		return -1;
	memcpy(text, *p, n);
	text[n] = '\0';
	*p += n + ((*p)[n] == ' ');
	return parse_number(text, min, max, v);
}

static int finish(struct agent_reply *r, const char *rest)
{
	const char *p = rest + strlen("end ");
	long long rc, lines, crc;

	if (field(&p, "rc", INT_MIN, INT_MAX, &rc) < 0 ||
	    field(&p, "lines", 0, LLONG_MAX, &lines) < 0 ||
	    field(&p, "crc", 0, UINT32_MAX, &crc) < 0 || *p != '\0' || p[-1] == ' ') {
		r->status = AGENT_CORRUPT;   /* an end line we cannot read: garbled */
		return 1;
	}
	r->rc = (int)rc;
	r->lines_expected = (size_t)lines;
	r->crc_expected = (uint32_t)crc;
	r->crc_actual = output_crc(r);
	r->status = r->begun && r->lines_expected == r->n_lines && r->crc_expected == r->crc_actual
		    ? AGENT_OK : AGENT_CORRUPT;
	return 1;
}

/* rest = what follows "<marker> <seq> " on a line of this request. */
static int take(struct agent_reply *r, const char *rest, struct rig_err *err)
{
	if (strcmp(rest, "begin") == 0) {
		drop_lines(r);
		r->bytes = 0;
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
	size_t mlen = strlen(marker), n;
	char text[16];
	unsigned seq;

	if (r->status != AGENT_PENDING)
		return 1;
	if (strncmp(line, marker, mlen) != 0 || line[mlen] != ' ')
		return 0;
	line += mlen + 1;
	n = strcspn(line, " ");
	if (line[n] != ' ' || n >= sizeof(text))
		return 0;
	memcpy(text, line, n);
	text[n] = '\0';
	if (parse_uint(text, 0, UINT_MAX, &seq) < 0 || seq != r->seq)
		return 0;
	return take(r, line + n + 1, err);
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
