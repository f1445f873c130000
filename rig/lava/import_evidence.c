/* The cycles of a job whose test definitions recorded evidence (lava/evidence.h), judged by the
 * rig's own judge: the verdicts rig run would have given for the same board, known issues
 * applied. */
#include "lava/import_evidence.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/judge.h"
#include "judge/wake_time.h"
#include "lava/import.h"

struct cycle_facts {
	struct judge_context ctx;
	char kernel[64];
	enum results_knob freeze, sync;
};

static enum results_knob knob_of(int v)
{
	return v < 0 ? RESULTS_KNOB_UNKNOWN : v ? RESULTS_KNOB_ON : RESULTS_KNOB_OFF;
}

/* The board's identity as its last rig-dut info in this suite said it (knobs set, kernel). */
static void read_identity(const struct lava_suite *s, struct cycle_facts *f)
{
	const struct lava_record *rec;
	size_t at = 0;

	while ((rec = lava_suite_record(s, EV_CMD_INFO, &at))) {
		struct ev_identity id;

		if (rec->reply.status != AGENT_OK || !rec->reply.n_lines ||
		    ev_parse_identity(rec->reply.lines[0], &id) < 0)
			continue;
		snprintf(f->kernel, sizeof(f->kernel), "%s", id.kernel);
		f->ctx.kernel_version = f->kernel;
		f->ctx.knob_freeze_filesystems = id.knob_freeze_filesystems;
		f->freeze = knob_of(id.knob_freeze_filesystems);
		f->sync = knob_of(id.knob_sync_on_suspend);
	}
}

/* A finished record of the suite, or NULL. */
static const struct lava_record *finished(const struct lava_suite *s, const char *prefix)
{
	size_t at = 0;
	const struct lava_record *rec = lava_suite_record(s, prefix, &at);

	return rec && rec->reply.status == AGENT_OK ? rec : NULL;
}

static int store(struct results_cycle *cyc, const struct judgement *j, const struct judge_event *ev,
		 size_t n, struct rig_err *err)
{
	for (size_t i = 0; i < j->n_measurements; i++)
		if (results_cycle_add_measurement(cyc, j->measurements[i].name,
						  j->measurements[i].filesystem,
						  j->measurements[i].value, j->measurements[i].unit, err) < 0)
			return -1;
	for (size_t i = 0; i < j->n_verdicts; i++)
		if (results_cycle_add_verdict(cyc, j->verdicts[i].name, j->verdicts[i].filesystem,
					      j->verdicts[i].result, j->verdicts[i].known_issue,
					      j->verdicts[i].detail, err) < 0)
			return -1;
	for (size_t i = 0; i < n; i++)
		if (judge_event_worth_storing(ev[i].ev.kind) &&
		    results_cycle_add_event(cyc, kevent_kind_name(ev[i].ev.kind),
					    ev[i].ev.has_ktime ? ev[i].ev.ktime : -1.0, ev[i].host_ts,
					    ev[i].text, err) < 0)
			return -1;
	return 0;
}

/* After a resume: the same four records the engine asks for, the suite's console events. */
static int after_resume(const struct cycle_facts *f, struct judgement *j,
			const struct lava_suite *s, struct rig_err *err)
{
	const struct lava_record *trace = finished(s, EV_CMD_TRACE_READ);
	const struct lava_record *ops = finished(s, EV_CMD_STALL_OPS);
	const struct lava_record *alive = finished(s, EV_CMD_ALIVE);
	const struct lava_record *owner = finished(s, EV_CMD_FSFREEZE);
	struct frozen_window w;
	struct ev_stall_ops stall = { 0 };
	struct ev_alive writers = { 0 };
	char owner_fs[64] = "";
	int owner_frozen = -1, rc;

	ev_parse_trace(trace ? lava_record_lines(trace) : NULL, trace ? trace->reply.n_lines : 0, &w);
	if (ops && ev_parse_stall_ops(lava_record_lines(ops), ops->reply.n_lines, &stall, err) < 0)
		return -1;
	if (alive)
		ev_parse_alive(lava_record_lines(alive), alive->reply.n_lines, &writers);
	/* the owner's filesystem: "rig-dut fsfreeze NAME state" after the sleep */
	for (size_t at = 0; (owner = lava_suite_record(s, EV_CMD_FSFREEZE, &at));) {
		char name[64], action[16];

		if (owner->reply.status == AGENT_OK &&
		    sscanf(owner->cmd, EV_CMD_FSFREEZE " %63s %15s", name, action) == 2 &&
		    strcmp(action, "state") == 0) {
			snprintf(owner_fs, sizeof(owner_fs), "%s", name);
			owner_frozen = owner->reply.n_lines ? ev_parse_frozen(owner->reply.lines[0]) : -1;
		}
	}
	{
		struct judge_resume r = {
			.trace = &w, .stall = ops ? &stall : NULL, .alive = alive ? &writers : NULL,
			.events = s->events, .n_events = s->n_events,
			.owner_fs = *owner_fs ? owner_fs : NULL, .owner_frozen = owner_frozen,
		};

		rc = judge_after_resume(&f->ctx, j, &r, err);
	}
	ev_stall_ops_free(&stall);
	return rc;
}

/* A suspend's wake accounting: the test definition (rig-cycle.yaml) recorded "rig-dut suspend
 * MODE rtc|external SECONDS [VERB]"; LAVA cannot see the board fall asleep (entry unknown) nor
 * wake it in the alarm's place. */
static int judge_wake_of(const struct cycle_facts *f, struct judgement *j,
			 const struct lava_record *rec, struct results_cycle *cyc, struct rig_err *err)
{
	char mode[16], wake[16];
	unsigned seconds;
	struct ev_wake board;
	struct results_wake record;
	struct judge_wake_time w = { .requested_ms = -1, .entry_ms = -1, .board = &board };

	if (sscanf(rec->cmd, EV_CMD_SUSPEND " %15s %15s %u", mode, wake, &seconds) != 3)
		return 0;     /* not a command the definitions write: nothing to time */
	ev_parse_wake(lava_record_lines(rec), rec->reply.n_lines, &board);
	w.wake = strcmp(wake, "rtc") == 0 ? "rtc" : "external";
	if (strcmp(wake, "rtc") == 0)
		w.requested_ms = (long)seconds * 1000;
	wake_time_record(&w, &record);
	if (results_cycle_set_wake(cyc, &record, err) < 0)
		return -1;
	return judge_wake_time(&f->ctx, j, &w, err);
}

/* suspend, pm_test, hibernate with resume: the sleep's own record, then the resume's. NULL
 * hang phase: it came back. */
static int judge_sleep_cycle(const struct cycle_facts *f, struct judgement *j,
			     const struct lava_suite *s, const char *kind, const char **hang,
			     struct results_cycle *cyc, struct rig_err *err)
{
	bool hibernate = strcmp(kind, "hibernate") == 0, pm_test = strcmp(kind, "pm_test") == 0;
	const char *command = hibernate ? EV_CMD_HIBERNATE : pm_test ? EV_CMD_PM_TEST
					: EV_CMD_SUSPEND;
	const struct lava_record *rec = finished(s, command);
	struct ev_sleep sleep;
	int rc;

	if (!rec) {
		*hang = hibernate ? "restore" : pm_test ? "pm_test" : "resume";
		return 0;
	}
	ev_parse_sleep(lava_record_lines(rec), rec->reply.n_lines, &sleep);
	rc = hibernate ? judge_hibernate(&f->ctx, j, &sleep, JUDGE_HIB_RESTORED, err)
		       : judge_suspend(&f->ctx, j, pm_test ? "pm-test" : "suspend", &sleep,
				       JUDGE_SEEN_UNKNOWN, err);
	/* as rig run: a suspend that failed never slept, nothing to time */
	if (rc == 0 && !hibernate && !pm_test && sleep.result == 0)
		rc = judge_wake_of(f, j, rec, cyc, err);
	return rc < 0 ? -1 : after_resume(f, j, s, err);
}

/* A forced failed resume: what was acknowledged before the board went away (away), what the
 * disks hold after the next boot (verify). */
static int judge_failure_cycle(const struct cycle_facts *f, struct judgement *j,
			       const struct lava_suite *away, const struct lava_suite *verify,
			       bool journal, struct rig_err *err)
{
	const struct lava_record *v = finished(verify, EV_CMD_VERIFY);
	const struct lava_record *fsck = finished(verify, EV_CMD_FSCK);
	const struct lava_record *jd = finished(verify, EV_CMD_JOURNALD_CHECK);
	struct ev_journals journals = { 0 };
	struct ev_journald journald = { 0 };
	struct ev_fsck checks = { 0 };
	struct judge_failure fail = {
		.acked = &away->acked, .journal = journal, .journals = &journals, .fsck = &checks,
		.events = verify->events, .n_events = verify->n_events,
	};

	if (v)
		ev_parse_verify(lava_record_lines(v), v->reply.n_lines, &journals);
	if (jd) {          /* recorded on a systemd board: journald's own view of its journal */
		ev_parse_journald(lava_record_lines(jd), jd->reply.n_lines, &journald);
		fail.journald = &journald;
	}
	if (fsck)
		ev_parse_fsck(lava_record_lines(fsck), fsck->reply.n_lines, &checks);
	if (judge_ack_gap(j, &away->acked, away->events, away->n_events, err) < 0)
		return -1;
	return judge_after_failure(&f->ctx, j, &fail, err);
}

static const struct lava_suite *verify_suite(const struct lava_evidence *e, size_t from, int idx)
{
	char kind[64];

	for (size_t i = from; i < e->n; i++)
		if (lava_cycle_of_suite(e->suites[i].name, kind, sizeof(kind)) == idx &&
		    strcmp(kind, "verify") == 0)
			return &e->suites[i];
	return NULL;
}

static enum results_cycle_status status_of(const struct results_cycle *cyc)
{
	if (cyc->status == RESULTS_CYCLE_HANG)
		return RESULTS_CYCLE_HANG;
	for (size_t i = 0; i < cyc->n_verdicts; i++)
		if ((cyc->verdicts[i].result == RESULTS_VERDICT_FAIL && !cyc->verdicts[i].known_issue) ||
		    cyc->verdicts[i].result == RESULTS_VERDICT_ERROR)
			return RESULTS_CYCLE_FAIL;
	return RESULTS_CYCLE_PASS;
}

static int one_cycle(struct results_db *db, int64_t run_id, const struct lava_evidence *e,
		     size_t at, int idx, const char *kind, const struct cycle_facts *f,
		     const struct lava_import_evidence_info *info, struct lava_import_tally *t,
		     struct rig_err *err)
{
	const struct lava_suite *s = &e->suites[at];
	const struct lava_suite *verify = verify_suite(e, at + 1, idx);
	struct results_cycle_info ci = {
		.idx = idx, .step_kind = verify && strcmp(kind, "power-cut") == 0
					 ? "power-cut-while-suspended" : kind,
		.knob_freeze_filesystems = f->freeze, .knob_sync_on_suspend = f->sync,
		.kernel_version = f->kernel[0] ? f->kernel : NULL, .console_from = -1,
		.started_at = s->n_events ? s->events[0].host_ts : info->started_at,
	};
	struct results_cycle *cyc;
	struct judgement j = { 0 }, none = { 0 };
	const char *hang = NULL;
	int rc;

	if (!(cyc = results_cycle_begin(run_id, &ci, err)))
		return -1;

	if (strcmp(kind, "power-cut") == 0 && !verify) {
		hang = "boot";       /* the board never came back for its verification */
		rc = 0;
	} else if (verify) {
		rc = judge_failure_cycle(f, &j, s, verify, info->journal, err);
	} else {
		rc = judge_sleep_cycle(f, &j, s, kind, &hang, cyc, err);
	}
	if (!rc)
		rc = store(cyc, &j, s->events, s->n_events, err);
	if (!rc && verify)
		rc = store(cyc, &none, verify->events, verify->n_events, err);
	if (!rc && hang)
		rc = results_cycle_set_hang(cyc, hang, NULL, err);
	if (!rc) {
		enum results_cycle_status st = status_of(cyc);

		results_cycle_end(cyc, st, 0, -1);
		rc = results_cycle_commit(db, cyc, NULL, err);
		t->cycles++;
		t->failed += st != RESULTS_CYCLE_PASS;
		t->hangs += st == RESULTS_CYCLE_HANG;
		for (size_t i = 0; i < j.n_verdicts; i++)
			t->known += j.verdicts[i].result == RESULTS_VERDICT_FAIL && j.verdicts[i].known_issue;
	}
	judgement_free(&j);
	results_cycle_free(cyc);
	return rc;
}

int lava_import_evidence(struct results_db *db, int64_t run_id, const struct lava_evidence *e,
			 const struct lava_import_evidence_info *info, struct lava_import_tally *t,
			 struct rig_err *err)
{
	struct cycle_facts f = {
		.ctx = { .board = info->board, .known = info->known, .knob_freeze_filesystems = -1 },
	};

	memset(t, 0, sizeof(*t));
	if (!info->board)
		return rig_err_set(err, RIG_EXIT_USAGE, "the job recorded evidence for board %s, but "
				   "its board file is needed to judge it (--board)", info->board_name);
	for (size_t i = 0; i < e->n; i++) {
		char kind[64];
		int idx = lava_cycle_of_suite(e->suites[i].name, kind, sizeof(kind));

		read_identity(&e->suites[i], &f);
		if (idx < 0 || strcmp(kind, "verify") == 0)
			continue;
		if (one_cycle(db, run_id, e, i, idx, kind, &f, info, t, err) < 0)
			return -1;
	}
	return 0;
}
