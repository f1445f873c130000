/* After a resume that kept the board's userspace: the frozen window's measurements, stall per
 * filesystem, order, knob-semantics, owner, clean-resume and writers-alive. */
#include "judge/judge.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/knob.h"
#include "lib/stall_report.h"

/* A filesystem's window starts when its freeze_super() returns: by then every writer is held at
 * the freeze protection and every mmap'ed page is clean and write-protected, so the next store
 * faults and waits. An operation that starts after that and completes before the thaw went
 * through the frozen filesystem, however soon after the freeze it completed. The first wave
 * excused 100 ms after the return (stores once seen completing there); measured on 2026-12-07,
 * no operation completed after freeze_super() returned in 104 frozen windows of four
 * filesystems (84 from make check's runs, 20 of tests/e2e/plans/stall-soak.yaml), while the
 * fault pagefault-through-frozen's first store completes 1 to 8 ms after it: inside that grace. */

static void window_measurements(struct judgement *j, const struct frozen_window *w,
				struct rig_err *err)
{
	if (!w->seen)
		return;
	if (w->freeze_done_ns > w->freeze_ns)
		judge_measure(j, "freeze_filesystems_ms", NULL,
			      (double)(w->freeze_done_ns - w->freeze_ns) / 1e6, "ms", err);
	if (w->thaw_done_ns > w->thaw_ns && w->thaw_ns)
		judge_measure(j, "thaw_filesystems_ms", NULL,
			      (double)(w->thaw_done_ns - w->thaw_ns) / 1e6, "ms", err);
	if (w->thaw_done_ns > w->freeze_ns)
		judge_measure(j, "frozen_ms", NULL, (double)(w->thaw_done_ns - w->freeze_ns) / 1e6,
			      "ms", err);
}

/* The printk time of the last event of that kind, NAN when none. */
static double event_ktime(const struct judge_event *ev, size_t n, enum kevent_kind kind)
{
	for (size_t i = n; i-- > 0;)
		if (ev[i].ev.kind == kind && ev[i].ev.has_ktime)
			return ev[i].ev.ktime;
	return NAN;
}

static void phase_measurements(struct judgement *j, const struct judge_event *ev, size_t n,
			       struct rig_err *err)
{
	double entry = event_ktime(ev, n, KEV_SUSPEND_ENTRY), sleep = event_ktime(ev, n, KEV_ACPI_SLEEP);
	double wake = event_ktime(ev, n, KEV_ACPI_WAKE), exit = event_ktime(ev, n, KEV_SUSPEND_EXIT);
	double frozen = event_ktime(ev, n, KEV_FREEZE_USER_DONE);
	double freezing = event_ktime(ev, n, KEV_FREEZE_USER_BEGIN);

	if (!isnan(entry) && !isnan(sleep) && sleep >= entry)
		judge_measure(j, "suspend_ms", NULL, (sleep - entry) * 1e3, "ms", err);
	if (!isnan(wake) && !isnan(exit) && exit >= wake)
		judge_measure(j, "resume_ms", NULL, (exit - wake) * 1e3, "ms", err);
	if (!isnan(freezing) && !isnan(frozen) && frozen >= freezing)
		judge_measure(j, "freeze_tasks_ms", NULL, (frozen - freezing) * 1e3, "ms", err);
}

/* ---- stall ------------------------------------------------------------------------------- */

struct fs_stall {
	uint64_t inside, wrote, blocked, errors;
	double longest_ms;
	bool any;                      /* a writer's telemetry was judged against the window */
};

/* Every writer of filesystem fs, its operations against the filesystem's own frozen window. */
static void stall_of_fs(const struct ev_stall_ops *ops, const char *fs,
			const struct stall_window *win, struct fs_stall *st)
{
	for (size_t i = 0; ops && i < ops->n; i++) {
		const struct ev_writer_ops *w = &ops->writers[i];
		struct tel_snapshot snap = { .hdr = w->hdr, .entries = w->ops, .count = w->n_ops };
		struct stall_summary sum;
		char writer_fs[64];

		ev_writer_fs(w->id, writer_fs, sizeof(writer_fs));
		if (!w->has_header || strcmp(writer_fs, fs) != 0)
			continue;
		stall_analyse(&snap, win, &sum);
		st->any = true;
		st->inside += sum.completed_inside_window;
		st->wrote += sum.wrote_while_frozen;
		st->blocked += sum.blocked_across_window;
		st->errors += sum.errors_after_thaw;
		if ((double)sum.window_longest_ns / 1e6 > st->longest_ms)
			st->longest_ms = (double)sum.window_longest_ns / 1e6;
	}
}

static enum results_verdict_result stall_result(const struct fs_stall *st, bool frozen)
{
	if (!frozen)
		return RESULTS_VERDICT_FAIL;  /* the knob promised a freeze the kernel did not do */
	if (!st->any)
		return RESULTS_VERDICT_SKIP;
	if (st->wrote > 0 || st->errors > 0)
		return RESULTS_VERDICT_FAIL;
	/* No writer caught by the window is no evidence either way. */
	return st->blocked > 0 ? RESULTS_VERDICT_PASS : RESULTS_VERDICT_SKIP;
}

static int stall_skip_all(const struct judge_context *c, struct judgement *j, const char *why,
			  struct rig_err *err)
{
	for (size_t i = 0; i < c->board->n_filesystems; i++)
		if (judge_add(c, j, "stall", c->board->filesystems[i].name, RESULTS_VERDICT_SKIP, why,
			      NULL, 0, err) < 0)
			return -1;
	return 0;
}

static int judge_stall(const struct judge_context *c, struct judgement *j,
		       const struct frozen_window *w, const struct ev_stall_ops *ops,
		       struct rig_err *err)
{
	if (c->knob_freeze_filesystems != 1)
		return stall_skip_all(c, j, "freeze_filesystems is not 1: the kernel promises no freeze", err);
	if (!w->seen)
		return stall_skip_all(c, j, "no filesystems_freeze seen in the kernel trace", err);
	for (size_t i = 0; i < c->board->n_filesystems; i++) {
		const struct board_filesystem *fs = &c->board->filesystems[i];
		const struct frozen_dev *d = knob_traced_dev(w, fs);
		struct fs_stall st = { 0 };
		enum results_verdict_result r;
		char detail[512];

		if (d && d->frozen_ns) {
			struct stall_window win = { .freeze_ns = d->frozen_ns,
						    .thaw_ns = d->thawed_ns ? d->thawed_ns : w->thaw_done_ns };

			if (win.thaw_ns >= win.freeze_ns)
				stall_of_fs(ops, fs->name, &win, &st);
		}
		r = stall_result(&st, d != NULL);
		if (!d)
			snprintf(detail, sizeof(detail),
				 "not frozen: freeze_super never ran for %s while the knob is 1 (froze: %s)",
				 fs->device, *w->order ? w->order : "nothing");
		else
			snprintf(detail, sizeof(detail),
				 "%s frozen %.1f ms: wrote_while_frozen=%" PRIu64 " completed_inside_window=%" PRIu64 " blocked_across_window=%" PRIu64 " errors_after_thaw=%" PRIu64 " longest_in_window_ms=%.1f",
				 d->dev, d->thawed_ns > d->frozen_ns ? (double)(d->thawed_ns - d->frozen_ns) / 1e6 : 0.0,
				 st.wrote, st.inside, st.blocked, st.errors, st.longest_ms);
		if (st.any && judge_measure(j, "stall_ms", fs->name, st.longest_ms, "ms", err) < 0)
			return -1;
		if (judge_add(c, j, "stall", fs->name, r, detail, (const char *const[]){ detail }, 1, err) < 0)
			return -1;
	}
	return 0;
}

/* ---- order ------------------------------------------------------------------------------- */

/* The s_id of the filesystem holding the board's first image filesystem (the one whose mount
 * point is the longest prefix of the image's path) into out: "" when unknown; NULL when the
 * board has no image filesystem. */
static const char *image_backing(const struct board *b, char *out, size_t size)
{
	size_t best = 0;
	bool any = false;

	out[0] = '\0';
	for (size_t i = 0; i < b->n_filesystems; i++) {
		const char *image = b->filesystems[i].device;

		if (strncmp(image, "/dev/", 5) == 0)
			continue;
		any = true;
		for (size_t k = 0; k < b->n_filesystems; k++) {
			const char *mnt = b->filesystems[k].mount, *dev = b->filesystems[k].device;
			size_t n = strlen(mnt);

			if (k != i && n > best && strncmp(image, mnt, n) == 0 && image[n] == '/' &&
			    strncmp(dev, "/dev/", 5) == 0) {
				best = n;
				snprintf(out, size, "%s", strrchr(dev, '/') + 1);
			}
		}
		break;
	}
	return any ? out : NULL;
}

static int order_verdict(const struct judge_context *c, struct judgement *j,
			 const struct frozen_window *w, bool hung, struct rig_err *err)
{
	char backing[64], detail[512];
	enum results_verdict_result r =
		order_judge(w, c->knob_freeze_filesystems == 1,
			    image_backing(c->board, backing, sizeof(backing)), hung, detail, sizeof(detail));

	return judge_add(c, j, "order", NULL, r, detail,
			 r == RESULTS_VERDICT_FAIL ? (const char *const[]){ detail } : NULL,
			 r == RESULTS_VERDICT_FAIL ? 1 : 0, err);
}

/* Latency format stamps are microseconds since the buffer's start (num), the default format's
 * seconds (value): only their order matters here. */
int judge_order_after_hang(const struct judge_context *c, struct judgement *j,
			   const struct judge_event *events, size_t n, struct rig_err *err)
{
	struct frozen_window w;

	memset(&w, 0, sizeof(w));
	for (size_t i = 0; i < n; i++) {
		const struct judge_event *e = &events[i];
		char dev[40];
		uint64_t ns = e->ev.value > 0 ? (uint64_t)(e->ev.value * 1e9)
					      : (uint64_t)(e->ev.num > 0 ? e->ev.num : 0) * 1000;

		if (e->ev.kind != KEV_RIG_TRACE)
			continue;
		trace_line_dev(e->text, dev, sizeof(dev));
		window_feed(&w, e->ev.arg, ns, dev);
	}
	if (!w.seen)
		return 0;    /* no dump, or the hang came before any freeze: nothing to judge */
	return order_verdict(c, j, &w, true, err);
}

/* ---- knob-semantics ---------------------------------------------------------------------- */

static int knob_verdict(const struct judge_context *c, struct judgement *j,
			const struct frozen_window *w, struct rig_err *err)
{
	char detail[512];
	enum results_verdict_result r = knob_judge(w, c->knob_freeze_filesystems, c->kernel_version,
						   c->board, detail, sizeof(detail));

	return judge_add(c, j, "knob-semantics", NULL, r, detail,
			 r == RESULTS_VERDICT_FAIL ? (const char *const[]){ detail } : NULL,
			 r == RESULTS_VERDICT_FAIL ? 1 : 0, err);
}

/* ---- owner, clean-resume, writers-alive -------------------------------------------------- */

static int judge_owner(const struct judge_context *c, struct judgement *j, const char *fs,
		       int frozen, struct rig_err *err)
{
	static const char failed[] = "frozen by userspace before suspend, but NOT frozen after "
				     "resume: the kernel thawed a filesystem it did not freeze";

	if (frozen == 1)
		return judge_add(c, j, "owner", fs, RESULTS_VERDICT_PASS,
				 "frozen by userspace before suspend, still frozen after resume; fsfreeze -u thawed it",
				 NULL, 0, err);
	return judge_add(c, j, "owner", fs, RESULTS_VERDICT_FAIL, failed,
			 (const char *const[]){ failed }, 1, err);
}

static bool is_fault(const struct kevent *ev)
{
	return kevent_is_failure(ev->kind) || ev->kind == KEV_FREEZE_FAILED ||
	       ev->kind == KEV_FREEZE_STUCK_TASK || ev->kind == KEV_SLEEP_FAILED ||
	       ev->kind == KEV_DEVICE_PM_FAILED || ev->kind == KEV_IMAGE_SAVE_FAILED ||
	       ev->kind == KEV_IMAGE_LOAD_FAILED || ev->kind == KEV_HIBERNATE_RESUME_FAILED;
}

int judge_clean_resume(const struct judge_context *c, struct judgement *j,
		       const struct judge_event *ev, size_t n, struct rig_err *err)
{
	const char **messages = calloc(n ? n : 1, sizeof(*messages));
	char detail[1024] = "";
	size_t n_faults = 0, used = 0;
	int rc;

	if (!messages)
		return rig_err_set(err, RIG_EXIT_INFRA, "judge: out of memory");
	for (size_t i = 0; i < n; i++) {
		if (!is_fault(&ev[i].ev))
			continue;
		messages[n_faults++] = ev[i].text;
		if (used < sizeof(detail) - 1)
			used += (size_t)snprintf(detail + used, sizeof(detail) - used, "%s%s",
						 n_faults > 1 ? " | " : "", ev[i].text);
	}
	if (n_faults == 0)
		rc = judge_add(c, j, "clean-resume", NULL, RESULTS_VERDICT_PASS,
			       "no warning, oops, lockdep report, hung task or freeze failure", NULL, 0,
			       err);
	else
		rc = judge_add(c, j, "clean-resume", NULL, RESULTS_VERDICT_FAIL, detail, messages,
			       n_faults, err);
	free(messages);
	return rc;
}

static int judge_writers_alive(const struct judge_context *c, struct judgement *j,
			       const struct ev_alive *alive, struct rig_err *err)
{
	char dead[320] = "", detail[400];
	size_t used = 0;

	for (size_t i = 0; alive && i < alive->n; i++)
		if (!alive->writers[i].alive)
			used += (size_t)snprintf(dead + used, used < sizeof(dead) ? sizeof(dead) - used : 0,
						 "%s%s", used ? "," : "", alive->writers[i].id);
	if (!*dead)
		return 0;
	snprintf(detail, sizeof(detail), "writers died across the cycle: %s", dead);
	return judge_add(c, j, "writers-alive", NULL, RESULTS_VERDICT_FAIL, detail,
			 (const char *const[]){ detail }, 1, err);
}

int judge_after_resume(const struct judge_context *c, struct judgement *j,
		       const struct judge_resume *r, struct rig_err *err)
{
	window_measurements(j, r->trace, err);
	phase_measurements(j, r->events, r->n_events, err);
	if (judge_stall(c, j, r->trace, r->stall, err) < 0 ||
	    order_verdict(c, j, r->trace, false, err) < 0 ||
	    knob_verdict(c, j, r->trace, err) < 0 ||
	    (r->owner_fs && judge_owner(c, j, r->owner_fs, r->owner_frozen, err) < 0) ||
	    judge_clean_resume(c, j, r->events, r->n_events, err) < 0)
		return -1;
	return judge_writers_alive(c, j, r->alive, err);
}
