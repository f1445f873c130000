#include "lava/import.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lava/evidence.h"
#include "lava/import_evidence.h"
#include "util/number.h"

struct run_facts {
	char board[128], plan[128], kernel[128];
	enum results_knob freeze, sync;
	double started_at;
};

static enum results_knob knob_of(const struct lava_case *c)
{
	if (!c->has_measurement || strcmp(c->result, "pass"))
		return RESULTS_KNOB_UNKNOWN;
	return c->measurement != 0 ? RESULTS_KNOB_ON : RESULTS_KNOB_OFF;
}

static void setup_fact(struct run_facts *f, const struct lava_case *c)
{
	if (!strncmp(c->name, "board.", 6))
		snprintf(f->board, sizeof(f->board), "%s", c->name + 6);
	else if (!strncmp(c->name, "plan.", 5))
		snprintf(f->plan, sizeof(f->plan), "%s", c->name + 5);
	else if (!strncmp(c->name, "kernel.", 7))
		snprintf(f->kernel, sizeof(f->kernel), "%s", c->name + 7);
	else if (!strcmp(c->name, "knob.freeze_filesystems") && !f->freeze)
		f->freeze = knob_of(c);
	else if (!strcmp(c->name, "knob.sync_on_suspend") && !f->sync)
		f->sync = knob_of(c);
}

static void gather_facts(const struct lava_cases *cases, struct run_facts *f)
{
	memset(f, 0, sizeof(*f));
	for (size_t i = 0; i < cases->n; i++) {
		const struct lava_case *c = &cases->v[i];

		if (c->logged > 0 && (f->started_at == 0 || c->logged < f->started_at))
			f->started_at = c->logged;
		if (!strncmp(lava_bare_suite(c->suite), "rig-setup", 9))
			setup_fact(f, c);
	}
}

/* The kernel and knobs as the board itself reported them (its first rig-dut info), for a job
 * whose setup reports no cases. */
static void evidence_facts(const struct lava_evidence *e, struct run_facts *f,
			   struct results_run_info *ri)
{
	for (size_t i = 0; i < e->n; i++) {
		size_t at = 0;
		const struct lava_record *rec = lava_suite_record(&e->suites[i], EV_CMD_INFO, &at);
		struct ev_identity id;

		if (!rec || rec->reply.status != AGENT_OK || !rec->reply.n_lines ||
		    ev_parse_identity(rec->reply.lines[0], &id) < 0)
			continue;
		if (!f->kernel[0])
			snprintf(f->kernel, sizeof(f->kernel), "%s", id.kernel);
		if (!f->freeze)
			f->freeze = id.knob_freeze_filesystems < 0 ? RESULTS_KNOB_UNKNOWN
				    : id.knob_freeze_filesystems ? RESULTS_KNOB_ON : RESULTS_KNOB_OFF;
		if (!f->sync)
			f->sync = id.knob_sync_on_suspend < 0 ? RESULTS_KNOB_UNKNOWN
				  : id.knob_sync_on_suspend ? RESULTS_KNOB_ON : RESULTS_KNOB_OFF;
		break;
	}
	ri->kernel_version = f->kernel[0] ? f->kernel : NULL;
	ri->knob_freeze_filesystems = f->freeze;
	ri->knob_sync_on_suspend = f->sync;
}

static enum results_verdict_result verdict_result(const char *result)
{
	if (!strcmp(result, "pass"))
		return RESULTS_VERDICT_PASS;
	if (!strcmp(result, "fail"))
		return RESULTS_VERDICT_FAIL;
	if (!strcmp(result, "skip"))
		return RESULTS_VERDICT_SKIP;
	return RESULTS_VERDICT_ERROR;
}

static int add_case(struct results_cycle *cyc, const struct lava_case *c, struct rig_err *err)
{
	const char *dot = strchr(c->name, '.');
	char verdict[128], mname[192];
	const char *fs = dot ? dot + 1 : NULL;
	size_t vlen = dot ? (size_t)(dot - c->name) : strlen(c->name);

	snprintf(verdict, sizeof(verdict), "%.*s", (int)vlen, c->name);
	if (!strcmp(verdict, "hang"))
		return results_cycle_set_hang(cyc, fs && *fs ? fs : "resume", NULL, err);
	if (results_cycle_add_verdict(cyc, verdict, fs, verdict_result(c->result), NULL,
				      "lava", err))
		return -1;
	if (!c->has_measurement)
		return 0;
	snprintf(mname, sizeof(mname), "%s%s%s", verdict, c->units && *c->units ? "_" : "",
		 c->units ? c->units : "");
	return results_cycle_add_measurement(cyc, mname, fs, c->measurement,
					     c->units && *c->units ? c->units : NULL, err);
}

static enum results_cycle_status cycle_status(const struct results_cycle *cyc, int stopped)
{
	if (cyc->status == RESULTS_CYCLE_HANG || stopped)
		return RESULTS_CYCLE_HANG;
	for (size_t i = 0; i < cyc->n_verdicts; i++)
		if (cyc->verdicts[i].result == RESULTS_VERDICT_FAIL ||
		    cyc->verdicts[i].result == RESULTS_VERDICT_ERROR)
			return RESULTS_CYCLE_FAIL;
	return RESULTS_CYCLE_PASS;
}

/*
 * Which cases belong to which cycle, worked out once: each cycle's own cases in job order, its
 * step kind, and whether LAVA stopped it. Every cycle used to scan every case (twice, and every
 * earlier case once more to tell whether it was new): 1000 cycles took 0.81 s, 2000 took 2.70 s.
 */
struct cycle_map {
	int max_idx;
	int *head, *tail;       /* per cycle index: its first and last own case, -1 none */
	int *next;              /* per case: the next own case of the same cycle, -1 none */
	int *kind_case;         /* per cycle index: the case whose suite names its kind, -1 none */
	char *stopped;          /* per cycle index: a failed lava-suite case named after the
				 * cycle's definition: LAVA stopped it (timeout) */
	char *seen;             /* per cycle index: named by a case already walked */
};

static void cycle_map_free(struct cycle_map *m)
{
	free(m->head);
	free(m->tail);
	free(m->next);
	free(m->kind_case);
	free(m->stopped);
	free(m->seen);
}

/* The cycle a case's suite is (own), and the one its name is when LAVA's own suite ran it. */
static void case_cycles(const struct lava_case *c, int *own, int *named, char *kind, size_t size)
{
	char k[64];

	*own = lava_cycle_of_suite(c->suite, kind, size);
	*named = !strcmp(c->suite, "lava") ? lava_cycle_of_suite(c->name, k, sizeof(k)) : -1;
}

static int cycle_map_build(const struct lava_cases *cases, struct cycle_map *m, struct rig_err *err)
{
	size_t n = cases->n ? cases->n : 1, slots;
	char kind[64];
	int own, named;

	memset(m, 0, sizeof(*m));
	m->max_idx = -1;
	for (size_t i = 0; i < cases->n; i++) {
		case_cycles(&cases->v[i], &own, &named, kind, sizeof(kind));
		if (own > m->max_idx)
			m->max_idx = own;
		if (named > m->max_idx)
			m->max_idx = named;
	}
	slots = (size_t)(m->max_idx + 1);
	m->head = malloc((slots ? slots : 1) * sizeof(int));
	m->tail = malloc((slots ? slots : 1) * sizeof(int));
	m->kind_case = malloc((slots ? slots : 1) * sizeof(int));
	m->next = malloc(n * sizeof(int));
	m->stopped = calloc(slots ? slots : 1, 1);
	m->seen = calloc(slots ? slots : 1, 1);
	if (!m->head || !m->tail || !m->kind_case || !m->next || !m->stopped || !m->seen) {
		cycle_map_free(m);
		return rig_err_set(err, RIG_EXIT_INFRA, "lava import: out of memory");
	}
	for (size_t x = 0; x < slots; x++)
		m->head[x] = m->tail[x] = m->kind_case[x] = -1;
	for (size_t i = 0; i < cases->n; i++) {
		const struct lava_case *c = &cases->v[i];
		int at;

		m->next[i] = -1;
		case_cycles(c, &own, &named, kind, sizeof(kind));
		if (own >= 0) {
			if (m->tail[own] >= 0)
				m->next[m->tail[own]] = (int)i;
			else
				m->head[own] = (int)i;
			m->tail[own] = (int)i;
		}
		if (named >= 0 && strcmp(c->result, "pass"))
			m->stopped[named] = 1;
		/* the step kind: the first suite of the cycle that is not the verify after a cut */
		at = own >= 0 ? own : named;
		if (at >= 0 && m->kind_case[at] < 0) {
			if (own < 0)
				lava_cycle_of_suite(c->name, kind, sizeof(kind));
			if (strcmp(kind, "verify"))
				m->kind_case[at] = (int)i;
		}
	}
	return 0;
}

static void cycle_kind(const struct lava_cases *cases, const struct cycle_map *m, int idx,
		       char *kind, size_t size)
{
	const struct lava_case *c;

	snprintf(kind, size, "verify");
	if (m->kind_case[idx] < 0)
		return;
	c = &cases->v[m->kind_case[idx]];
	if (lava_cycle_of_suite(c->suite, kind, size) < 0)
		lava_cycle_of_suite(c->name, kind, size);
}

static int import_cycle(struct results_db *db, int64_t run_id, const struct lava_cases *cases,
			const struct cycle_map *m, const struct run_facts *f, int idx,
			enum results_cycle_status *status, struct rig_err *err)
{
	struct results_cycle_info ci = {
		.idx = idx, .knob_freeze_filesystems = f->freeze, .knob_sync_on_suspend = f->sync,
		.kernel_version = f->kernel[0] ? f->kernel : NULL, .console_from = -1,
		.started_at = f->started_at,
	};
	struct results_cycle *cyc;
	char kind[64];
	int stopped = m->stopped[idx], rc = 0;
	double last = 0;

	cycle_kind(cases, m, idx, kind, sizeof(kind));
	ci.step_kind = kind;
	if (!(cyc = results_cycle_begin(run_id, &ci, err)))
		return -1;
	for (int i = m->head[idx]; i >= 0 && !rc; i = m->next[i]) {
		const struct lava_case *c = &cases->v[i];

		if (c->logged > last)
			last = c->logged;
		rc = add_case(cyc, c, err);
	}
	if (!rc && stopped && cyc->status != RESULTS_CYCLE_HANG)
		rc = results_cycle_set_hang(cyc, "resume", NULL, err);
	if (!rc) {
		*status = cycle_status(cyc, stopped);
		results_cycle_end(cyc, *status, last, -1);
		rc = results_cycle_commit(db, cyc, NULL, err);
	}
	results_cycle_free(cyc);
	return rc;
}

static int cycle_index_of_case(const struct lava_case *c)
{
	char k[64];
	int idx = lava_cycle_of_suite(c->suite, k, sizeof(k));

	if (idx < 0 && !strcmp(c->suite, "lava") && strcmp(c->result, "pass"))
		idx = lava_cycle_of_suite(c->name, k, sizeof(k));
	return idx;
}

/* Each cycle once, in the order the job first names it. */
static int import_cycles(struct results_db *db, int64_t run_id, const struct lava_cases *cases,
			 const struct run_facts *f, int *n_cycles, int *failed, struct rig_err *err)
{
	struct cycle_map m;
	char kind[64];
	int rc = 0, own, named;

	if (cycle_map_build(cases, &m, err))
		return -1;
	for (size_t i = 0; i < cases->n && !rc; i++) {
		int idx = cycle_index_of_case(&cases->v[i]);
		enum results_cycle_status st;
		int new_cycle = idx >= 0 && !m.seen[idx];

		case_cycles(&cases->v[i], &own, &named, kind, sizeof(kind));
		if (own >= 0)
			m.seen[own] = 1;
		if (named >= 0)
			m.seen[named] = 1;
		if (!new_cycle)
			continue;
		rc = import_cycle(db, run_id, cases, &m, f, idx, &st, err);
		if (!rc) {
			(*n_cycles)++;
			*failed |= st != RESULTS_CYCLE_PASS;
		}
	}
	cycle_map_free(&m);
	return rc;
}

/* LAVA's failed `job` case when the failure is the kernel's or the test's (a kernel that panics
 * or never reaches its prompt: Job, Test, LAVATimeout), not the lab's (Infrastructure,
 * Configuration, Bug, Canceled); NULL otherwise. */
static const struct lava_case *kernel_failure(const struct lava_cases *cases)
{
	static const char *const theirs[] = { "Job", "Test", "LAVATimeout" };

	for (size_t i = 0; i < cases->n; i++) {
		const struct lava_case *c = &cases->v[i];

		if (strcmp(c->suite, "lava") || strcmp(c->name, "job") || !strcmp(c->result, "pass") ||
		    !c->error_type)
			continue;
		for (size_t k = 0; k < sizeof(theirs) / sizeof(theirs[0]); k++)
			if (!strcmp(c->error_type, theirs[k]))
				return c;
	}
	return NULL;
}

/* A job that failed before its first cycle because of the kernel is a failed boot, cycle 0: the
 * board did not come up for the plan, which is a verdict on the kernel, not on the lab. */
static int import_boot_failure(struct results_db *db, int64_t run_id, const struct run_facts *f,
			       const struct lava_case *job, struct rig_err *err)
{
	struct results_cycle_info ci = {
		.idx = 0, .step_kind = "boot", .knob_freeze_filesystems = f->freeze,
		.knob_sync_on_suspend = f->sync, .kernel_version = f->kernel[0] ? f->kernel : NULL,
		.console_from = -1, .started_at = f->started_at,
	};
	struct results_cycle *cyc = results_cycle_begin(run_id, &ci, err);
	char detail[512];
	int rc;

	if (!cyc)
		return -1;
	snprintf(detail, sizeof(detail), "LAVA %s error: %s", job->error_type,
		 job->error_msg ? job->error_msg : "?");
	rc = results_cycle_add_verdict(cyc, "boot", NULL, RESULTS_VERDICT_FAIL, NULL, detail, err);
	if (!rc) {
		results_cycle_end(cyc, RESULTS_CYCLE_FAIL, job->logged, -1);
		rc = results_cycle_commit(db, cyc, NULL, err);
	}
	results_cycle_free(cyc);
	return rc;
}

int lava_import(struct results_db *db, const struct lava_cases *cases,
		const struct lava_import_info *info, int64_t *run_id, int *exit_code,
		struct rig_err *err)
{
	struct run_facts f;
	struct results_run_info ri = {0};
	const struct lava_case *job;
	struct lava_evidence evidence;
	int n_cycles = 0, failed = 0, known = 0, rc;
	enum results_run_status status;

	gather_facts(cases, &f);
	if (!f.plan[0] && info->job_plan)
		snprintf(f.plan, sizeof(f.plan), "%s", info->job_plan);
	if (!f.kernel[0] && info->job_kernel)
		snprintf(f.kernel, sizeof(f.kernel), "%s", info->job_kernel);
	if (lava_evidence_read(cases, &evidence, err) < 0)
		return -1;
	ri.board = info->board ? info->board : f.board[0] ? f.board : NULL;
	if (!ri.board) {
		lava_evidence_free(&evidence);
		return rig_err_set(err, RIG_EXIT_USAGE,
				   "the job does not name its board (no rig-setup board.NAME case): give --board");
	}
	ri.plan = f.plan[0] ? f.plan : NULL;
	ri.source = "lava";
	ri.lava_job_id = info->lava_job_id;
	ri.lava_server = info->lava_server;
	ri.kernel_version = f.kernel[0] ? f.kernel : NULL;
	ri.knob_freeze_filesystems = f.freeze;
	ri.knob_sync_on_suspend = f.sync;
	ri.started_at = f.started_at;
	ri.console_log = info->log_path;
	if (evidence.n_records)
		evidence_facts(&evidence, &f, &ri);
	if (results_run_begin(db, &ri, run_id, err)) {
		lava_evidence_free(&evidence);
		return -1;
	}
	if (evidence.n_records) {
		struct lava_import_evidence_info ei = {
			.board = info->board_def, .board_name = ri.board, .known = info->known,
			.journal = true, .started_at = f.started_at,
		};
		struct lava_import_tally t;

		rc = lava_import_evidence(db, *run_id, &evidence, &ei, &t, err);
		n_cycles = t.cycles;
		failed = t.failed;
		known = t.known;
	} else {
		rc = import_cycles(db, *run_id, cases, &f, &n_cycles, &failed, err);
	}
	lava_evidence_free(&evidence);
	if (rc) {
		struct rig_err ignored;

		/* the first error is the one to report; the run must not stay "running" */
		if (results_run_end(db, *run_id, RESULTS_RUN_INFRA, RIG_EXIT_INFRA, &ignored))
			fprintf(stderr, "rig: %s\n", ignored.msg);
		return -1;
	}
	if (!n_cycles && (job = kernel_failure(cases))) {
		if (import_boot_failure(db, *run_id, &f, job, err))
			return -1;
		n_cycles = failed = 1;
	}
	status = !n_cycles ? RESULTS_RUN_INFRA : failed ? RESULTS_RUN_FAIL
		 : known ? RESULTS_RUN_KNOWN : RESULTS_RUN_PASS;
	*exit_code = !n_cycles ? RIG_EXIT_INFRA : failed ? RIG_EXIT_FAIL : RIG_EXIT_PASS;
	return results_run_end(db, *run_id, status, *exit_code, err);
}
