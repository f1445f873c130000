/* The knob-semantics verdict: what the kernel froze at a suspend (the rig's kprobes on
 * filesystems_freeze() and freeze_super(), judge/window.h) against what
 * /sys/power/freeze_filesystems promised. Pure logic: no board, no I/O.
 *
 *   knob 0  no filesystem frozen by the kernel, except those it always freezes (FS_POWER_FREEZE:
 *           efivarfs since 6.18, where mounted); the detail says which it froze.
 *   knob 1  every filesystem of the board frozen (in reverse superblock order: the order
 *           verdict's business, not this one's).
 *
 * Upstream 6.18 shipped filesystems_freeze_callback() with its check reversed: knob 0 froze
 * everything and knob 1 only FS_POWER_FREEZE filesystems. Both halves of that fail here
 * (negative control: rig_fault=reverse-knob-check, kernel/patches/faults/). */
#ifndef RIG_JUDGE_KNOB_H
#define RIG_JUDGE_KNOB_H

#include <stddef.h>

#include "config/board.h"
#include "judge/window.h"
#include "results/cycle.h"

/* The traced superblock of a board filesystem: its block device's name, or for an image file
 * (a loop mount) the first loop device frozen. NULL when the kernel did not freeze it. */
const struct frozen_dev *knob_traced_dev(const struct frozen_window *w,
					 const struct board_filesystem *fs);

/* Whether the kernel freezes superblock s_id (as traced) whatever the knob says: efivarfs from
 * 6.18 on. kernel_version "" or NULL: unknown, nothing is. */
bool knob_always_frozen(const char *s_id, const char *kernel_version);

/* The verdict. knob: the board's freeze_filesystems (-1: absent, a skip); kernel_version as the
 * board reported it (in the detail, and for the always-frozen set). detail: one line for
 * people, naming the knob, the kernel and what was frozen. */
enum results_verdict_result knob_judge(const struct frozen_window *w, int knob,
				       const char *kernel_version, const struct board *b,
				       char *detail, size_t size);

#endif
