/* The board's timeline summary parsed, and joined with the freeze trace and the writers' stalls. */
#include "judge/timeline.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/kv.h"
#include "util/number.h"

static const char *const phase_names[TL_N_PHASES] = {
	"prepare", "suspend", "suspend_late", "suspend_noirq",
	"resume_noirq", "resume_early", "resume", "complete", "unknown",
};

static const char *const kind_names[] = { "mark", "device", "others", "frozen", "stall" };

const char *tl_phase_name(enum tl_phase p)
{
	return p >= 0 && p < TL_N_PHASES ? phase_names[p] : "unknown";
}

enum tl_phase tl_phase_of(const char *name)
{
	for (int p = 0; p < TL_PHASE_UNKNOWN; p++)
		if (strcmp(name, phase_names[p]) == 0)
			return (enum tl_phase)p;
	return TL_PHASE_UNKNOWN;
}

const char *tl_kind_name(enum tl_kind k)
{
	return k >= TL_MARK && k <= TL_STALL ? kind_names[k] : "?";
}

int tl_kind_of(const char *name, enum tl_kind *out)
{
	for (int k = TL_MARK; k <= TL_STALL; k++)
		if (strcmp(name, kind_names[k]) == 0) {
			*out = (enum tl_kind)k;
			return 0;
		}
	return -1;
}

int timeline_add(struct timeline *tl, const struct tl_row *row, struct rig_err *err)
{
	if (array_grow((void **)&tl->rows, &tl->cap, tl->n, sizeof(*tl->rows)))
		return rig_err_set(err, RIG_EXIT_INFRA, "timeline: out of memory");
	tl->rows[tl->n++] = *row;
	return 0;
}

void timeline_free(struct timeline *tl)
{
	free(tl->rows);
	memset(tl, 0, sizeof(*tl));
}

/* key=N as an int64 within [min, max]; false when absent or not such a number. */
static bool kv_i64(const char *line, const char *key, long long min, long long max, int64_t *out)
{
	char buf[32];
	long long v;

	if (!kv_get(line, key, buf, sizeof(buf)) || parse_number(buf, min, max, &v) < 0)
		return false;
	*out = v;
	return true;
}

static bool kv_unsigned(const char *line, const char *key, unsigned *out)
{
	int64_t v;

	if (!kv_i64(line, key, 0, UINT_MAX, &v))
		return false;
	*out = (unsigned)v;
	return true;
}

/* start_us=S and dur_us=D, or open=1 instead of dur_us. */
static bool read_span(const char *line, struct tl_row *r)
{
	int64_t open = 0;

	if (!kv_i64(line, "start_us", INT64_MIN / 2, INT64_MAX / 2, &r->start_us))
		return false;
	if (kv_i64(line, "dur_us", 0, INT64_MAX / 2, &r->dur_us))
		return true;
	if (kv_i64(line, "open", 1, 1, &open)) {
		r->dur_us = TL_OPEN;
		return true;
	}
	return false;
}

static bool parse_header(const char *line, struct timeline *tl)
{
	char base[32];

	if (strncmp(line, "timeline ", 9) != 0 || !kv_get(line, "base_ns", base, sizeof(base)) ||
	    parse_u64(base, 0, UINT64_MAX, &tl->base_ns) < 0 ||
	    !kv_unsigned(line, "events", &tl->events))
		return false;
	/* the rest are counts the board adds for people: absent means none */
	kv_unsigned(line, "lost", &tl->lost);
	kv_unsigned(line, "unmatched", &tl->unmatched);
	kv_unsigned(line, "bad", &tl->board_bad);
	kv_unsigned(line, "min_us", &tl->min_us);
	return true;
}

/* One "mark", "dev" or "others" line into r; false when it is none of them or is cut short. */
static bool parse_row(const char *line, struct tl_row *r)
{
	char phase[32] = "";
	int64_t v;

	memset(r, 0, sizeof(*r));
	r->phase = TL_PHASE_UNKNOWN;
	r->count = 1;
	if (strncmp(line, "mark ", 5) == 0) {
		r->kind = TL_MARK;
		return kv_get(line, "name", r->name, sizeof(r->name)) && r->name[0] && read_span(line, r);
	}
	if (strncmp(line, "dev ", 4) == 0) {
		r->kind = TL_DEVICE;
		if (!kv_get(line, "phase", phase, sizeof(phase)) ||
		    !kv_get(line, "name", r->name, sizeof(r->name)) || !r->name[0] ||
		    !kv_get(line, "driver", r->driver, sizeof(r->driver)) || !read_span(line, r))
			return false;
		r->phase = tl_phase_of(phase);
		if (r->dur_us != TL_OPEN) {
			if (!kv_i64(line, "err", INT_MIN, INT_MAX, &v))
				return false;
			r->err = (int)v;
		}
		return true;
	}
	if (strncmp(line, "others ", 7) == 0) {
		int64_t end;

		r->kind = TL_OTHERS;
		snprintf(r->name, sizeof(r->name), "others");
		if (!kv_get(line, "phase", phase, sizeof(phase)) ||
		    !kv_unsigned(line, "count", &r->count) || r->count == 0 ||
		    !kv_i64(line, "start_us", INT64_MIN / 2, INT64_MAX / 2, &r->start_us) ||
		    !kv_i64(line, "end_us", r->start_us, INT64_MAX / 2, &end))
			return false;
		r->phase = tl_phase_of(phase);
		r->dur_us = end - r->start_us;     /* the phase's small callbacks, first start to last end */
		return true;
	}
	return false;
}

static void note_bad(struct timeline *tl, const char *line)
{
	if (tl->bad_lines++ == 0)
		snprintf(tl->first_bad, sizeof(tl->first_bad), "%s", line);
}

int timeline_parse(const char *const *lines, size_t n, struct timeline *tl, struct rig_err *err)
{
	bool header = false;

	memset(tl, 0, sizeof(*tl));
	tl->asleep_from_us = tl->asleep_to_us = -1;
	for (size_t i = 0; i < n; i++) {
		struct tl_row r;

		if (strncmp(lines[i], "timeline=unavailable", 20) == 0) {
			if (!kv_get(lines[i], "reason", tl->reason, sizeof(tl->reason)))
				snprintf(tl->reason, sizeof(tl->reason), "unavailable");
			tl->available = false;
			return 0;
		}
		if (!header) {
			if (parse_header(lines[i], tl))
				header = true;
			else
				note_bad(tl, lines[i]);
			continue;
		}
		if (!parse_row(lines[i], &r)) {
			note_bad(tl, lines[i]);
			continue;
		}
		if (r.kind == TL_MARK && strcmp(r.name, "machine_suspend") == 0 && r.dur_us != TL_OPEN) {
			tl->asleep_from_us = r.start_us;
			tl->asleep_to_us = r.start_us + r.dur_us;
		}
		if (timeline_add(tl, &r, err) < 0)
			return -1;
	}
	tl->available = header;
	if (!header)
		snprintf(tl->reason, sizeof(tl->reason), "no-summary");
	return 0;
}

/* ns on the boot clock to µs on tl's axis (negative before its base). */
static int64_t axis_us(const struct timeline *tl, uint64_t ns)
{
	return ((int64_t)ns - (int64_t)tl->base_ns) / 1000;
}

static int add_span(struct timeline *tl, enum tl_kind kind, const char *name, const char *driver,
		    uint64_t from_ns, uint64_t to_ns, bool ended, struct rig_err *err)
{
	struct tl_row r = { .kind = kind, .phase = TL_PHASE_UNKNOWN, .count = 1 };

	snprintf(r.name, sizeof(r.name), "%s", name);
	snprintf(r.driver, sizeof(r.driver), "%s", driver);
	r.start_us = axis_us(tl, from_ns);
	r.dur_us = ended && to_ns >= from_ns ? (int64_t)(to_ns - from_ns) / 1000 : TL_OPEN;
	return timeline_add(tl, &r, err);
}

static int join_frozen(struct timeline *tl, const struct frozen_window *w, struct rig_err *err)
{
	if (!w->seen)
		return 0;
	if (add_span(tl, TL_MARK, "filesystems_freeze", "", w->freeze_ns, w->freeze_done_ns,
		     w->freeze_done, err) < 0)
		return -1;
	if (w->thaw_seen && add_span(tl, TL_MARK, "filesystems_thaw", "", w->thaw_ns,
				     w->thaw_done_ns, w->thaw_done, err) < 0)
		return -1;
	for (unsigned i = 0; i < w->n_frozen && i < MAX_TRACED_DEVS; i++) {
		const struct frozen_dev *d = &w->devs[i];

		if (d->returned && add_span(tl, TL_FROZEN, d->dev[0] ? d->dev : "?", "",
					    d->frozen_ns, d->thawed_ns, d->thawed_ns != 0, err) < 0)
			return -1;
	}
	return 0;
}

static int join_stalls(struct timeline *tl, const struct ev_stall_ops *s, uint64_t min_ns,
		       struct rig_err *err)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct ev_writer_ops *w = &s->writers[i];
		char fs[64];

		ev_writer_fs(w->id, fs, sizeof(fs));
		for (size_t k = 0; k < w->n_ops; k++) {
			const struct tel_entry *e = &w->ops[k];

			if (e->end_ns >= e->start_ns && e->end_ns - e->start_ns >= min_ns &&
			    add_span(tl, TL_STALL, w->id, fs, e->start_ns, e->end_ns, true, err) < 0)
				return -1;
		}
		if (w->has_header && w->hdr.inflight_start_ns &&
		    add_span(tl, TL_STALL, w->id, fs, w->hdr.inflight_start_ns, 0, false, err) < 0)
			return -1;
	}
	return 0;
}

int timeline_join(struct timeline *tl, const struct frozen_window *w,
		  const struct ev_stall_ops *stall, uint64_t stall_min_ns, struct rig_err *err)
{
	if (!tl->available)
		return 0;
	if (w && join_frozen(tl, w, err) < 0)
		return -1;
	if (stall && join_stalls(tl, stall, stall_min_ns, err) < 0)
		return -1;
	return 0;
}
