/*
 * Runs left `running` by a rig that is gone (killed with SIGKILL, crashed, its host lost power)
 * are ended as aborted. A run's rig is gone when its board's lock (engine/lock.h) is free on the
 * run's host: every rig run holds that lock for as long as it runs, and the kernel drops it
 * however the holder ends. Runs stored on another host are left alone: their lock is not here.
 */
#ifndef RIG_CLI_STALE_H
#define RIG_CLI_STALE_H

#include <stdio.h>

#include "results/db.h"

/* rig run, holding board's lock: every run of board on this host still running is stale. Says
 * which on note. */
int cli_stale_reconcile_board(struct results_db *db, const char *board, FILE *note,
			      struct rig_err *err);

/* rig results --repair: every running run of this host whose board lock is free is ended as
 * aborted; the others are named with the reason they are left. *n_fixed: runs ended. */
int cli_stale_repair(struct results_db *db, FILE *out, int *n_fixed, struct rig_err *err);

#endif
