/* A cycle's per-device suspend/resume timeline: the board's summary of the kernel's power events
 * (rig-dut timeline-read, plans with `timeline: true`) parsed into rows on one time axis, joined
 * with the filesystems' frozen windows (the freeze probes, rig-dut trace-read) and the writers'
 * stalls (rig-dut stall-ops), all CLOCK_BOOTTIME. Pure: no board, no I/O. */
#ifndef RIG_JUDGE_TIMELINE_H
#define RIG_JUDGE_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "judge/evidence.h"
#include "judge/window.h"
#include "util/err.h"

/* The device PM phases in the order a suspend and resume run them (drivers/base/power/main.c);
 * hibernation's freeze/thaw/poweroff/restore callbacks fall in the same phases. */
enum tl_phase {
	TL_PREPARE, TL_SUSPEND, TL_SUSPEND_LATE, TL_SUSPEND_NOIRQ,
	TL_RESUME_NOIRQ, TL_RESUME_EARLY, TL_RESUME, TL_COMPLETE,
	TL_PHASE_UNKNOWN,               /* a name this rig does not know: kept, drawn last */
	TL_N_PHASES
};

enum tl_kind {
	TL_MARK,                        /* a suspend_resume span: dpm_suspend, machine_suspend, ... */
	TL_DEVICE,                      /* one device's callback in one phase */
	TL_OTHERS,                      /* the phase's callbacks under the board's threshold, together */
	TL_FROZEN,                      /* a filesystem frozen by the kernel (freeze_super returned to thaw_super) */
	TL_STALL,                       /* a writer's operation that took at least the stall threshold */
};

/* A writer's operation this long is drawn as a stall: the writers log every operation over 1 ms
 * (TEL_SLOW_THRESHOLD_NS); 10 ms keeps a busy disk's ordinary latency off the drawing. */
#define TL_STALL_MIN_NS 10000000ULL

#define TL_OPEN (-1)                /* dur_us of a span that never ended in the evidence */

struct tl_row {
	enum tl_kind kind;
	enum tl_phase phase;            /* TL_DEVICE, TL_OTHERS; TL_PHASE_UNKNOWN otherwise */
	char name[96];                  /* device, mark, filesystem s_id or writer id */
	char driver[64];                /* a device's driver; a stall's filesystem; "" */
	int64_t start_us;               /* from the timeline's base (negative: before the first power event) */
	int64_t dur_us;                 /* TL_OPEN when it never ended */
	int err;                        /* a device callback's error (0 ok) */
	unsigned count;                 /* TL_OTHERS: callbacks aggregated; 1 otherwise */
};

struct timeline {
	bool available;                 /* false: the board has no such events ("unavailable") */
	char reason[64];                /* why unavailable, as the board said */
	uint64_t base_ns;               /* CLOCK_BOOTTIME of offset 0 */
	unsigned events, lost, unmatched, board_bad, min_us;   /* the board's header */
	unsigned bad_lines;             /* reply lines this parser could not read */
	char first_bad[128];            /* the first of them, for the cycle's detail */
	int64_t asleep_from_us, asleep_to_us;   /* machine_suspend's span; -1 when not seen */
	struct tl_row *rows;            /* owned */
	size_t n, cap;
};

const char *tl_phase_name(enum tl_phase p);
enum tl_phase tl_phase_of(const char *name);      /* TL_PHASE_UNKNOWN for others */
const char *tl_kind_name(enum tl_kind k);
int tl_kind_of(const char *name, enum tl_kind *out);   /* -1 for an unknown name */

/* rig-dut timeline-read's reply into tl (which the caller frees with timeline_free). A reply
 * without its header line, or saying "timeline=unavailable", is unavailable; a line that cannot be
 * read is counted (bad_lines), never fatal. -1 only when out of memory. */
int timeline_parse(const char *const *lines, size_t n, struct timeline *tl, struct rig_err *err);

/* Add the filesystems the kernel froze (one TL_FROZEN row per superblock, and the
 * filesystems_freeze/filesystems_thaw calls as marks) and the writers' stalls (every operation of
 * stall_min_ns or longer, and one still in flight, TL_OPEN) on tl's axis. w or stall may be NULL.
 * Nothing to add when tl is unavailable (there is no axis). */
int timeline_join(struct timeline *tl, const struct frozen_window *w,
		  const struct ev_stall_ops *stall, uint64_t stall_min_ns, struct rig_err *err);

int timeline_add(struct timeline *tl, const struct tl_row *row, struct rig_err *err);
void timeline_free(struct timeline *tl);

#endif
