/* Out-of-band acknowledgements: "this writer's records up to seq are durable".
 *
 * Line format (one line per acknowledgement):
 *   rig-ack: id=<id> seq=<n> boottime_ns=<t>
 * written to /dev/kmsg (so it reaches the serial console with the kernel's timestamp, even if the
 * board never resumes) or, for tests on the host, appended to a regular file. */
#ifndef WORKLOADS_ACK_H
#define WORKLOADS_ACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/journal_record.h"
#include "lib/wl_util.h"

#define ACK_TAG "rig-ack: "
#define ACK_KMSG_PATH "/dev/kmsg"
/* KERN_NOTICE: shown on the console with loglevel=6 (the boards' cmdline), not a warning. */
#define ACK_KMSG_LEVEL "<5>"

struct ack_line {
	char id[JR_ID_MAX];
	uint64_t seq;
	uint64_t boottime_ns;
};

/* Format the line (with trailing newline) into buf. Returns what snprintf returns. */
int ack_line_format(char *buf, size_t len, const struct ack_line *ack);

/* Find an acknowledgement anywhere in line (console lines carry a timestamp prefix). */
bool ack_line_parse(const char *line, struct ack_line *out);

/* The highest acknowledged seq for id in the log at path (a console capture or an ack file).
 * *found is false (and *seq 0) when the log has none. 0 or -errno. */
int ack_log_last_seq(const char *path, const char *id, uint64_t *seq, bool *found,
		     struct wl_err *err);

struct ack_sink {
	int fd;
	bool kmsg;   /* prefix each line with ACK_KMSG_LEVEL */
};

/* Open path for appending acknowledgements; NULL means /dev/kmsg. 0 or -errno. */
int ack_sink_open(struct ack_sink *sink, const char *path, struct wl_err *err);

/* Emit one acknowledgement as a single write (one kmsg record). 0 or -errno. */
int ack_sink_emit(struct ack_sink *sink, const struct ack_line *ack);

void ack_sink_close(struct ack_sink *sink);

#endif
