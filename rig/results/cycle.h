/*
 * One suspend/resume cycle as the engine collects it in memory. Nothing touches the database until
 * results_cycle_commit() writes the whole cycle in one transaction, so a rig killed mid-cycle loses
 * exactly the cycle in flight and never leaves half a cycle behind.
 */
#ifndef RIG_RESULTS_CYCLE_H
#define RIG_RESULTS_CYCLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

/* A sysfs knob as the run saw it. Zero is "unknown" so a zeroed struct never claims "off". */
enum results_knob {
	RESULTS_KNOB_UNKNOWN = 0,
	RESULTS_KNOB_OFF,
	RESULTS_KNOB_ON,
};

enum results_cycle_status {
	RESULTS_CYCLE_PASS,
	RESULTS_CYCLE_FAIL,
	RESULTS_CYCLE_HANG,
	RESULTS_CYCLE_INFRA,
	RESULTS_CYCLE_ABORTED,
};

enum results_verdict_result {
	RESULTS_VERDICT_PASS,
	RESULTS_VERDICT_FAIL,
	RESULTS_VERDICT_SKIP,
	RESULTS_VERDICT_ERROR,
};

struct results_verdict {
	char *name;            /* "stall", "clean-resume", "no-loss", "owner", "order", "hang", ... */
	char *filesystem;      /* board filesystem name, NULL for whole-system verdicts */
	enum results_verdict_result result;
	char *known_issue;     /* id from the known-issues file, or NULL */
	char *detail;
};

struct results_measurement {
	char *name;            /* "freeze_filesystems_ms", "resume_ms", "stall_ms", ... */
	char *filesystem;      /* NULL unless per-filesystem */
	double value;
	char *unit;            /* "ms", "bytes", ... */
};

struct results_event {
	char *kind;
	double kernel_ts;      /* printk timestamp in seconds; NAN when the line had none */
	double host_ts;        /* unix seconds on the rig host */
	char *text;
};

struct results_phase {
	char *name;            /* a time-budget phase: "presync", "asleep", ... (judge/budget.h) */
	double seconds;        /* NAN: unknown (the evidence did not show it) */
};

/* The host's CPU accounting of a board that runs on this host (QEMU) over the cycle (schema 5;
 * judge/starvation.h). Figures NAN when unavailable. */
struct results_host_cpu {
	bool recorded;         /* 0: nothing to store (a cycle imported from LAVA) */
	bool applicable;       /* 0: the board is real hardware, no host process runs it */
	const char *window_end;   /* "end", or "hang": the window closed when the hang was declared */
	double window_s;       /* wall time (the engine's monotonic clock) */
	double qemu_run_s;     /* QEMU's threads, summed: on a host CPU */
	double qemu_wait_s;    /*   runnable, waiting on a host run queue */
	double psi_some_s;     /* the host's PSI "some" CPU pressure over the window */
	bool starved;          /* judge/starvation.h's thresholds */
	bool reclassified;     /* the cycle's hang or failure became infra for it */
	char *detail;          /* what the figures say, or why the cycle was reclassified */
};

/* A suspend's wake accounting (table cycle_wakes; judge/wake_time.h fills it). */
struct results_wake {
	const char *wake;      /* how the plan woke it: "rtc", "qmp", "button", "serial" */
	int64_t requested_ms;  /* the RTC alarm; -1: none */
	int64_t entry_ms;      /* arming the alarm to the board asleep, as the host saw it; -1 unknown */
	int64_t asleep_ms;     /* the board's Δboottime − Δmonotonic across the sleep; -1 unavailable */
	int64_t awake_ms;      /* the board's Δmonotonic over the same span; -1 unavailable */
	int64_t irq;           /* /sys/power/pm_wakeup_irq; -1 unavailable */
	const char *irq_name;  /* NULL: unavailable */
	const char *sources;   /* wakeup sources that counted, "NAME:EVENTS:WAKEUPS,..."; "" none;
				* NULL unavailable */
	bool rescued;          /* the alarm never woke it: the rig did */
};

/* A hibernation's mode and path (table cycle_hibernations; judge/hibernate_mode.h fills it): what
 * the plan asked, what the kernel said it would do, and what happened. */
#define RESULTS_HIB_WORD 16
struct results_hibernation {
	char asked[RESULTS_HIB_WORD];       /* the plan's mode: shutdown, platform, reboot, ... */
	bool power_cut_asked;               /* mode suspend: a power cut in S3 was asked */
	char kernel_mode[RESULTS_HIB_WORD]; /* /sys/power/disk's choice as rig-dut left it; "" unknown */
	char went[RESULTS_HIB_WORD];        /* stayed, power-off, s4, reboot, off, s3 */
	bool power_cut;                     /* the rig cut the power in S3 */
	char came_back[RESULTS_HIB_WORD];   /* restored, ram, in-place, returned, fresh-boot, refused */
	bool matched;                       /* the path the plan asked for */
};

struct results_artefact {
	char *kind;            /* "console-log", "qemu-stderr", "dmesg", ... */
	char *path;
};

struct results_cycle_info {
	int idx;                                   /* 0-based position in the run */
	const char *step_kind;                     /* "suspend", "hibernate", ... (required) */
	const char *step_desc;
	double started_at;                         /* unix seconds; 0 = now */
	enum results_knob knob_freeze_filesystems;
	enum results_knob knob_sync_on_suspend;
	const char *kernel_version;
	const char *kernel_build_id;       /* GNU build-id the board reported; NULL/"" unknown */
	int64_t console_from;                      /* offset into the run's console log; -1 = unknown */
};

struct results_timeline_store;   /* results/timeline.h */

struct results_cycle {
	int64_t run_id;
	int idx;
	char *step_kind;
	char *step_desc;
	enum results_cycle_status status;
	char *hang_phase;
	double started_at;
	double ended_at;                           /* NAN until results_cycle_end() */
	enum results_knob knob_freeze_filesystems;
	enum results_knob knob_sync_on_suspend;
	char *kernel_version;
	char *kernel_build_id;
	int64_t console_from, console_to;          /* -1 = unknown */
	char *console_tail;

	struct results_verdict *verdicts;
	size_t n_verdicts, cap_verdicts;
	struct results_measurement *measurements;
	size_t n_measurements, cap_measurements;
	struct results_event *events;
	size_t n_events, cap_events;
	struct results_artefact *artefacts;
	size_t n_artefacts, cap_artefacts;
	struct results_phase *phases;
	size_t n_phases, cap_phases;
	struct results_host_cpu host_cpu;
	struct results_timeline_store *timeline;   /* NULL: no timeline asked for */
	struct results_wake *wake;                 /* NULL: no wake accounting (not a suspend) */
	bool has_hibernation;                      /* false: not a hibernation that was judged */
	struct results_hibernation hibernation;
};

/* Allocate a cycle of run run_id; status starts as aborted until results_cycle_end() says otherwise. */
struct results_cycle *results_cycle_begin(int64_t run_id, const struct results_cycle_info *info,
					  struct rig_err *err);
void results_cycle_free(struct results_cycle *cycle);

/* Every string is copied; NULL is allowed wherever the column is nullable. */
int results_cycle_add_verdict(struct results_cycle *cycle, const char *name, const char *filesystem,
			      enum results_verdict_result result, const char *known_issue,
			      const char *detail, struct rig_err *err);
int results_cycle_add_measurement(struct results_cycle *cycle, const char *name,
				  const char *filesystem, double value, const char *unit,
				  struct rig_err *err);
int results_cycle_add_event(struct results_cycle *cycle, const char *kind, double kernel_ts,
			    double host_ts, const char *text, struct rig_err *err);
/* One phase of the cycle's time budget; seconds NAN when unknown, else >= 0. */
int results_cycle_add_phase(struct results_cycle *cycle, const char *name, double seconds,
			    struct rig_err *err);
/* The cycle's wake accounting (strings copied); a second call replaces the first. */
int results_cycle_set_wake(struct results_cycle *cycle, const struct results_wake *wake,
			   struct rig_err *err);
int results_cycle_add_artefact(struct results_cycle *cycle, const char *kind, const char *path,
			       struct rig_err *err);
/* The cycle's hibernation mode and path (copied); a second call replaces the first. */
void results_cycle_set_hibernation(struct results_cycle *cycle, const struct results_hibernation *h);

/* The cycle's host CPU accounting (h->detail is copied; h->window_end must be a literal). */
int results_cycle_set_host_cpu(struct results_cycle *cycle, const struct results_host_cpu *h,
			       struct rig_err *err);
/* Change verdict i's result and detail (a failure reclassified: judge/starvation.h). */
int results_cycle_set_verdict(struct results_cycle *cycle, size_t i,
			      enum results_verdict_result result, const char *detail,
			      struct rig_err *err);

/* Record where the cycle hung and the console tail to show for it; sets status to hang. */
int results_cycle_set_hang(struct results_cycle *cycle, const char *phase, const char *console_tail,
			   struct rig_err *err);
/* Close the cycle: final status, end time (0 = now) and console end offset (-1 = unknown). */
void results_cycle_end(struct results_cycle *cycle, enum results_cycle_status status,
		       double ended_at, int64_t console_to);

const char *results_cycle_status_name(enum results_cycle_status status);
const char *results_verdict_result_name(enum results_verdict_result result);

/* Unix time now, in seconds with sub-second precision. */
double results_now(void);

#endif
