/*
 * Evidence: what a board reported (its rig-dut replies, workloads/agent/rig-dut.sh) parsed into
 * typed records. The same parsers read the replies the engine's board client gets through the
 * agent (engine/dut.c, rig run) and the records a LAVA job's log holds (lava/evidence.c, rig lava
 * import), so both feed the same judge (judge.h) the same facts. Pure: no I/O.
 *
 * Each parser takes a reply's output lines; a line it does not recognise is ignored (a kernel
 * message in a reply is caught by the agent's checksum before it gets here).
 */
#ifndef RIG_JUDGE_EVIDENCE_H
#define RIG_JUDGE_EVIDENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "judge/window.h"
#include "lib/journal_verify.h"
#include "lib/telemetry.h"
#include "util/err.h"

/* The board's commands (workloads/agent/rig-dut.sh), spelled once: the typed client writes them
 * (engine/dut.c) and the LAVA importer finds their replies by them in a job's log
 * (lava/import_evidence.c), where the test definitions (jobs/test-definitions/) recorded them. */
#define EV_CMD_INFO            "rig-dut info"
#define EV_CMD_KNOB            "rig-dut knob"
#define EV_CMD_TRACE_SETUP     "rig-dut trace-setup"
#define EV_CMD_START_WORKLOADS "rig-dut start-workloads"
#define EV_CMD_SUSPEND         "rig-dut suspend"
#define EV_CMD_HIBERNATE       "rig-dut hibernate"
#define EV_CMD_PM_TEST         "rig-dut pm-test"
#define EV_CMD_TRACE_READ      "rig-dut trace-read"
#define EV_CMD_STALL_OPS       "rig-dut stall-ops"
#define EV_CMD_ALIVE           "rig-dut alive"
#define EV_CMD_FSFREEZE        "rig-dut fsfreeze"
#define EV_CMD_FIO_CHECKPOINT  "rig-dut fio-checkpoint"
#define EV_CMD_FIO_VERIFY      "rig-dut fio-verify"
#define EV_CMD_VERIFY          "rig-dut verify"
#define EV_CMD_JOURNALD_CHECK  "rig-dut journald-check"
#define EV_CMD_FSCK            "rig-dut fsck"
#define EV_CMD_TIMELINE_SETUP  "rig-dut timeline-setup"
#define EV_CMD_TIMELINE_READ   "rig-dut timeline-read"
#define EV_CMD_COLLECT         "rig-dut collect"

#define EV_WRITERS_MAX 32
#define EV_FILESYSTEMS_MAX 16
#define EV_LINE_MAX 640

/* rig-dut info: "kernel=... freeze_filesystems=0|1|absent sync_on_suspend=... boot_id=...
 * build_id=..." */
struct ev_identity {
	char kernel[64];
	int knob_freeze_filesystems;    /* -1: absent (a kernel without the series) */
	int knob_sync_on_suspend;
	char boot_id[64];
	char build_id[72];              /* GNU build-id of the running kernel (hex); "" unknown */
};

/* -1 when the line names no kernel. */
int ev_parse_identity(const char *line, struct ev_identity *out);

/* rig-dut suspend / pm-test / hibernate: "result=RC successes=N slept_s=S presync_ms=P
 * last_failed_step=..." (the shell's own complaints may come first). */
struct ev_sleep {
	bool replied;                   /* the command finished and said so */
	long result;                    /* -1: no result line */
	long successes;                 /* suspend_stats success delta; -1 unknown */
	long presync_ms;
	char line[EV_LINE_MAX];         /* the result line, for the verdict's detail */
};

void ev_parse_sleep(const char *const *lines, size_t n, struct ev_sleep *out);

/* rig-dut suspend's wake accounting, the line after its result: "wake irq=N|unavailable
 * irq_name=NAME|unavailable asleep_ms=MS|unavailable awake_ms=MS|unavailable
 * sources=NAME:EVENTS:WAKEUPS,...|none|unavailable rtc=NAME,...|none|unavailable
 * hw_sleep_ms=MS|unavailable" (workloads/agent/rig-dut.sh, wake_report; a rig-dut before rtc=
 * and hw_sleep_ms= leaves them unknown). */
#define EV_WAKE_SOURCES_MAX 256
#define EV_WAKE_RTC_MAX 96
struct ev_wake {
	bool reported;                  /* the reply had the line (a rig-dut before it has none) */
	long irq;                       /* /sys/power/pm_wakeup_irq; -1 unavailable */
	char irq_name[32];              /* its action in /proc/interrupts; "" unavailable */
	long asleep_ms;                 /* Δboottime − Δmonotonic across the sleep; -1 unavailable */
	long awake_ms;                  /* Δmonotonic over the same span; -1 unavailable */
	bool sources_known;             /* the board has /sys/class/wakeup */
	char sources[EV_WAKE_SOURCES_MAX]; /* the sources that counted; "" none did */
	bool rtc_known;                 /* the board said which wakeup sources are the RTC's */
	char rtc[EV_WAKE_RTC_MAX];      /* their names, "NAME,..."; "" the RTC has none */
	long hw_sleep_ms;               /* the hardware's own record (total_hw_sleep); -1 unavailable */
};

void ev_parse_wake(const char *const *lines, size_t n, struct ev_wake *out);

/* rig-dut collect PART...: each part's lines (as its own command prints them) follow a line
 * "collect=PART". Where PART's lines start and how many there are; false when the reply has no
 * such part (a rig-dut without collect prints its help instead). */
bool ev_collect_part(const char *const *lines, size_t n, const char *part, size_t *first,
		     size_t *count);

/* rig-dut trace-read: "event t_ns [dev]" per line, fed into the frozen window. */
void ev_parse_trace(const char *const *lines, size_t n, struct frozen_window *w);

/* rig-dut stall-ops: the writers' telemetry around the freeze ("window from_ns=A to_ns=B", then
 * "writer=ID tel ..." and "writer=ID op ..." lines, lib/stall_report.h). */
struct ev_writer_ops {
	char id[32];                    /* "<filesystem>-<m|w><gen>" */
	bool has_header;
	struct tel_header hdr;          /* total_ops, error_total, longest_ns, inflight_start_ns */
	struct tel_entry *ops;          /* the operations relevant to the window, owned */
	size_t n_ops, cap_ops;
};

struct ev_stall_ops {
	bool window;                    /* the board saw a freeze in its trace */
	uint64_t from_ns, to_ns;
	struct ev_writer_ops writers[EV_WRITERS_MAX];
	size_t n;
};

int ev_parse_stall_ops(const char *const *lines, size_t n, struct ev_stall_ops *out,
		       struct rig_err *err);
void ev_stall_ops_free(struct ev_stall_ops *s);

/* rig-dut alive: "writer=ID alive=0|1". */
struct ev_alive {
	struct { char id[32]; bool alive; } writers[EV_WRITERS_MAX];
	size_t n;
};

void ev_parse_alive(const char *const *lines, size_t n, struct ev_alive *out);

/* rig-dut fsfreeze NAME state: "fs=NAME frozen=0|1"; -1 when it does not say. */
int ev_parse_frozen(const char *line);

/* rig-dut verify: "journal=FS/MODE <journal-verify scan ... id=ID>" per journal file. */
struct ev_journal {
	char file[64];                  /* "nvme-ext4/mmap" */
	bool scanned;                   /* the scan's keys were all there */
	struct jv_result scan;          /* scan.id: the writer its records name ("" when none) */
	char line[EV_LINE_MAX];
};

struct ev_journals {
	struct ev_journal files[EV_WRITERS_MAX];
	size_t n;
};

void ev_parse_verify(const char *const *lines, size_t n, struct ev_journals *out);

/* rig-dut journald-check (systemd boards): "journald verify=pass|fail files=N bad_files=N
 * bad_earlier=N renamed=N complaints=N corrupt_complaints=N", then "journald verify_output: ..."
 * and "journald said: ..." lines (what journalctl --verify and journald itself said). */
#define EV_JOURNALD_SAID_MAX 7
struct ev_journald {
	char line[EV_LINE_MAX];         /* the report ("" when there was none) */
	char said[EV_JOURNALD_SAID_MAX][EV_LINE_MAX];
	size_t n_said;
};

void ev_parse_journald(const char *const *lines, size_t n, struct ev_journald *out);

/* rig-dut fsck: "fs=NAME fsck_rc=N" (then "fs=NAME fsck_output: ..." for a failure), or
 * "fs=NAME fsck=skipped reason=..." (not checked: no verdict). */
struct ev_fsck {
	struct { char fs[64]; long rc; char line[EV_LINE_MAX]; } filesystems[EV_FILESYSTEMS_MAX];
	size_t n;
};

void ev_parse_fsck(const char *const *lines, size_t n, struct ev_fsck *out);

/* Writer ids are "<filesystem>-<mode><gen>": the filesystem is everything before the last dash. */
void ev_writer_fs(const char *id, char *fs, size_t size);

#endif
