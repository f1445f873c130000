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

bool stall_entry_relevant(const struct tel_entry *e, const struct stall_window *collect)
{
	return (e->start_ns <= collect->thaw_ns && e->end_ns >= collect->freeze_ns) ||
	       (e->err != 0 && e->end_ns >= collect->freeze_ns);
}

int stall_format_header(const struct tel_snapshot *snap, char *buf, size_t len)
{
	return snprintf(buf, len,
			"tel ops=%" PRIu64 " errors=%" PRIu64 " longest_ns=%" PRIu64
			" inflight_start_ns=%" PRIu64 " retained=%zu",
			snap->hdr.total_ops, snap->hdr.error_total, snap->hdr.longest_ns,
			snap->hdr.inflight_start_ns, snap->count);
}

int stall_format_op(const struct tel_entry *e, char *buf, size_t len)
{
	return snprintf(buf, len,
			"op start_ns=%" PRIu64 " end_ns=%" PRIu64 " err=%d kind=%s seq=%" PRIu64,
			e->start_ns, e->end_ns, (int)e->err, tel_op_kind_name(e->kind), e->seq);
}

/* " key=<digits>" at *p, advancing past it; the number must end at a blank or the end. */
static bool take_u64(const char **p, const char *key, uint64_t *out)
{
	size_t key_len = strlen(key), n;
	char digits[24];

	if (**p != ' ' || strncmp(*p + 1, key, key_len) != 0)
		return false;
	*p += 1 + key_len;
	n = strspn(*p, "0123456789");
	if (n == 0 || n >= sizeof(digits) || ((*p)[n] != '\0' && (*p)[n] != ' '))
		return false;
	memcpy(digits, *p, n);
	digits[n] = '\0';
	*p += n;
	return wl_parse_u64(digits, out);
}

static bool line_rest(const char *line, const char *tag, const char **rest)
{
	const char *at = strstr(line, tag);

	/* a tag is a word: at the start or after a blank */
	while (at && at != line && at[-1] != ' ')
		at = strstr(at + 1, tag);
	if (!at)
		return false;
	*rest = at + strlen(tag) - 1;      /* at the blank that ends the tag */
	return true;
}

bool stall_parse_header(const char *line, struct tel_header *hdr)
{
	const char *p;
	uint64_t retained;

	memset(hdr, 0, sizeof(*hdr));
	return line_rest(line, "tel ", &p) && take_u64(&p, "ops=", &hdr->total_ops) &&
	       take_u64(&p, "errors=", &hdr->error_total) &&
	       take_u64(&p, "longest_ns=", &hdr->longest_ns) &&
	       take_u64(&p, "inflight_start_ns=", &hdr->inflight_start_ns) &&
	       take_u64(&p, "retained=", &retained) && (*p == '\0' || *p == ' ');
}

static uint32_t kind_of(const char *name, size_t len)
{
	for (uint32_t k = TEL_OP_STORE; k <= TEL_OP_FDATASYNC; k++)
		if (strlen(tel_op_kind_name(k)) == len && strncmp(tel_op_kind_name(k), name, len) == 0)
			return k;
	return 0;
}

bool stall_parse_op(const char *line, struct tel_entry *e)
{
	const char *p;
	uint64_t err;
	size_t len;

	memset(e, 0, sizeof(*e));
	if (!line_rest(line, "op ", &p) || !take_u64(&p, "start_ns=", &e->start_ns) ||
	    !take_u64(&p, "end_ns=", &e->end_ns) || !take_u64(&p, "err=", &err) || err > 4095 ||
	    strncmp(p, " kind=", 6) != 0)
		return false;
	p += 6;
	len = strcspn(p, " ");
	if (!(e->kind = kind_of(p, len)))
		return false;
	p += len;
	e->err = (int32_t)err;
	return take_u64(&p, "seq=", &e->seq) && *p == '\0';
}
