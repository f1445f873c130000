/* The transition itself: suspend, pm-test, hibernate, and the RTC wake. */
#include "judge/judge.h"

#include <stdio.h>
#include <string.h>

#include "judge/systemd_sleep.h"
#include "util/kv.h"

/* A sleep systemd entered (its line says via=systemctl): what systemd reported about it. */
static int judge_systemd(const struct judge_context *c, struct judgement *j,
			 const struct ev_sleep *s, struct rig_err *err)
{
	char via[16] = "", detail[512];
	enum results_verdict_result r;
	long pre = kv_long(s->line, "sleep_pre_ms", -1), post = kv_long(s->line, "sleep_post_ms", -1);

	if (!kv_get(s->line, "via", via, sizeof(via)) || strcmp(via, "systemctl") != 0)
		return 0;
	r = systemd_sleep_judge(s->line, detail, sizeof(detail));
	if ((pre >= 0 && judge_measure(j, "systemd_sleep_pre_ms", NULL, (double)pre, "ms", err) < 0) ||
	    (post >= 0 && judge_measure(j, "systemd_sleep_post_ms", NULL, (double)post, "ms", err) < 0))
		return -1;
	return judge_add(c, j, "systemd-sleep", NULL, r, detail,
			 r == RESULTS_VERDICT_PASS ? NULL : (const char *const[]){ detail },
			 r == RESULTS_VERDICT_PASS ? 0 : 1, err);
}

int judge_suspend(const struct judge_context *c, struct judgement *j, const char *verdict,
		  const struct ev_sleep *s, enum judge_seen slept, struct rig_err *err)
{
	bool pm_test = verdict[0] == 'p';
	char detail[EV_LINE_MAX + 64];
	bool passed = s->result == 0 && (pm_test || s->successes >= 1) && slept != JUDGE_SEEN_NO;

	snprintf(detail, sizeof(detail), "%s%s", s->line,
		 slept == JUDGE_SEEN_NO ? " (the board never reported sleeping)" : "");
	if ((passed ? judge_add(c, j, verdict, NULL, RESULTS_VERDICT_PASS, detail, NULL, 0, err)
		    : judge_add(c, j, verdict, NULL, RESULTS_VERDICT_FAIL, detail,
				(const char *const[]){ detail }, 1, err)) < 0)
		return -1;
	return judge_systemd(c, j, s, err);
}

int judge_hibernate(const struct judge_context *c, struct judgement *j, const struct ev_sleep *s,
		    enum judge_hibernation how, struct rig_err *err)
{
	if (how == JUDGE_HIB_NOT_RESTORED)
		return judge_add(c, j, "hibernate", NULL, RESULTS_VERDICT_FAIL,
				 "the board booted afresh instead of restoring its image",
				 (const char *const[]){ "hibernation image not restored" }, 1, err);
	if ((how == JUDGE_HIB_RESTORED && s->result == 0
		     ? judge_add(c, j, "hibernate", NULL, RESULTS_VERDICT_PASS, s->line, NULL, 0, err)
		     : judge_add(c, j, "hibernate", NULL, RESULTS_VERDICT_FAIL, s->line,
				 (const char *const[]){ s->line }, 1, err)) < 0)
		return -1;
	return judge_systemd(c, j, s, err);
}

enum results_verdict_result judge_rtc_wake(const struct judge_rtc *r, char *detail, size_t size)
{
	double alarm_at = r->armed_after + (double)r->presync_ms / 1e3 + r->seconds;

	if (alarm_at < r->asleep_at) {
		snprintf(detail, size, "RTC alarm expired %.1f s before the board was asleep (the sync "
			 "and freeze outlasted it): woken by the rig instead", r->asleep_at - alarm_at);
		return RESULTS_VERDICT_SKIP;
	}
	snprintf(detail, size, "the board was asleep %.1f s before its RTC alarm and the alarm did "
		 "not wake it: woken by the rig", alarm_at - r->asleep_at);
	return RESULTS_VERDICT_FAIL;
}

int judge_wake(const struct judge_context *c, struct judgement *j, const struct judge_rtc *r,
	       struct rig_err *err)
{
	char detail[256];
	enum results_verdict_result result = judge_rtc_wake(r, detail, sizeof(detail));

	if (judge_measure(j, "rtc_alarm_missed", NULL, 1, "count", err) < 0)
		return -1;
	return judge_add(c, j, "wake", NULL, result, detail,
			 result == RESULTS_VERDICT_FAIL ? (const char *const[]){ detail } : NULL,
			 result == RESULTS_VERDICT_FAIL, err);
}
