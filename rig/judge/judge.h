/*
 * The judge: pure functions from a cycle's evidence (judge/evidence.h: the board's replies; the
 * kernel's console events; the acknowledgements seen) to its verdicts and measurements, with the
 * known issues applied. No I/O: the engine (rig run) collects the evidence from a live board and
 * the LAVA importer (rig lava import) reads it from a job's log, and both store what the judge
 * says through results/. So a rig run and a LAVA run of the same evidence give the same verdicts.
 *
 * The verdicts (README.md): suspend, pm-test, hibernate, stall (per filesystem), order,
 * knob-semantics, clean-resume, writers-alive, owner, wake, wake-time (judge/wake_time.h),
 * no-loss (per filesystem; journal and fio), fsck.
 */
#ifndef RIG_JUDGE_JUDGE_H
#define RIG_JUDGE_JUDGE_H

#include <stdbool.h>
#include <stddef.h>

#include "config/board.h"
#include "config/known.h"
#include "console/events.h"
#include "judge/acks.h"
#include "judge/evidence.h"
#include "judge/fio.h"
#include "judge/window.h"
#include "results/cycle.h"
#include "util/err.h"

/* A kernel event as read from the console, with the line it came from. */
struct judge_event {
	struct kevent ev;               /* ev.message is not used: see text */
	double host_ts;                 /* when the line arrived (unix seconds; 0 = unknown) */
	char *text;
};

struct judge_verdict {
	char *name;
	char *filesystem;               /* NULL: a verdict of the whole board */
	enum results_verdict_result result;
	const char *known_issue;        /* id of the known issue every failure message matched */
	char *detail;
};

struct judge_measurement {
	char *name;
	char *filesystem;
	double value;
	char *unit;
};

struct judgement {
	struct judge_verdict *verdicts;
	size_t n_verdicts, cap_verdicts;
	struct judge_measurement *measurements;
	size_t n_measurements, cap_measurements;
};

/* What every verdict of a cycle is judged against. */
struct judge_context {
	const struct board *board;      /* its filesystems: names, devices, mounts */
	const struct known_issues *known; /* NULL: none applied */
	const char *kernel_version;     /* the board's, as it reported it */
	int knob_freeze_filesystems;    /* as the board reported it; -1 unknown */
};

void judgement_free(struct judgement *j);

/* A verdict; a failure is classified against the known issues by its messages (the evidence
 * lines that made it fail; none = the detail). */
int judge_add(const struct judge_context *c, struct judgement *j, const char *name,
	      const char *filesystem, enum results_verdict_result result, const char *detail,
	      const char *const *messages, size_t n_messages, struct rig_err *err);
int judge_measure(struct judgement *j, const char *name, const char *filesystem, double value,
		  const char *unit, struct rig_err *err);

/* ---- the transition itself ---------------------------------------------------------------- */

enum judge_seen { JUDGE_SEEN_NO, JUDGE_SEEN_YES, JUDGE_SEEN_UNKNOWN };

/* suspend or pm-test (verdict names): passed when the command returned 0, the kernel counted
 * at least one successful suspend (pm-test: returned 0) and, where the host could watch (power
 * events, the console), the board was seen asleep. A sleep systemd entered (the line says
 * via=systemctl) also gets systemd's own report judged: the systemd-sleep verdict
 * (judge/systemd_sleep.h) and systemd-sleep's times; so does a hibernation (judge_hibernate). */
int judge_suspend(const struct judge_context *c, struct judgement *j, const char *verdict,
		  const struct ev_sleep *s, enum judge_seen slept, struct rig_err *err);
/* hibernate: restored (the old userspace answered with result 0), or how it failed. */
enum judge_hibernation {
	JUDGE_HIB_STAYED,          /* rig-dut hibernate returned: the board never went away */
	JUDGE_HIB_NOT_RESTORED,    /* it came back with a fresh boot, not its image */
	JUDGE_HIB_RESTORED,        /* the old userspace answered (s: its report) */
};
int judge_hibernate(const struct judge_context *c, struct judgement *j, const struct ev_sleep *s,
		    enum judge_hibernation how, struct rig_err *err);

/* wake (only judged when the rig woke a board its RTC alarm left asleep): times on one
 * monotonic clock; presync_ms from rig-dut's report. */
struct judge_rtc {
	double armed_after;             /* when rig-dut was asked to suspend (alarm armed later) */
	double asleep_at;               /* when the board was seen asleep */
	unsigned seconds;               /* the alarm */
	long presync_ms;
};
enum results_verdict_result judge_rtc_wake(const struct judge_rtc *r, char *detail, size_t size);
int judge_wake(const struct judge_context *c, struct judgement *j, const struct judge_rtc *r,
	       struct rig_err *err);

/* ---- after a resume (the board kept its userspace) ---------------------------------------- */

struct judge_resume {
	const struct frozen_window *trace;  /* rig-dut trace-read */
	const struct ev_stall_ops *stall;   /* rig-dut stall-ops; NULL: no workloads */
	const struct ev_alive *alive;       /* rig-dut alive; NULL: no workloads */
	const struct judge_event *events;   /* the console's kernel events since the last cycle */
	size_t n_events;
	const char *owner_fs;               /* frozen from userspace before the sleep, or NULL */
	int owner_frozen;                   /* its state after the resume: 1, 0, -1 unknown */
};

/* Measurements (frozen window, kernel phases), stall per filesystem, order, knob-semantics
 * (judge/knob.h), owner, clean-resume, writers-alive. */
int judge_after_resume(const struct judge_context *c, struct judgement *j,
		       const struct judge_resume *r, struct rig_err *err);

/* clean-resume alone: no warning, oops, lockdep report, hung task or freeze failure among the
 * kernel's console events. */
int judge_clean_resume(const struct judge_context *c, struct judgement *j,
		       const struct judge_event *ev, size_t n, struct rig_err *err);

/* A hang: the order verdict from the rig's trace events a SysRq-z dump printed (none judged when
 * no dump shows filesystems_freeze()). */
int judge_order_after_hang(const struct judge_context *c, struct judgement *j,
			   const struct judge_event *events, size_t n, struct rig_err *err);

/* ---- after a forced failed resume (power cut while asleep, hibernation image discarded) ---- */

struct judge_failure {
	const struct acks *acked;           /* acknowledgements seen before the board went away */
	bool journal;                       /* the plan ran journal writers */
	const struct ev_journals *journals; /* rig-dut verify after the reboot */
	const struct fio_acks *fio;         /* fio's checkpoint before the failure; NULL: none */
	const char *const *fio_verify;      /* per fio ack, its rig-dut fio-verify line ("" none) */
	const struct ev_journald *journald; /* rig-dut journald-check; NULL: the plan runs no journald */
	const struct ev_fsck *fsck;
	const struct judge_event *events;   /* the console's kernel events since the last cycle */
	size_t n_events;
};

/* no-loss (journal and journald against the acknowledgements, fio), journald (its own view of
 * its journal, judge/journald.h), fsck, clean-resume. */
int judge_after_failure(const struct judge_context *c, struct judgement *j,
			const struct judge_failure *f, struct rig_err *err);

/* ack_gap_ms per writer: from its last acknowledgement to the kernel's suspend entry. */
int judge_ack_gap(struct judgement *j, const struct acks *acked, const struct judge_event *events,
		  size_t n, struct rig_err *err);

/* The kernel events worth storing with a cycle (failures and PM milestones). */
bool judge_event_worth_storing(enum kevent_kind kind);

#endif
