/* A test plan (plans/NAME.yaml, documented in plans/README.md): what to do to a board, in order. */
#ifndef RIG_CONFIG_PLAN_H
#define RIG_CONFIG_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "config/board.h"
#include "util/err.h"

enum step_kind {
	STEP_SUSPEND,            /* suspend to RAM, wake, verify */
	STEP_HIBERNATE,          /* suspend to disk, restore (or discard the image), verify */
	STEP_POWER_CUT,          /* suspend, cut the power while asleep, boot, verify */
	STEP_PM_TEST,            /* /sys/power/pm_test dry run at one level */
	STEP_KNOB,               /* set /sys/power knobs for the steps that follow */
	STEP_FSFREEZE,           /* fsfreeze a filesystem from userspace before the next suspend */
};

/* Order matches the names: "deep", "s2idle", "shallow", "disk" (disk: pm_test only). */
enum sleep_mode { SLEEP_DEEP, SLEEP_S2IDLE, SLEEP_SHALLOW, SLEEP_DISK };
enum wake_source { WAKE_RTC, WAKE_QMP, WAKE_BUTTON, WAKE_SERIAL };
/* hang: QMP "stop" as the board resumes. early-wake: the rig wakes an RTC-woken board through its
 * power backend EARLY_WAKE_S into the sleep, long before the alarm (wake-time's negative control). */
enum step_inject { INJECT_NONE, INJECT_HANG, INJECT_EARLY_WAKE };
#define EARLY_WAKE_S 2
enum pm_test_level {
	PM_TEST_FREEZER, PM_TEST_DEVICES, PM_TEST_PLATFORM, PM_TEST_PROCESSORS, PM_TEST_CORE,
};
enum plan_on_hang { ON_HANG_CONTINUE, ON_HANG_STOP };
/* How the board enters sleep: rig-dut writes /sys/power/state itself, or systemd does it
 * (systemctl suspend|hybrid-sleep|suspend-then-hibernate|hibernate, through logind). */
enum sleep_via { VIA_SYSFS, VIA_SYSTEMCTL, VIA_HYBRID_SLEEP, VIA_SUSPEND_THEN_HIBERNATE };

struct step_suspend {
	enum sleep_mode mode;       /* default deep */
	enum wake_source wake;      /* default rtc */
	unsigned seconds;           /* asleep this long before the wake; default 5 */
	enum step_inject inject;    /* hang, early-wake (above); tests the hang and wake paths */
	enum sleep_via via;         /* default sysfs; systemctl: systemctl suspend */
};

/* /sys/power/disk: what the kernel does once the image is written. Order matches the names;
 * shutdown (power off) first, so a zeroed step is the default: platform (ACPI S4 through the
 * firmware), reboot, suspend (hybrid: suspend to RAM, the image restores only if the power
 * goes), test_resume (restored at once, in place, without a power-off). */
enum hibernate_mode {
	HIB_MODE_SHUTDOWN, HIB_MODE_PLATFORM, HIB_MODE_REBOOT, HIB_MODE_SUSPEND, HIB_MODE_TEST_RESUME,
};
/* Negative controls of the hibernate-mode verdict (QEMU boards): the rig makes a hybrid sleep end
 * the way the plan did not ask. power-cut: cuts the power in S3 when a resume from RAM was asked;
 * early-wake: wakes the board from S3 when a power cut (and a restore) was asked. */
enum hibernate_inject { HIB_INJECT_NONE, HIB_INJECT_POWER_CUT, HIB_INJECT_EARLY_WAKE };

struct step_hibernate {
	bool resume;                /* false: boot with noresume, the image is discarded */
	enum sleep_via via;         /* sysfs or systemctl (systemctl hibernate) */
	enum hibernate_mode mode;   /* default shutdown */
	bool power_cut;             /* mode suspend: cut the power in S3, the image must restore */
	enum wake_source wake;      /* mode suspend: how the rig wakes it from S3; default qmp */
	unsigned seconds;           /* mode suspend: time in S3 before the wake or the cut; default 3 */
	enum hibernate_inject inject;
};

struct step_power_cut {
	enum sleep_mode mode;       /* default deep */
	unsigned after_seconds;     /* power cut this long after the board went to sleep; default 2 */
};

struct step_pm_test {
	enum pm_test_level level;   /* required */
	enum sleep_mode mode;       /* default deep; disk tests hibernation */
};

struct plan_knob {              /* -1 = leave the kernel's value alone */
	int freeze_filesystems;     /* /sys/power/freeze_filesystems */
	int sync_on_suspend;        /* /sys/power/sync_on_suspend */
};

struct step_fsfreeze {
	char *filesystem;           /* a board filesystems[].name */
};

struct step {
	enum step_kind kind;
	unsigned line;              /* where the step is written, for messages */
	union {
		struct step_suspend suspend;
		struct step_hibernate hibernate;
		struct step_power_cut power_cut;
		struct step_pm_test pm_test;
		struct plan_knob knob;
		struct step_fsfreeze fsfreeze;
	} u;
};

struct plan {
	char *path;                 /* file it was loaded from */
	char *name;
	char *description;
	unsigned cycles;            /* the step list runs this many times; default 1 */
	enum plan_on_hang on_hang;  /* default continue */
	struct plan_knob knob;      /* applied after every boot */
	char **workloads;           /* subset of journal, journal-write, fio; empty = none */
	size_t n_workloads;
	bool timeline;              /* per-device suspend/resume timeline of every sleep; default off */
	struct board_timeouts timeouts;  /* per-phase overrides; 0 = the board's value */
	struct step *steps;
	size_t n_steps;
};

/* Load and validate a plan file. On error returns -1 with err naming file:line and key
 * (class RIG_EXIT_USAGE). *out must be released with plan_free(). */
int plan_load(const char *path, struct plan **out, struct rig_err *err);
void plan_free(struct plan *plan);

/* "suspend", "hibernate", "power-cut-while-suspended", "pm_test", "knob", "fsfreeze". */
const char *step_kind_name(enum step_kind kind);
const char *sleep_mode_name(enum sleep_mode mode);
const char *wake_source_name(enum wake_source wake);
const char *pm_test_level_name(enum pm_test_level level);
/* "shutdown", "platform", "reboot", "suspend", "test_resume": /sys/power/disk's words */
const char *hibernate_mode_name(enum hibernate_mode mode);
/* "sysfs", "systemctl", "hybrid-sleep", "suspend-then-hibernate" */
const char *sleep_via_name(enum sleep_via via);
/* The systemctl verb of a suspend (suspend, hybrid-sleep, suspend-then-hibernate) or of a
 * hibernate step; NULL for via sysfs. */
const char *sleep_via_verb(enum sleep_via via, bool hibernate);

/* Short human form for progress output, e.g. "suspend deep wake=rtc 5s". Returns the length
 * snprintf would have written. */
int step_format(const struct step *step, char *buf, size_t size);

/* The timeouts a run of plan on board uses: each of the plan's overrides, else the board's
 * value (board files always have one: their defaults). The one merge: rig run, rig boot and
 * rig lava render all take their timeouts from here. */
void plan_timeouts(const struct plan *plan, const struct board *board, struct board_timeouts *out);

/* Check a plan against the board it will run on: sleep modes and wake sources the board
 * declares, filesystems it has. Error names the plan's file:line (class RIG_EXIT_USAGE). */
int plan_check_board(const struct plan *plan, const struct board *board, struct rig_err *err);

#endif
