/* Host CPU starvation judged over a cycle's window (judge/starvation.h). */
#include "judge/starvation.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "console/events.h"

void starve_window_of(const struct host_cpu_sample *from, const struct host_cpu_sample *to,
		      struct starve_window *w)
{
	*w = (struct starve_window){ .qemu_unknown_why = "not sampled" };
	if (!from->taken || !to->taken)
		return;
	w->applicable = from->on_host && to->on_host;
	w->wall_s = to->at - from->at;
	if (!w->applicable || w->wall_s <= 0)
		return;
	if (to->pid <= 0)
		w->qemu_unknown_why = "QEMU not running at the window's end";
	else if (!to->qemu_known || (from->pid == to->pid && !from->qemu_known))
		w->qemu_unknown_why = "QEMU's schedstat unreadable";
	else if (from->pid != to->pid) {
		w->qemu_known = w->qemu_partial = true;
		w->qemu_run_s = to->qemu_run_s;
		w->qemu_wait_s = to->qemu_wait_s;
	} else if (to->qemu_run_s < from->qemu_run_s || to->qemu_wait_s < from->qemu_wait_s)
		w->qemu_unknown_why = "QEMU's counters went back (a thread ended)";
	else {
		w->qemu_known = true;
		w->qemu_run_s = to->qemu_run_s - from->qemu_run_s;
		w->qemu_wait_s = to->qemu_wait_s - from->qemu_wait_s;
	}
	if (w->qemu_known)
		w->qemu_unknown_why = NULL;
	if (from->psi_known && to->psi_known && to->psi_some_s >= from->psi_some_s) {
		w->psi_known = true;
		w->psi_some_s = to->psi_some_s - from->psi_some_s;
	}
}

double starve_qemu_wait_share(const struct starve_window *w)
{
	return w->applicable && w->wall_s > 0 && w->qemu_known ? w->qemu_wait_s / w->wall_s : NAN;
}

double starve_psi_some_share(const struct starve_window *w)
{
	return w->applicable && w->wall_s > 0 && w->psi_known ? w->psi_some_s / w->wall_s : NAN;
}

bool starve_is_starved(const struct starve_window *w)
{
	double qemu = starve_qemu_wait_share(w), psi = starve_psi_some_share(w);

	if (!isnan(qemu))
		return qemu >= STARVE_QEMU_WAIT_SHARE;
	return !isnan(psi) && psi >= STARVE_PSI_SOME_SHARE;
}

void starve_describe(const struct starve_window *w, char *buf, size_t size)
{
	double qemu = starve_qemu_wait_share(w), psi = starve_psi_some_share(w);
	int n;

	if (!w->applicable || w->wall_s <= 0) {
		snprintf(buf, size, "%s", w->applicable ? "no window (a sample is missing)"
							: "not applicable (no host process runs the board)");
		return;
	}
	if (!isnan(qemu))
		n = snprintf(buf, size, "QEMU's threads waited %.1f s of %.1f s on the host run queue "
			     "(%.0f %%%s)", w->qemu_wait_s, w->wall_s, qemu * 100,
			     w->qemu_partial ? ", at least: QEMU restarted in the window" : "");
	else
		n = snprintf(buf, size, "QEMU's run-queue wait over %.1f s unknown (%s)", w->wall_s,
			     w->qemu_unknown_why ? w->qemu_unknown_why : "?");
	if (n < 0 || (size_t)n >= size)
		return;
	if (!isnan(psi))
		snprintf(buf + n, size - (size_t)n, "; host CPU pressure %.0f %%", psi * 100);
	else
		snprintf(buf + n, size - (size_t)n, "; host CPU pressure unavailable");
}

static bool kind_is(const char *name, enum kevent_kind kind)
{
	return name && strcmp(name, kevent_kind_name(kind)) == 0;
}

/* The guest's watchdogs that count time its vCPUs were not run. */
static bool timing_kind(const char *name)
{
	return kind_is(name, KEV_SOFT_LOCKUP) || kind_is(name, KEV_RCU_STALL) ||
	       kind_is(name, KEV_HUNG_TASK);
}

static bool failure_kind(const char *name)
{
	for (int k = 0; k < KEV_COUNT; k++)
		if (kevent_is_failure((enum kevent_kind)k) && kind_is(name, (enum kevent_kind)k))
			return true;
	return false;
}

bool starve_timing_failure(const struct results_verdict *v, const struct results_event *events,
			   size_t n_events)
{
	bool timing = false;

	if (v->result != RESULTS_VERDICT_FAIL || v->known_issue || strcmp(v->name, "clean-resume"))
		return false;
	for (size_t i = 0; i < n_events; i++) {
		if (!failure_kind(events[i].kind))
			continue;
		if (!timing_kind(events[i].kind))
			return false;
		timing = true;
	}
	return timing;
}

/* A failed verdict of the cycle: a failure no known issue explains, or an error. */
static bool counts_as_failed(const struct results_verdict *v)
{
	return (v->result == RESULTS_VERDICT_FAIL && !v->known_issue) ||
	       v->result == RESULTS_VERDICT_ERROR;
}

/* Console lines of the clocksource watchdog giving up on a clock it could not read in time. */
static bool clocksource_timeout(const char *line, size_t len)
{
	static const char *const words[] = { "clocksource: Watchdog", "clocksource: timekeeping watchdog" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		const char *hit = memmem(line, len, words[i], strlen(words[i]));

		if (hit && (memmem(line, len, "timed out", 9) || memmem(line, len, "unstable", 8)))
			return true;
	}
	return false;
}

/* "; guest: <line> | <line>": the watchdogs' events, then clocksource lines of a hang's tail. */
static void guest_lines(const struct starve_cycle *c, char *buf, size_t size)
{
	size_t used = 0, shown = 0;
	const char *p = c->console_tail;

	buf[0] = '\0';
	for (size_t i = 0; i < c->n_events && shown < 3; i++)
		if (timing_kind(c->events[i].kind) && c->events[i].text && used < size)
			used += (size_t)snprintf(buf + used, size - used, "%s%s",
						 shown++ ? " | " : "; guest: ", c->events[i].text);
	while (p && *p && shown < 4 && used < size) {
		size_t len = strcspn(p, "\n");

		if (clocksource_timeout(p, len))
			used += (size_t)snprintf(buf + used, size - used, "%s%.*s",
						 shown++ ? " | " : "; guest: ", (int)len, p);
		p += len + (p[len] == '\n');
	}
}

int starve_judge(const struct starve_window *w, const struct starve_cycle *c, char *detail,
		 size_t size)
{
	bool failed = c->hang_phase != NULL;
	char figures[256], guest[768];

	for (size_t i = 0; i < c->n_verdicts; i++) {
		if (!counts_as_failed(&c->verdicts[i]))
			continue;
		if (!starve_timing_failure(&c->verdicts[i], c->events, c->n_events))
			return 0;   /* a failure a slow CPU does not explain stays a kernel verdict */
		failed = true;
	}
	if (!failed || !starve_is_starved(w))
		return 0;
	starve_describe(w, figures, sizeof(figures));
	guest_lines(c, guest, sizeof(guest));
	if (c->hang_phase)
		snprintf(detail, size, "host CPU starvation, not a kernel verdict: hang in phase %s; "
			 "%s%s", c->hang_phase, figures, guest);
	else
		snprintf(detail, size, "host CPU starvation, not a kernel verdict: %s%s", figures,
			 guest);
	return 1;
}

bool starve_more_time(const struct starve_window *w, long long elapsed_ms, long long timeout_ms)
{
	return elapsed_ms < STARVE_PATIENCE_FACTOR * timeout_ms && starve_is_starved(w);
}

int starve_judge_infra(const struct starve_window *w, const char *error, bool timed_out,
		       char *detail, size_t size)
{
	char figures[256];

	if (!timed_out || !starve_is_starved(w))
		return 0;
	starve_describe(w, figures, sizeof(figures));
	snprintf(detail, size, "host CPU starvation, not a kernel verdict: %s; %s", error, figures);
	return 1;
}
