#include "judge/acks.h"

#include "lib/ack.h"

#include <stdio.h>
#include <string.h>

int acks_feed(struct acks *a, const char *line, double host_ts, double kernel_ts)
{
	struct ack_line parsed;
	const char *id;
	uint64_t seq;
	struct ack *slot = NULL;

	/* The workloads' own parser: a line torn on the serial wire is no acknowledgement. */
	if (!ack_line_parse(line, &parsed))
		return 0;
	id = parsed.id;
	seq = parsed.seq;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->writers[i].id, id) == 0)
			slot = &a->writers[i];
	if (!slot) {
		if (a->n == ACKS_MAX)
			return 0;
		slot = &a->writers[a->n++];
		snprintf(slot->id, sizeof(slot->id), "%s", id);
		slot->seq = 0;
	}
	/* A line can arrive twice (console replay); an acknowledgement never goes backwards. */
	if (seq >= slot->seq) {
		slot->seq = seq;
		slot->host_ts = host_ts;
		slot->kernel_ts = kernel_ts;
	}
	return 1;
}

const struct ack *acks_find(const struct acks *a, const char *id)
{
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->writers[i].id, id) == 0)
			return &a->writers[i];
	return NULL;
}

void acks_reset(struct acks *a)
{
	a->n = 0;
}
