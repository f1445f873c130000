/* The wake-time verdict: an RTC-woken sleep against what its alarm left it (wake_time.h). */
#include "judge/wake_time.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* What woke the board, as far as it could tell: the wakeup IRQ and the sources that counted,
 * which of them are the RTC's, and the hardware's own time asleep where it keeps one. */
static void source_of(const struct ev_wake *b, char *buf, size_t size)
{
	char irq[64] = "no wakeup irq recorded", rtc[EV_WAKE_RTC_MAX + 40] = "", hw[48] = "";
	int n;

	if (b->irq >= 0)
		snprintf(irq, sizeof(irq), "irq %ld (%s)", b->irq, b->irq_name[0] ? b->irq_name : "unnamed");
	if (b->rtc_known)
		snprintf(rtc, sizeof(rtc), b->rtc[0] ? ", the RTC's: %s" : ", the RTC has none", b->rtc);
	if (b->hw_sleep_ms >= 0)
		snprintf(hw, sizeof(hw), ", hardware asleep %ld ms", b->hw_sleep_ms);
	if (!b->sources_known)
		n = snprintf(buf, size, "%s, wakeup sources unavailable", irq);
	else if (b->sources[0])
		n = snprintf(buf, size, "%s, wakeup sources %s", irq, b->sources);
	else if (b->irq >= 0)
		n = snprintf(buf, size, "%s, no wakeup source counted", irq);
	else
		n = snprintf(buf, size, "source unknown (no wakeup irq recorded, no wakeup source "
			     "counted)");
	if (n >= 0 && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, "%s%s", rtc, hw);
}

/* Whether name (len bytes) is one of list's comma-separated names. */
static bool listed(const char *list, const char *name, size_t len)
{
	for (const char *p = list; *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
		if (strcspn(p, ",") == len && strncmp(p, name, len) == 0)
			return true;
	}
	return false;
}

/* Did the RTC stay quiet through a sleep it was to end? Only a board that names its RTC's
 * wakeup sources can tell: none of them counted and the wakeup IRQ (if any) is not the RTC's
 * (rtc*). An RTC without a wakeup source is no evidence either way (the timing decides). others
 * gets the sources that counted instead ("" none did: QEMU's system_wakeup from S3 leaves no
 * trace). */
static bool rtc_quiet(const struct ev_wake *b, char *others, size_t size)
{
	size_t used = 0;

	others[0] = '\0';
	if (strncmp(b->irq_name, "rtc", 3) == 0 || !b->sources_known || !b->rtc_known || !b->rtc[0])
		return false;
	for (const char *p = b->sources; *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
		size_t entry = strcspn(p, ","), name = strcspn(p, ":,");

		if (listed(b->rtc, p, name))
			return false;
		if (used < size)
			used += (size_t)snprintf(others + used, size - used, "%s%.*s", used ? "," : "",
						 (int)entry, p);
	}
	return true;
}

/* The RTC alarm judged: the board reported its clocks.
 *
 * Premature: the board was back (rig-dut's report, in boottime from arming the alarm: asleep +
 * awake) more than early_ms before the alarm's time: whatever woke it, it was not the alarm. This
 * holds on any board, the one whose monotonic clock runs through s2idle too (no cpuidle driver:
 * timekeeping is not suspended and asleep_ms stays near 0 however long it slept).
 * Late: it slept more than late_ms longer than its alarm left it: the alarm less the entry where
 * the host saw it, else the whole alarm (an upper bound: only what no entry can explain fails). */
static enum results_verdict_result judge_alarm(const struct judge_wake_time *w, const char *source,
					       char *detail, size_t size)
{
	const struct ev_wake *b = w->board;
	long early = (long)w->early_ms, late = (long)w->late_ms;
	long back = b->asleep_ms + b->awake_ms;
	long left = w->entry_ms < 0 ? w->requested_ms
		    : w->requested_ms > w->entry_ms ? w->requested_ms - w->entry_ms : 0;
	char alarm[160];

	if (w->entry_ms < 0)
		snprintf(alarm, sizeof(alarm), "alarm %ld ms after arming, when the board fell asleep "
			 "unknown", w->requested_ms);
	else if (w->entry_ms > w->requested_ms)
		snprintf(alarm, sizeof(alarm), "alarm %ld ms after arming, expired %ld ms before the "
			 "board was asleep", w->requested_ms, w->entry_ms - w->requested_ms);
	else
		snprintf(alarm, sizeof(alarm), "alarm %ld ms after arming, asleep %ld ms after it",
			 w->requested_ms, w->entry_ms);
	if (back < w->requested_ms - early) {
		snprintf(detail, size, "premature wake: back %ld ms after arming, %ld ms before its "
			 "alarm (more than %ld ms early): asleep %ld ms, awake %ld ms (%s); %s", back,
			 w->requested_ms - back, early, b->asleep_ms, b->awake_ms, alarm, source);
		return RESULTS_VERDICT_FAIL;
	}
	if (b->asleep_ms > left + late) {
		snprintf(detail, size, "late wake: asleep %ld ms, %ld ms more than its alarm left it "
			 "(%ld ms; %s; more than %ld ms late); %s", b->asleep_ms, b->asleep_ms - left,
			 left, alarm, late, source);
		return RESULTS_VERDICT_FAIL;
	}
	snprintf(detail, size, "asleep %ld ms of the %ld ms its alarm left it (%s), back %ld ms after "
		 "arming; within -%ld/+%ld ms; %s", b->asleep_ms, left, alarm, back, early, late,
		 source);
	return RESULTS_VERDICT_PASS;
}

enum results_verdict_result wake_time_judge(const struct judge_wake_time *w, char *detail,
					    size_t size)
{
	const struct ev_wake *b = w->board;
	char source[EV_WAKE_SOURCES_MAX + EV_WAKE_RTC_MAX + 128], others[EV_WAKE_SOURCES_MAX];
	char asleep[48] = "time asleep unavailable";

	if (!b || !b->reported) {
		snprintf(detail, size, "no wake accounting in the board's reply (a rig-dut without "
			 "its wake line)");
		return RESULTS_VERDICT_SKIP;
	}
	source_of(b, source, sizeof(source));
	if (b->asleep_ms >= 0)
		snprintf(asleep, sizeof(asleep), "asleep %ld ms", b->asleep_ms);
	if (!w->wake || strcmp(w->wake, "rtc") != 0 || w->requested_ms < 0) {
		snprintf(detail, size, "woken by %s: no alarm to time it against; %s; %s",
			 w->wake ? w->wake : "?", asleep, source);
		return RESULTS_VERDICT_SKIP;
	}
	if (w->rescued) {
		snprintf(detail, size, "the RTC alarm did not wake the board, the rig did (the wake "
			 "verdict judges that); %s; %s", asleep, source);
		return RESULTS_VERDICT_SKIP;
	}
	if (w->rtc_source && rtc_quiet(b, others, sizeof(others))) {
		char back[48] = "";

		if (b->asleep_ms >= 0 && b->awake_ms >= 0)
			snprintf(back, sizeof(back), ", back %ld ms after arming",
				 b->asleep_ms + b->awake_ms);
		snprintf(detail, size, "premature wake: not the RTC (its wakeup source %s did not "
			 "count; %s%s) with its alarm %ld ms after arming%s; %s; %s", b->rtc,
			 others[0] ? "woken by " : "no other source counted either", others,
			 w->requested_ms, back, asleep, source);
		return RESULTS_VERDICT_FAIL;
	}
	if (b->asleep_ms < 0 || b->awake_ms < 0) {
		snprintf(detail, size, "time asleep unavailable on the board (rig-dut reads "
			 "/proc/uptime and /proc/timer_list); %s", source);
		return RESULTS_VERDICT_SKIP;
	}
	return judge_alarm(w, source, detail, size);
}

int judge_wake_time(const struct judge_context *c, struct judgement *j,
		    const struct judge_wake_time *w, struct rig_err *err)
{
	struct judge_wake_time judged = *w;
	char detail[2 * EV_WAKE_SOURCES_MAX + EV_WAKE_RTC_MAX + 512];
	enum results_verdict_result r;

	judged.early_ms = c->board->wake_timing.early_ms;
	judged.late_ms = c->board->wake_timing.late_ms;
	judged.rtc_source = c->board->wake_timing.rtc_source;
	r = wake_time_judge(&judged, detail, sizeof(detail));
	if (w->board && w->board->asleep_ms >= 0 &&
	    judge_measure(j, "wake_asleep_ms", NULL, (double)w->board->asleep_ms, "ms", err) < 0)
		return -1;
	if (w->board && w->board->hw_sleep_ms >= 0 &&
	    judge_measure(j, "wake_hw_sleep_ms", NULL, (double)w->board->hw_sleep_ms, "ms", err) < 0)
		return -1;
	return judge_add(c, j, "wake-time", NULL, r, detail,
			 r == RESULTS_VERDICT_FAIL ? (const char *const[]){ detail } : NULL,
			 r == RESULTS_VERDICT_FAIL, err);
}

void wake_time_record(const struct judge_wake_time *w, struct results_wake *out)
{
	const struct ev_wake *b = w->board && w->board->reported ? w->board : NULL;

	*out = (struct results_wake){
		.wake = w->wake ? w->wake : "?",
		.requested_ms = w->requested_ms, .entry_ms = w->entry_ms,
		.asleep_ms = b ? b->asleep_ms : -1, .awake_ms = b ? b->awake_ms : -1,
		.irq = b ? b->irq : -1,
		.irq_name = b && b->irq_name[0] ? b->irq_name : NULL,
		.sources = b && b->sources_known ? b->sources : NULL,
		.rescued = w->rescued,
	};
}
