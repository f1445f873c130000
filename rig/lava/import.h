/* `rig lava import`: a LAVA job stored as one rig run (source "lava").
 *
 * A job rendered by this rig records evidence only (jobs/test-definitions/): its console is
 * replayed into evidence (lava/evidence.h) and judged by the rig's judge, the verdicts rig run
 * gives for the same board (lava/import_evidence.h). A job whose test definitions judged by
 * themselves (older rigs) is stored from its test cases, as follows.
 *
 * Suites named [N_]cycle-III-KIND (the jobs `rig lava render` writes) become cycle III with step
 * kind KIND (a cycle's "verify" suite after a power cut joins its cycle). Case "VERDICT.FS" is
 * verdict VERDICT on filesystem FS, "VERDICT" a whole-system verdict, "hang.PHASE" a hang; a
 * measurement becomes VERDICT_UNITS on the same filesystem. The rig-setup suite names the board
 * (board.NAME), plan (plan.NAME), kernel (kernel.VERSION) and knobs (knob.NAME, value as the
 * measurement). A test definition LAVA itself failed (its job timeout: the board hung) is a hang
 * of that cycle. */
#ifndef RIG_LAVA_IMPORT_H
#define RIG_LAVA_IMPORT_H

#include <stdint.h>

#include "config/board.h"
#include "config/known.h"
#include "lava/cases.h"
#include "results/db.h"

struct lava_import_info {
	const char *board;         /* overrides the board the job reported; required if it did not */
	/* A job of the rig's evidence-recording test definitions is judged by the rig's judge
	 * (lava/import_evidence.h): it needs the board's file and applies the known issues. */
	const struct board *board_def;
	const struct known_issues *known;
	const char *lava_job_id;   /* NULL: unknown */
	const char *lava_server;   /* the server the job came from; NULL: from a file */
	const char *log_path;      /* recorded as the run's console log */
	/* What the job was rendered for (its definition's metadata), for a job that died before its
	 * rig-setup reported them; NULL: unknown. */
	const char *job_plan, *job_kernel;
};

/* Store cases as one run. *exit_code: 0 all passed, 1 a verdict failed or a cycle hung, 3 the
 * job produced no cycle at all (it never got to run the plan) and LAVA blamed the lab. A job that
 * LAVA failed before its first cycle for the kernel's or the test's sake (error_type Job, Test,
 * LAVATimeout: a kernel that panics or never reaches its prompt) is a failed "boot" verdict in
 * cycle 0, exit 1. */
int lava_import(struct results_db *db, const struct lava_cases *cases,
		const struct lava_import_info *info, int64_t *run_id, int *exit_code,
		struct rig_err *err);

struct lava_import_outcome {
	int64_t run_id;
	int exit_code;
	int already;       /* the job was stored before (as run_id); nothing was written */
};

/*
 * lava_import() made idempotent and atomic: a job with an id is stored once per server (a second
 * import finds the first run and writes nothing), and a run is stored whole or not at all.
 */
int lava_import_once(struct results_db *db, const struct lava_cases *cases,
		     const struct lava_import_info *info, struct lava_import_outcome *out,
		     struct rig_err *err);

#endif
