#include "lib/stall_report.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static void count_entry(const struct tel_entry *e, const struct stall_window *w,
			struct stall_summary *out)
{
	uint64_t duration = e->end_ns > e->start_ns ? e->end_ns - e->start_ns : 0;

	if (duration > out->longest_ns)
		out->longest_ns = duration;
	if (e->start_ns < w->thaw_ns && e->end_ns > w->freeze_ns && duration > out->window_longest_ns)
		out->window_longest_ns = duration;
	if (e->end_ns >= w->freeze_ns && e->end_ns <= w->thaw_ns) {
		out->completed_inside_window++;
		if (e->start_ns >= w->freeze_ns)
			out->wrote_while_frozen++;
	}
	if (e->start_ns < w->thaw_ns && e->end_ns > w->thaw_ns) {
		out->blocked_across_window++;
		if (e->start_ns < w->freeze_ns)
			out->spanning_window++;
	}
	if (e->err != 0 && e->end_ns >= w->thaw_ns)
		out->errors_after_thaw++;
}

void stall_analyse(const struct tel_snapshot *snap, const struct stall_window *window,
		   struct stall_summary *out)
{
	memset(out, 0, sizeof(*out));
	out->ops = snap->hdr.total_ops;
	out->retained = snap->count;
	out->errors = snap->hdr.error_total;
	/* The header remembers the longest op even if its entry has been overwritten. */
	out->longest_ns = snap->hdr.longest_ns;
	for (size_t i = 0; i < snap->count; i++)
		count_entry(&snap->entries[i], window, out);
	out->inflight_start_ns = snap->hdr.inflight_start_ns;
	out->inflight = out->inflight_start_ns != 0;
	/* Still blocked when the file was read: it was certainly in flight at thaw. */
	if (out->inflight && out->inflight_start_ns < window->thaw_ns) {
		out->blocked_across_window++;
		if (out->inflight_start_ns < window->freeze_ns)
			out->spanning_window++;
	}
}

int stall_format(const struct stall_summary *sum, bool json, char *buf, size_t len)
{
	double longest_ms = (double)sum->longest_ns / 1e6;

	if (json)
		return snprintf(buf, len,
				"{\"ops\":%" PRIu64 ",\"longest_ms\":%.3f,\"completed_inside_window\":%" PRIu64
				",\"blocked_across_window\":%" PRIu64 ",\"errors\":%" PRIu64
				",\"errors_after_thaw\":%" PRIu64 ",\"spanning_window\":%" PRIu64
				",\"retained\":%" PRIu64 ",\"inflight\":%d,\"wrote_while_frozen\":%" PRIu64 ",\"window_longest_ms\":%.3f}",
				sum->ops, longest_ms, sum->completed_inside_window, sum->blocked_across_window,
				sum->errors, sum->errors_after_thaw, sum->spanning_window, sum->retained,
				sum->inflight ? 1 : 0, sum->wrote_while_frozen,
				(double)sum->window_longest_ns / 1e6);
	return snprintf(buf, len,
			"ops=%" PRIu64 " longest_ms=%.3f completed_inside_window=%" PRIu64
			" blocked_across_window=%" PRIu64 " errors=%" PRIu64 " errors_after_thaw=%" PRIu64
			" spanning_window=%" PRIu64 " retained=%" PRIu64 " inflight=%d"
			" wrote_while_frozen=%" PRIu64 " window_longest_ms=%.3f",
			sum->ops, longest_ms, sum->completed_inside_window, sum->blocked_across_window,
			sum->errors, sum->errors_after_thaw, sum->spanning_window, sum->retained,
			sum->inflight ? 1 : 0, sum->wrote_while_frozen, (double)sum->window_longest_ns / 1e6);
}

int stall_format_entry(const struct tel_entry *entry, char *buf, size_t len)
{
	uint64_t duration = entry->end_ns > entry->start_ns ? entry->end_ns - entry->start_ns : 0;

	return snprintf(buf, len,
			"op=%" PRIu64 " kind=%s seq=%" PRIu64 " start_ns=%" PRIu64 " end_ns=%" PRIu64
			" ms=%.3f err=%d",
			entry->op_id, tel_op_kind_name(entry->kind), entry->seq, entry->start_ns,
			entry->end_ns, (double)duration / 1e6, (int)entry->err);
}
