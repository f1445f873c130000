#include "results/cycle_write.h"
#include "results/timeline.h"

#include <stdbool.h>

static const char insert_cycle_sql[] =
	"INSERT INTO cycles (run_id, idx, step_kind, step_desc, status, hang_phase, started_at,"
	" ended_at, knob_freeze_filesystems, knob_sync_on_suspend, kernel_version, kernel_build_id,"
	" console_from, console_to, console_tail)"
	" VALUES (:run_id, :idx, :step_kind, :step_desc, :status, :hang_phase, :started_at,"
	" :ended_at, :knob_ff, :knob_sos, :kernel_version, :kernel_build_id, :console_from,"
	" :console_to, :console_tail)";

static const char insert_verdict_sql[] =
	"INSERT INTO verdicts (cycle_id, name, filesystem, result, known_issue, detail,"
	" kernel_version, knob_freeze_filesystems)"
	" VALUES (:cycle_id, :name, :filesystem, :result, :known_issue, :detail,"
	" :kernel_version, :knob_ff)";

static const char insert_phase_sql[] =
	"INSERT INTO cycle_phases (cycle_id, phase, seconds) VALUES (:cycle_id, :phase, :seconds)";
static const char insert_host_cpu_sql[] =
	"INSERT INTO cycle_host_cpu (cycle_id, applicable, window_end, window_s, qemu_run_s,"
	" qemu_wait_s, psi_some_s, starved, reclassified, detail)"
	" VALUES (:cycle_id, :applicable, :window_end, :window_s, :qemu_run_s, :qemu_wait_s,"
	" :psi_some_s, :starved, :reclassified, :detail)";
static const char insert_wake_sql[] =
	"INSERT INTO cycle_wakes (cycle_id, wake, requested_ms, entry_ms, asleep_ms, awake_ms, irq,"
	" irq_name, sources, rescued)"
	" VALUES (:cycle_id, :wake, :requested_ms, :entry_ms, :asleep_ms, :awake_ms, :irq,"
	" :irq_name, :sources, :rescued)";
static const char insert_hibernation_sql[] =
	"INSERT INTO cycle_hibernations (cycle_id, asked, power_cut_asked, kernel_mode, went,"
	" power_cut, came_back, matched)"
	" VALUES (:cycle_id, :asked, :power_cut_asked, :kernel_mode, :went, :power_cut, :came_back,"
	" :matched)";
static const char insert_measurement_sql[] =
	"INSERT INTO measurements (cycle_id, name, filesystem, value, unit)"
	" VALUES (:cycle_id, :name, :filesystem, :value, :unit)";

static const char insert_event_sql[] =
	"INSERT INTO events (cycle_id, kind, kernel_ts, host_ts, text)"
	" VALUES (:cycle_id, :kind, :kernel_ts, :host_ts, :text)";

static const char insert_artefact_sql[] =
	"INSERT INTO artefacts (run_id, cycle_id, kind, path)"
	" VALUES (:run_id, :cycle_id, :kind, :path)";

/* Bind, check and run one row; the statement is reset for the next row. */
static int finish_row(struct results_db *db, const struct results_binder *b, const char *what,
		      struct rig_err *err)
{
	if (results_bind_check(db, b, what, err))
		return -1;
	return results_db_step_done(db, b->stmt, what, err);
}

static int write_cycle_row(struct results_db *db, const struct results_cycle *c,
			   enum results_cycle_status status, int64_t *cycle_id, struct rig_err *err)
{
	struct results_binder b = { 0 };
	bool cached;
	int ret;

	if (results_db_cached(db, insert_cycle_sql, &b.stmt, &cached, err))
		return -1;
	results_bind_int64(&b, ":run_id", c->run_id);
	results_bind_int64(&b, ":idx", c->idx);
	results_bind_text(&b, ":step_kind", c->step_kind);
	results_bind_text(&b, ":step_desc", c->step_desc);
	results_bind_text(&b, ":status", results_cycle_status_name(status));
	results_bind_text(&b, ":hang_phase", c->hang_phase);
	results_bind_real(&b, ":started_at", c->started_at);
	results_bind_real(&b, ":ended_at", c->ended_at);
	results_bind_knob(&b, ":knob_ff", c->knob_freeze_filesystems);
	results_bind_knob(&b, ":knob_sos", c->knob_sync_on_suspend);
	results_bind_text(&b, ":kernel_version", c->kernel_version);
	results_bind_text(&b, ":kernel_build_id", c->kernel_build_id);
	results_bind_offset(&b, ":console_from", c->console_from);
	results_bind_offset(&b, ":console_to", c->console_to);
	results_bind_text(&b, ":console_tail", c->console_tail);
	ret = finish_row(db, &b, "insert cycle", err);
	if (ret == 0)
		*cycle_id = sqlite3_last_insert_rowid(db->sql);
	if (!cached)
		sqlite3_finalize(b.stmt);
	return ret;
}

/* The kernel version and knob are repeated per verdict so a verdict row stands on its own. */
static int write_verdicts(struct results_db *db, const struct results_cycle *c, int64_t cycle_id,
			  struct rig_err *err)
{
	struct results_binder b = { 0 };
	bool cached;
	int ret = 0;

	if (c->n_verdicts == 0)
		return 0;
	if (results_db_cached(db, insert_verdict_sql, &b.stmt, &cached, err))
		return -1;
	for (size_t i = 0; i < c->n_verdicts && ret == 0; i++) {
		const struct results_verdict *v = &c->verdicts[i];

		results_bind_int64(&b, ":cycle_id", cycle_id);
		results_bind_text(&b, ":name", v->name);
		results_bind_text(&b, ":filesystem", v->filesystem);
		results_bind_text(&b, ":result", results_verdict_result_name(v->result));
		results_bind_text(&b, ":known_issue", v->known_issue);
		results_bind_text(&b, ":detail", v->detail);
		results_bind_text(&b, ":kernel_version", c->kernel_version);
		results_bind_knob(&b, ":knob_ff", c->knob_freeze_filesystems);
		ret = finish_row(db, &b, "insert verdict", err);
	}
	if (!cached)
		sqlite3_finalize(b.stmt);
	return ret;
}

static int write_measurements(struct results_db *db, const struct results_cycle *c,
			      int64_t cycle_id, struct rig_err *err)
{
	struct results_binder b = { 0 };
	bool cached;
	int ret = 0;

	if (c->n_measurements == 0)
		return 0;
	if (results_db_cached(db, insert_measurement_sql, &b.stmt, &cached, err))
		return -1;
	for (size_t i = 0; i < c->n_measurements && ret == 0; i++) {
		const struct results_measurement *m = &c->measurements[i];

		results_bind_int64(&b, ":cycle_id", cycle_id);
		results_bind_text(&b, ":name", m->name);
		results_bind_text(&b, ":filesystem", m->filesystem);
		results_bind_real(&b, ":value", m->value);
		results_bind_text(&b, ":unit", m->unit);
		ret = finish_row(db, &b, "insert measurement", err);
	}
	if (!cached)
		sqlite3_finalize(b.stmt);
	return ret;
}

static int write_phases(struct results_db *db, const struct results_cycle *c, int64_t cycle_id,
			struct rig_err *err)
{
	struct results_binder b = { 0 };
	bool cached;
	int ret = 0;

	if (c->n_phases == 0)
		return 0;
	if (results_db_cached(db, insert_phase_sql, &b.stmt, &cached, err))
		return -1;
	for (size_t i = 0; i < c->n_phases && ret == 0; i++) {
		results_bind_int64(&b, ":cycle_id", cycle_id);
		results_bind_text(&b, ":phase", c->phases[i].name);
		results_bind_real(&b, ":seconds", c->phases[i].seconds);   /* NAN: NULL, unknown */
		ret = finish_row(db, &b, "insert phase", err);
	}
	if (!cached)
		sqlite3_finalize(b.stmt);
	return ret;
}

static int write_host_cpu(struct results_db *db, const struct results_cycle *c,
			  int64_t cycle_id, struct rig_err *err)
{
	const struct results_host_cpu *h = &c->host_cpu;
	struct results_binder b = { 0 };
	bool cached;
	int ret;

	if (!h->recorded)
		return 0;
	if (results_db_cached(db, insert_host_cpu_sql, &b.stmt, &cached, err))
		return -1;
	results_bind_int64(&b, ":cycle_id", cycle_id);
	results_bind_int64(&b, ":applicable", h->applicable != 0);
	results_bind_text(&b, ":window_end", h->window_end);
	results_bind_real(&b, ":window_s", h->window_s);          /* NAN: NULL, unavailable */
	results_bind_real(&b, ":qemu_run_s", h->qemu_run_s);
	results_bind_real(&b, ":qemu_wait_s", h->qemu_wait_s);
	results_bind_real(&b, ":psi_some_s", h->psi_some_s);
	results_bind_int64(&b, ":starved", h->starved != 0);
	results_bind_int64(&b, ":reclassified", h->reclassified != 0);
	results_bind_text(&b, ":detail", h->detail);
	ret = finish_row(db, &b, "insert host cpu", err);
	if (!cached)
		sqlite3_finalize(b.stmt);
	return ret;
}

static int write_wake(struct results_db *db, const struct results_cycle *c, int64_t cycle_id,
		      struct rig_err *err)
{
	const struct results_wake *w = c->wake;
	struct results_binder b = { 0 };
	bool cached;
	int ret;

	if (!w)
		return 0;
	if (results_db_cached(db, insert_wake_sql, &b.stmt, &cached, err))
		return -1;
	results_bind_int64(&b, ":cycle_id", cycle_id);
	results_bind_text(&b, ":wake", w->wake);
	results_bind_offset(&b, ":requested_ms", w->requested_ms);   /* negative: NULL, unknown */
	results_bind_offset(&b, ":entry_ms", w->entry_ms);
	results_bind_offset(&b, ":asleep_ms", w->asleep_ms);
	results_bind_offset(&b, ":awake_ms", w->awake_ms);
	results_bind_offset(&b, ":irq", w->irq);
	results_bind_text(&b, ":irq_name", w->irq_name);
	results_bind_text(&b, ":sources", w->sources);
	results_bind_int64(&b, ":rescued", w->rescued);
	ret = finish_row(db, &b, "insert wake", err);
	if (!cached)
		sqlite3_finalize(b.stmt);
	return ret;
}

static int write_hibernation(struct results_db *db, const struct results_cycle *c,
			     int64_t cycle_id, struct rig_err *err)
{
	const struct results_hibernation *h = &c->hibernation;
	struct results_binder b = { 0 };
	bool cached;
	int ret;

	if (!c->has_hibernation)
		return 0;
	if (results_db_cached(db, insert_hibernation_sql, &b.stmt, &cached, err))
		return -1;
	results_bind_int64(&b, ":cycle_id", cycle_id);
	results_bind_text(&b, ":asked", h->asked);
	results_bind_int64(&b, ":power_cut_asked", h->power_cut_asked);
	results_bind_text(&b, ":kernel_mode", h->kernel_mode[0] ? h->kernel_mode : NULL);
	results_bind_text(&b, ":went", h->went);
	results_bind_int64(&b, ":power_cut", h->power_cut);
	results_bind_text(&b, ":came_back", h->came_back);
	results_bind_int64(&b, ":matched", h->matched);
	ret = finish_row(db, &b, "insert hibernation", err);
	if (!cached)
		sqlite3_finalize(b.stmt);
	return ret;
}

static int write_events(struct results_db *db, const struct results_cycle *c, int64_t cycle_id,
			struct rig_err *err)
{
	struct results_binder b = { 0 };
	bool cached;
	int ret = 0;

	if (c->n_events == 0)
		return 0;
	if (results_db_cached(db, insert_event_sql, &b.stmt, &cached, err))
		return -1;
	for (size_t i = 0; i < c->n_events && ret == 0; i++) {
		const struct results_event *e = &c->events[i];

		results_bind_int64(&b, ":cycle_id", cycle_id);
		results_bind_text(&b, ":kind", e->kind);
		results_bind_real(&b, ":kernel_ts", e->kernel_ts);
		results_bind_real(&b, ":host_ts", e->host_ts);
		results_bind_text(&b, ":text", e->text);
		ret = finish_row(db, &b, "insert event", err);
	}
	if (!cached)
		sqlite3_finalize(b.stmt);
	return ret;
}

int results_artefact_write(struct results_db *db, int64_t run_id, int64_t cycle_id,
			   const struct results_artefact *artefact, struct rig_err *err)
{
	struct results_binder b = { 0 };
	bool cached;
	int ret;

	if (results_db_cached(db, insert_artefact_sql, &b.stmt, &cached, err))
		return -1;
	results_bind_int64(&b, ":run_id", run_id);
	results_bind_offset(&b, ":cycle_id", cycle_id > 0 ? cycle_id : -1);
	results_bind_text(&b, ":kind", artefact->kind);
	results_bind_text(&b, ":path", artefact->path);
	ret = finish_row(db, &b, "insert artefact", err);
	if (!cached)
		sqlite3_finalize(b.stmt);
	return ret;
}

static int write_artefacts(struct results_db *db, const struct results_cycle *c, int64_t cycle_id,
			   struct rig_err *err)
{
	for (size_t i = 0; i < c->n_artefacts; i++)
		if (results_artefact_write(db, c->run_id, cycle_id, &c->artefacts[i], err))
			return -1;
	return 0;
}

int results_cycle_write(struct results_db *db, const struct results_cycle *cycle,
			enum results_cycle_status status, int64_t *cycle_id, struct rig_err *err)
{
	int64_t id;

	if (write_cycle_row(db, cycle, status, &id, err) || write_verdicts(db, cycle, id, err) ||
	    write_measurements(db, cycle, id, err) || write_events(db, cycle, id, err) ||
	    write_phases(db, cycle, id, err) || write_host_cpu(db, cycle, id, err) ||
	    results_timeline_write(db, cycle, id, err) || write_wake(db, cycle, id, err) ||
	    write_hibernation(db, cycle, id, err) ||
	    write_artefacts(db, cycle, id, err))
		return -1;
	if (cycle_id)
		*cycle_id = id;
	return 0;
}

int results_cycle_commit(struct results_db *db, const struct results_cycle *cycle,
			 int64_t *cycle_id, struct rig_err *err)
{
	int64_t id;

	if (results_db_begin(db, err))
		return -1;
	if (results_cycle_write(db, cycle, cycle->status, &id, err) || results_db_commit(db, err)) {
		results_db_rollback(db);
		return -1;
	}
	if (cycle_id)
		*cycle_id = id;
	return 0;
}
