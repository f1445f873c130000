/* RTC wakes that never came. rig-dut arms the alarm before the kernel's pre-suspend sync and
 * freeze of filesystems; when those outlast the alarm (17-21 s seen on the QEMU board with busy
 * writers, against a 5 s alarm), it fires while the board is still suspending and nothing wakes
 * it: a sleeping board, not a hung one. */
#ifndef RIG_ENGINE_RTC_WAKE_H
#define RIG_ENGINE_RTC_WAKE_H

#include <stdbool.h>
#include <stddef.h>

#include "config/plan.h"
#include "engine/ctx.h"
#include "engine/wait.h"

struct rtc_wake {
	double armed_after;   /* monotonic_seconds() when rig-dut was asked to suspend (alarm armed later) */
	double asleep_at;     /* monotonic_seconds() when the board was seen asleep */
	bool rescued;         /* the rig woke the board another way */
};

/* Wait for the board's reply up to the alarm plus a grace; if it is then still asleep (the power
 * backend can tell) and can be woken another way, wake it. Returns what wait_board returned (a
 * rescued board still owes its reply: the caller goes on waiting). */
enum wait_result rtc_wake_wait(struct engine_ctx *ctx, const struct step_suspend *st,
			       struct rtc_wake *w, struct agent_reply *reply, struct rig_err *err);

/* The wake verdict itself is the judge's (judge_wake, judge/judge.h): skip when the alarm had
 * expired before the board fell asleep, fail when the board was asleep in time. */

#endif
