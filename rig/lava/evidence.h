/*
 * The evidence in a LAVA job's log. The rig's test definitions (jobs/test-definitions/) judge
 * nothing: they run rig-dut commands under `rig-agent --record`, which prints each request and
 * reply exactly as the agent exchanges them with the rig during `rig run`, while the kernel's
 * messages reach the same console. Here the board's console as LAVA logged it (lava/cases.h) is
 * replayed through the console's own splitter and kernel-event parser (console/replay.h), the
 * records through the agent's own reply parser, the acknowledgements through the workloads' own
 * parser: what comes out is what the engine would have collected from the same board, suite by
 * suite, for the same judge (judge/judge.h).
 */
#ifndef RIG_LAVA_EVIDENCE_H
#define RIG_LAVA_EVIDENCE_H

#include <stdbool.h>
#include <stddef.h>

#include "console/agent_reply.h"
#include "judge/judge.h"
#include "lava/cases.h"

/* One recorded command and its reply (reply.status AGENT_OK when verified; AGENT_PENDING when
 * it never finished: the board went away or hung in it). */
struct lava_record {
	char *cmd;
	struct agent_reply reply;
};

struct lava_suite {
	char *name;                     /* LAVA's definition name: "1_cycle-000-suspend" */
	struct lava_record *records;
	size_t n_records, cap_records;
	/* the kernel's console events since the previous suite ended, up to this one's end (boot
	 * messages between suites go with the next suite, as the engine drains them with the
	 * next cycle) */
	struct judge_event *events;
	size_t n_events, cap_events;
	/* every acknowledgement seen since the writers last started, up to the board's next boot
	 * after this suite (the acknowledgements a power cut during it could lose) */
	struct acks acked;
	bool acked_closed;
};

struct lava_evidence {
	struct lava_suite *suites;
	size_t n, cap;
	size_t n_records;               /* in all: 0 for a job of test definitions that judged */
};

int lava_evidence_read(const struct lava_cases *job, struct lava_evidence *out,
		       struct rig_err *err);
void lava_evidence_free(struct lava_evidence *e);

/* Whether cmd is the board command (EV_CMD_* of judge/evidence.h), with or without arguments. */
bool lava_is_command(const char *cmd, const char *command);
/* The suite's first record from *from on of the board command (EV_CMD_*, any arguments); *from
 * is moved past it. NULL when there is none. */
const struct lava_record *lava_suite_record(const struct lava_suite *s, const char *command,
					    size_t *from);

/* A finished record's output lines. */
const char *const *lava_record_lines(const struct lava_record *r);

#endif
