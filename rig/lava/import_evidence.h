/* Judging a LAVA job's recorded evidence (lava/evidence.h) cycle by cycle with the rig's judge
 * (judge/judge.h): the seam between reading a job (a dispatcher log, a server's log over REST)
 * and storing it (import.c). */
#ifndef RIG_LAVA_IMPORT_EVIDENCE_H
#define RIG_LAVA_IMPORT_EVIDENCE_H

#include <stdbool.h>
#include <stdint.h>

#include "config/board.h"
#include "config/known.h"
#include "lava/evidence.h"
#include "results/db.h"

struct lava_import_evidence_info {
	const struct board *board;          /* the board file: its filesystems (required) */
	const char *board_name;             /* for messages */
	const struct known_issues *known;   /* applied to failures; NULL: none */
	bool journal;                       /* the plan ran journal writers */
	double started_at;                  /* a cycle without console lines starts here */
};

struct lava_import_tally {
	int cycles, failed, hangs, known;
};

/* Store each cycle suite ([N_]cycle-III-KIND; its verify suite after a forced failed resume
 * joins it) of run_id with the judge's verdicts. */
int lava_import_evidence(struct results_db *db, int64_t run_id, const struct lava_evidence *e,
			 const struct lava_import_evidence_info *info, struct lava_import_tally *t,
			 struct rig_err *err);

#endif
