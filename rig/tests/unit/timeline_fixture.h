/* Shared by the per-device timeline tests (test_judge_timeline, test_results_timeline,
 * dashboards/tests/test_dashboard_timeline; include after <cmocka.h> and support.h): the board's
 * recorded-style summary of a QEMU deep suspend parsed, the freeze trace of that suspend, cycles
 * to store, a scratch directory. */
#ifndef RIG_TESTS_TIMELINE_FIXTURE_H
#define RIG_TESTS_TIMELINE_FIXTURE_H

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/timeline.h"
#include "results/cycle.h"
#include "results/db.h"

#define TL_FIXTURE_LINES 128

/* rig/tests/data/timeline/qemu-deep.summary (what workloads/tests/rig-dut-timeline.sh checks the
 * board's awk prints for qemu-deep.trace) through timeline_parse. */
static inline void tl_fixture_parse(struct timeline *tl)
{
	char *path = top_path("rig/tests/data/timeline/qemu-deep.summary"), buf[1024];
	char *lines[TL_FIXTURE_LINES];
	size_t n = 0;
	FILE *f = fopen(path, "r");
	struct rig_err err;

	assert_non_null(f);
	while (n < TL_FIXTURE_LINES && fgets(buf, sizeof(buf), f)) {
		buf[strcspn(buf, "\n")] = '\0';
		lines[n++] = strdup(buf);
	}
	fclose(f);
	free(path);
	assert_int_equal(timeline_parse((const char *const *)lines, n, tl, &err), 0);
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
}

/* The freeze trace of that suspend (boot-clock ns): vda frozen at 812.583 s and thawed at
 * 817.8185 s, vdb frozen at 812.5839 s and never seen thawed. */
static inline void tl_fixture_window(struct frozen_window *w)
{
	memset(w, 0, sizeof(*w));
	window_feed(w, "fs_freeze", 812582100000ULL, "");
	window_feed(w, "freeze_super", 812582200000ULL, "vda");
	window_feed(w, "freeze_super_ret", 812583000000ULL, "");
	window_feed(w, "freeze_super", 812583100000ULL, "vdb");
	window_feed(w, "freeze_super_ret", 812583900000ULL, "");
	window_feed(w, "fs_freeze_done", 812584000000ULL, "");
	window_feed(w, "fs_thaw", 817818000000ULL, "");
	window_feed(w, "thaw_super", 817818500000ULL, "vda");
	window_feed(w, "fs_thaw_done", 817819000000ULL, "");
}

/* One writer's telemetry as rig-dut stall-ops gives it: id and its operations (not copied). */
static inline void tl_fixture_writer(struct ev_stall_ops *stall, const char *id,
				     struct tel_entry *ops, size_t n)
{
	memset(stall, 0, sizeof(*stall));
	stall->n = 1;
	snprintf(stall->writers[0].id, sizeof(stall->writers[0].id), "%s", id);
	stall->writers[0].ops = ops;
	stall->writers[0].n_ops = n;
}

static inline struct results_cycle *tl_fixture_cycle(int64_t run_id, int idx, const char *kernel)
{
	struct results_cycle_info info = {
		.idx = idx, .step_kind = "suspend", .step_desc = "deep via rtc",
		.started_at = 1796472000.0 + idx, .kernel_version = kernel, .console_from = -1,
	};
	struct rig_err err = { 0 };
	struct results_cycle *c = results_cycle_begin(run_id, &info, &err);

	assert_non_null(c);
	return c;
}

static inline void tl_fixture_commit(struct results_db *db, struct results_cycle *c)
{
	struct rig_err err = { 0 };

	results_cycle_end(c, RESULTS_CYCLE_PASS, 0, -1);
	if (results_cycle_commit(db, c, NULL, &err))
		fail_msg("commit: %s", err.msg);
	results_cycle_free(c);
}

static inline int tl_fixture_remove_entry(const char *path, const struct stat *st, int flag,
					  struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

/* A new results database in a new directory under /tmp (dir: "/tmp/NAME.XXXXXX", filled in). */
static inline struct results_db *tl_fixture_db(char *dir, char *path, size_t size)
{
	struct results_db *db = NULL;
	struct rig_err err = { 0 };

	assert_non_null(mkdtemp(dir));
	snprintf(path, size, "%s/results.db", dir);
	if (results_open(path, RESULTS_OPEN_CREATE, &db, &err))
		fail_msg("open %s: %s", path, err.msg);
	return db;
}

static inline int tl_fixture_remove(const char *dir)
{
	return nftw(dir, tl_fixture_remove_entry, 8, FTW_DEPTH | FTW_PHYS);
}

#endif
