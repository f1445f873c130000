/* The journald workload (workloads/README.md, "journald-logger"): numbered entries sent to
 * systemd-journald, acknowledged only once journald has written them to its journal files
 * (read back with journalctl), never when merely sent. Pure parts here; I/O in main. */
#ifndef WORKLOADS_JOURNALD_LOGGER_H
#define WORKLOADS_JOURNALD_LOGGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/journal_record.h"

/* The MESSAGE of entry seq: "rig-jd id=<id> seq=<seq>"; also the line `journalctl -o cat` prints. */
#define JD_MESSAGE_TAG "rig-jd "
#define JD_IDENTIFIER "rig-journald"

/* One native-protocol datagram (systemd's journal socket): MESSAGE, SYSLOG_IDENTIFIER,
 * PRIORITY=6 (info: journald does not sync for it), RIG_ID, RIG_SEQ. Returns its length, or -1
 * when it does not fit in len. */
int jd_entry_format(char *buf, size_t len, const char *id, uint64_t seq);

/* Parse a read-back line for writer id; false for anything else (another id, a torn line). */
bool jd_line_parse(const char *line, const char *id, uint64_t *seq);

/* Acknowledgement policy: the highest seq read back, acknowledged at most every ack_ns and
 * never twice for the same seq. */
struct jd_acker {
	uint64_t ack_ns;
	uint64_t highest_read;
	uint64_t acked;
	uint64_t last_ack_ns;
};

/* Record that entry seq was read back from the journal. */
void jd_acker_read(struct jd_acker *a, uint64_t seq);

/* True (and the seq to acknowledge in *seq) when an acknowledgement is due at now_ns. */
bool jd_acker_due(struct jd_acker *a, uint64_t now_ns, uint64_t *seq);

#endif
