/* Stall analysis: what the writers' operations did around a frozen window
 * [freeze_ns, thaw_ns] (CLOCK_BOOTTIME ns, as ftrace reports with trace_clock=boot). */
#ifndef WORKLOADS_STALL_REPORT_H
#define WORKLOADS_STALL_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/telemetry.h"

struct stall_window {
	uint64_t freeze_ns;
	uint64_t thaw_ns;
};

struct stall_summary {
	uint64_t ops;                     /* operations the writer completed */
	uint64_t retained;                /* of which the telemetry file still holds */
	uint64_t longest_ns;              /* longest completed operation */
	uint64_t window_longest_ns;       /* longest retained operation overlapping the window: the
	                                   * stall this freeze caused */
	uint64_t completed_inside_window; /* retained ops that ended within [freeze, thaw] */
	uint64_t wrote_while_frozen;      /* of those, the ones that also started after freeze: a
	                                   * write that went through on a frozen filesystem (an op
	                                   * that started before freeze may have stored its record
	                                   * before it and only been preempted until later) */
	uint64_t blocked_across_window;   /* retained ops in flight at thaw (started before thaw,
	                                   * ended after it): held by the freeze; plus the op still
	                                   * in flight when the file was read, if it started before thaw */
	uint64_t spanning_window;         /* of those, the ones that started before freeze */
	uint64_t errors;                  /* failed operations, over the whole run */
	uint64_t errors_after_thaw;       /* retained failed ops that ended at or after thaw */
	bool inflight;                    /* an operation had not completed when the file was read */
	uint64_t inflight_start_ns;
};

/* Summarise snap against window (freeze_ns <= thaw_ns). */
void stall_analyse(const struct tel_snapshot *snap, const struct stall_window *window,
		   struct stall_summary *out);

/* One line, no newline: "ops=... longest_ms=... completed_inside_window=... blocked_across_window=...
 * errors=... errors_after_thaw=... spanning_window=... retained=... inflight=..." or the same keys
 * as a JSON object.
 * Returns what snprintf returns. */
int stall_format(const struct stall_summary *sum, bool json, char *buf, size_t len);

/* One retained operation, no newline:
 * "op=<id> kind=<store|grow|msync|write|fdatasync> seq=<n> start_ns=<t> end_ns=<t> ms=<x> err=<errno>" */
int stall_format_entry(const struct tel_entry *entry, char *buf, size_t len);

/* ---- evidence: the operations themselves, for a judge elsewhere (the rig) ----------------
 *
 * `stall-report --dump` prints a writer's telemetry as text the rig reads back (rig-dut
 * stall-ops; the rig's judge then runs stall_analyse() over each filesystem's own window):
 *   tel ops=N errors=N longest_ns=N inflight_start_ns=N retained=N
 *   op start_ns=N end_ns=N err=N kind=NAME seq=N           (one per relevant operation)
 * Relevant to a collection window [from, to] that holds every window a judgement may use:
 * operations overlapping it, and failed ones ending at or after from. */

bool stall_entry_relevant(const struct tel_entry *e, const struct stall_window *collect);
int stall_format_header(const struct tel_snapshot *snap, char *buf, size_t len);
int stall_format_op(const struct tel_entry *e, char *buf, size_t len);
/* Read those lines back (anywhere in line: the rig's lines carry a "writer=ID " prefix). The
 * header fills hdr's total_ops, error_total, longest_ns, inflight_start_ns; false when line is
 * not one, or torn. */
bool stall_parse_header(const char *line, struct tel_header *hdr);
bool stall_parse_op(const char *line, struct tel_entry *e);

#endif
