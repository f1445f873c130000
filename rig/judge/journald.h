/* Judging journald's own view of its journal after a forced failed resume (power cut while
 * suspended, hibernation image discarded). Pure: no board, no I/O. */
#ifndef RIG_JUDGE_JOURNALD_H
#define RIG_JUDGE_JOURNALD_H

#include <stddef.h>

#include "results/cycle.h"

/* The "journald" verdict from `rig-dut journald-check`'s line:
 *   journald verify=pass|fail files=N bad_files=N bad_earlier=N renamed=N complaints=N
 *            corrupt_complaints=N
 * (bad_files: files journalctl --verify fails that are open or were set aside since this boot;
 * bad_earlier: *.journal~ files set aside before this boot that fail it — damaged by an earlier
 * power-off, not by the cycle judged, reported only; renamed: *.journal~ files journald set
 * aside since this boot; complaints: its messages this boot about corrupted, truncated or
 * uncleanly closed files; corrupt_complaints: those that name corruption or truncation). Fails
 * when journalctl --verify finds a bad file of this boot or journald complained of corruption or
 * truncation; error when the line is not such a report. A file
 * journald only found uncleanly closed (it had it open when the power went) and renamed, which
 * verifies clean, is reported in the detail. */
enum results_verdict_result journald_judge(const char *line, char *detail, size_t size);

#endif
