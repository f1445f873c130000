/*
 * The wake-time verdict (issue 18 part 5): did an RTC-woken suspend sleep as long as its alarm
 * left it? Premature wakes (something else woke the board: a wakeup source firing, an alarm
 * armed wrong) and late ones (the alarm fired late or the board did not wake on it) both fail,
 * with the numbers and the wake source in the detail. Pure: the board's own accounting
 * (ev_parse_wake, rig-dut suspend's wake line), the plan's wake and alarm, and what the host saw.
 *
 * Premature: the RTC's wakeup source stayed quiet (the board names its RTC's wakeup sources and
 * none of them counted; rtc_source, the board file's wake_timing.rtc_source, says it counts every
 * RTC wake on this board), or the board was back (asleep + awake from arming the alarm, the
 * board's boottime) more than early_ms before its alarm's time: something else woke it. Timed on
 * that span, not on the time asleep alone, because the monotonic clock does not stop in every
 * sleep (s2idle on a kernel without a cpuidle driver never suspends timekeeping: asleep_ms stays
 * near 0). A board whose RTC has no wakeup source is judged on the timing alone, and the detail
 * says so.
 *
 * Late: the board slept more than late_ms longer than its alarm left it. rig-dut arms the alarm
 * and then the kernel syncs, freezes and suspends devices (seconds with busy writers), so the
 * sleep is the alarm less that entry. The host sees the entry on boards whose power backend
 * reports the sleep (QEMU's SUSPEND event, the s2idle console line); where it cannot (a board
 * without power events, a LAVA job) the whole alarm bounds it.
 *
 * Not judged (skip, with the reason and what was recorded): a wake that was not the RTC (QMP,
 * button, serial: nothing to time against), an RTC alarm the rig had to stand in for (the wake
 * verdict, judge_wake, judges that), a board that did not report its accounting or its clocks.
 */
#ifndef RIG_JUDGE_WAKE_TIME_H
#define RIG_JUDGE_WAKE_TIME_H

#include <stdbool.h>
#include <stddef.h>

#include "judge/evidence.h"
#include "judge/judge.h"
#include "results/cycle.h"

struct judge_wake_time {
	const char *wake;               /* how the plan woke it: "rtc", "qmp", "button", "serial" */
	long requested_ms;              /* the RTC alarm, from arming; -1 without one */
	long entry_ms;                  /* arming to the board asleep, as the host saw it; -1 unknown */
	bool rescued;                   /* the alarm never woke it: the rig did */
	const struct ev_wake *board;    /* rig-dut's wake line; NULL: none came back */
	unsigned early_ms, late_ms;     /* tolerances; judge_wake_time sets them from the board */
	bool rtc_source;                /* a quiet RTC wakeup source is premature; from the board */
};

/* The verdict and its detail alone. */
enum results_verdict_result wake_time_judge(const struct judge_wake_time *w, char *detail,
					    size_t size);

/* wake-time with the board file's wake_timing for early_ms, late_ms and rtc_source (whatever w
 * says), and the measurement wake_asleep_ms when the board reported it. */
int judge_wake_time(const struct judge_context *c, struct judgement *j,
		    const struct judge_wake_time *w, struct rig_err *err);

/* The row results/ stores for the cycle (cycle_wakes); strings point into w. */
void wake_time_record(const struct judge_wake_time *w, struct results_wake *out);

#endif
