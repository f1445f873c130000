/* The workloads' out-of-band acknowledgements seen on the console: journal-writer writes
 *   rig-ack: id=<writer> seq=<n> boottime_ns=<t>
 * to /dev/kmsg (format and parser: workloads/lib/ack.h, the only one), so the console holds the
 * last acknowledged record of every writer even when the board never comes back. This table
 * keeps the highest per writer. */
#ifndef RIG_JUDGE_ACKS_H
#define RIG_JUDGE_ACKS_H

#include <stddef.h>
#include <stdint.h>

#define ACKS_MAX 32

struct ack {
	char id[64];
	uint64_t seq;
	double host_ts;      /* when the line arrived */
	double kernel_ts;    /* printk time of the line, -1 if none */
};

struct acks {
	struct ack writers[ACKS_MAX];
	size_t n;
};

/* Feed one console line; returns 1 if it was an acknowledgement (table updated), 0 if not. */
int acks_feed(struct acks *a, const char *line, double host_ts, double kernel_ts);
const struct ack *acks_find(const struct acks *a, const char *id);
void acks_reset(struct acks *a);

#endif
