/* Judging a sleep that systemd entered (systemctl suspend|hybrid-sleep|suspend-then-hibernate|
 * hibernate): what systemd itself reported. Pure: no board, no I/O. */
#ifndef RIG_JUDGE_SYSTEMD_SLEEP_H
#define RIG_JUDGE_SYSTEMD_SLEEP_H

#include <stddef.h>

#include "results/cycle.h"

/* The "systemd-sleep" verdict from rig-dut's result line after a systemctl sleep:
 *   systemd_result=success|<unit Result>  the sleep unit's result (systemd's own "it failed")
 *   user_freeze=froze|failed|none         systemd-sleep froze user.slice before the sleep ...
 *   user_thaw=thawed|failed|none          ... and thawed it after (from systemd's journal)
 *   sleep_pre_ms=N sleep_post_ms=N        systemd-sleep's time before and after the kernel
 *   systemd_said="..."                    what systemd logged when it failed
 * Fails when systemd reports the sleep failed or the user sessions were not frozen and thawed;
 * error when the line carries no systemd report. */
enum results_verdict_result systemd_sleep_judge(const char *line, char *detail, size_t size);

#endif
