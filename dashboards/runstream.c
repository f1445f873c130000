#include "dashboards/runstream.h"
#include "results/format.h"
#include "util/array.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static const char *kept(struct run_stream *rs, const char *t, int *oom)
{
	return arena_strndup(&rs->strings, t, t ? strlen(t) : 0, oom);
}

static int read_cycle(struct run_stream *rs, const struct results_cursor *cur, int *oom)
{
	struct results_cycle_row row;
	struct rs_cycle *c;

	if (array_grow((void **)&rs->cycle, &rs->cap_cycles, rs->n_cycles, sizeof(*rs->cycle)))
		return -1;
	results_cursor_cycle(cur, &row);
	c = &rs->cycle[rs->n_cycles++];
	*c = (struct rs_cycle){
		.idx = row.idx,
		.step_kind = kept(rs, row.step_kind, oom), .step_desc = kept(rs, row.step_desc, oom),
		.status = kept(rs, row.status, oom), .hang_phase = kept(rs, row.hang_phase, oom),
		.kernel = kept(rs, row.kernel_version, oom),
		.console_tail = kept(rs, row.console_tail, oom),
		.started_at = row.started_at, .ended_at = row.ended_at, .timeline = -1,
	};
	return 0;
}

/* Position of the cycle with this idx at or after *k (rows arrive in idx order). */
static struct rs_cycle *cycle_at(struct run_stream *rs, int idx, size_t *k)
{
	while (*k < rs->n_cycles && rs->cycle[*k].idx < idx)
		(*k)++;
	return *k < rs->n_cycles && rs->cycle[*k].idx == idx ? &rs->cycle[*k] : NULL;
}

static int read_verdict(struct run_stream *rs, const struct results_cursor *cur, size_t *k,
			int *oom)
{
	struct results_verdict_row row;
	struct rs_cycle *c;

	results_cursor_verdict(cur, &row);
	if (!(c = cycle_at(rs, row.cycle_idx, k)))
		return 0;
	if (array_grow((void **)&rs->verdict, &rs->cap_verdicts, rs->n_verdicts, sizeof(*rs->verdict)))
		return -1;
	if (c->n_verdicts++ == 0)
		c->first_verdict = rs->n_verdicts;
	rs->verdict[rs->n_verdicts++] = (struct rs_verdict){
		.name = kept(rs, row.name, oom), .filesystem = kept(rs, row.filesystem, oom),
		.result = kept(rs, row.result, oom), .known_issue = kept(rs, row.known_issue, oom),
		.detail = kept(rs, row.detail, oom),
	};
	return 0;
}

/* A measurement, or a time-budget phase (phase: the cycle's phase slice of the same array). */
static int read_measurement(struct run_stream *rs, const struct results_cursor *cur, size_t *k,
			    bool phase, int *oom)
{
	struct results_measurement_row row;
	struct rs_cycle *c;
	size_t *first, *n;

	results_cursor_measurement(cur, &row);
	if (!(c = cycle_at(rs, row.cycle_idx, k)))
		return 0;
	if (array_grow((void **)&rs->measurement, &rs->cap_measurements, rs->n_measurements,
		      sizeof(*rs->measurement)))
		return -1;
	first = phase ? &c->first_phase : &c->first_measurement;
	n = phase ? &c->n_phases : &c->n_measurements;
	if ((*n)++ == 0)
		*first = rs->n_measurements;
	rs->measurement[rs->n_measurements++] = (struct rs_measurement){
		.name = kept(rs, row.name, oom), .filesystem = kept(rs, row.filesystem, oom),
		.unit = kept(rs, row.unit, oom), .value = row.value,
	};
	return 0;
}

static int read_wake(struct run_stream *rs, const struct results_cursor *cur, size_t *k, int *oom)
{
	struct results_wake_row row;
	struct rs_cycle *c;
	char text[512];

	results_cursor_wake(cur, &row);
	if (!(c = cycle_at(rs, row.cycle_idx, k)))
		return 0;
	results_wake_describe(&row.wake, text, sizeof(text));
	c->wake = kept(rs, text, oom);
	return 0;
}

static int read_artefact(struct run_stream *rs, const struct results_cursor *cur, int *oom)
{
	struct results_artefact_row row;

	if (array_grow((void **)&rs->artefact, &rs->cap_artefacts, rs->n_artefacts,
		      sizeof(*rs->artefact)))
		return -1;
	results_cursor_artefact(cur, &row);
	rs->artefact[rs->n_artefacts++] = (struct rs_artefact){
		.cycle_idx = row.cycle_idx, .kind = kept(rs, row.kind, oom),
		.path = kept(rs, row.path, oom),
	};
	return 0;
}

static int read_row(struct run_stream *rs, enum results_detail t, const struct results_cursor *c,
		    size_t *k, int *oom)
{
	switch (t) {
	case RESULTS_DETAIL_CYCLES: return read_cycle(rs, c, oom);
	case RESULTS_DETAIL_VERDICTS: return read_verdict(rs, c, k, oom);
	case RESULTS_DETAIL_MEASUREMENTS: return read_measurement(rs, c, k, false, oom);
	case RESULTS_DETAIL_ARTEFACTS: return read_artefact(rs, c, oom);
	case RESULTS_DETAIL_PHASES: return read_measurement(rs, c, k, true, oom);
	case RESULTS_DETAIL_WAKES: return read_wake(rs, c, k, oom);
	}
	return -1;
}

/* Rows of runs that are not in the model are skipped (none, normally: foreign keys forbid
 * orphans), then the run's own rows are read. */
static int load_table(struct run_stream *rs, enum results_detail t, struct results_cursor *c,
		      int64_t run_id, struct rig_err *err)
{
	size_t k = 0;
	int oom = 0;

	while (results_cursor_run(c) < run_id)
		if (results_cursor_next(c, err))
			return -1;
	while (results_cursor_run(c) == run_id) {
		if (read_row(rs, t, c, &k, &oom) || oom)
			return rig_err_set(err, RIG_EXIT_INFRA, "dashboard: out of memory");
		if (results_cursor_next(c, err))
			return -1;
	}
	return 0;
}

struct tl_visit {
	struct run_stream *rs;
	size_t k;                                  /* cycle_at's position */
	int oom;
};

/* One row of the run's timelines (results_timeline_read: by cycle, then stored order). */
static int read_timeline_row(void *ctx, int idx, const struct results_timeline_info *info,
			     const struct results_timeline_row *row)
{
	struct tl_visit *v = ctx;
	struct run_stream *rs = v->rs;
	struct rs_cycle *c = cycle_at(rs, idx, &v->k);
	struct results_timeline_row *r;

	if (!c)
		return 0;
	if (c->timeline < 0) {
		c->timeline = info->available;
		c->first_tl_row = rs->n_tl_rows;
	}
	if (!row)
		return 0;
	if (array_grow((void **)&rs->tl_row, &rs->cap_tl_rows, rs->n_tl_rows, sizeof(*rs->tl_row)))
		return -1;
	r = &rs->tl_row[rs->n_tl_rows++];
	*r = *row;
	r->kind = kept(rs, row->kind, &v->oom);
	r->phase = kept(rs, row->phase, &v->oom);
	r->name = kept(rs, row->name, &v->oom);
	r->driver = kept(rs, row->driver, &v->oom);
	c->n_tl_rows++;
	return v->oom ? -1 : 0;
}

static int load_timelines(struct run_stream *rs, int64_t run_id, struct rig_err *err)
{
	struct tl_visit v = { .rs = rs };
	int rc = results_timeline_read(rs->db, run_id, read_timeline_row, &v, err);

	if (rc > 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "dashboard: out of memory");
	return rc;
}

int run_stream_load(struct run_stream *rs, int64_t run_id, struct rig_err *err)
{
	arena_reset(&rs->strings);
	rs->n_cycles = rs->n_verdicts = rs->n_measurements = rs->n_artefacts = rs->n_tl_rows = 0;
	if (load_table(rs, RESULTS_DETAIL_CYCLES, rs->cycles, run_id, err) ||
	    load_table(rs, RESULTS_DETAIL_VERDICTS, rs->verdicts, run_id, err) ||
	    load_table(rs, RESULTS_DETAIL_MEASUREMENTS, rs->measurements, run_id, err) ||
	    load_table(rs, RESULTS_DETAIL_ARTEFACTS, rs->artefacts, run_id, err) ||
	    load_table(rs, RESULTS_DETAIL_PHASES, rs->phases, run_id, err) ||
	    load_table(rs, RESULTS_DETAIL_WAKES, rs->wakes, run_id, err) ||
	    load_timelines(rs, run_id, err))
		return -1;
	return 0;
}

int run_stream_open(struct results_db *db, struct run_stream *rs, struct rig_err *err)
{
	*rs = (struct run_stream){ .db = db };
	if (results_cursor_open(db, RESULTS_DETAIL_CYCLES, &rs->cycles, err) ||
	    results_cursor_open(db, RESULTS_DETAIL_VERDICTS, &rs->verdicts, err) ||
	    results_cursor_open(db, RESULTS_DETAIL_MEASUREMENTS, &rs->measurements, err) ||
	    results_cursor_open(db, RESULTS_DETAIL_ARTEFACTS, &rs->artefacts, err) ||
	    results_cursor_open(db, RESULTS_DETAIL_PHASES, &rs->phases, err) ||
	    results_cursor_open(db, RESULTS_DETAIL_WAKES, &rs->wakes, err)) {
		run_stream_close(rs);
		return -1;
	}
	return 0;
}

void run_stream_close(struct run_stream *rs)
{
	results_cursor_close(rs->cycles);
	results_cursor_close(rs->verdicts);
	results_cursor_close(rs->measurements);
	results_cursor_close(rs->artefacts);
	results_cursor_close(rs->phases);
	results_cursor_close(rs->wakes);
	arena_free(&rs->strings);
	free(rs->cycle), free(rs->verdict), free(rs->measurement), free(rs->artefact);
	free(rs->tl_row);
	*rs = (struct run_stream){ 0 };
}
