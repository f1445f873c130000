/* The kernel's freeze and thaw of filesystems as the rig's kprobes saw them (rig-dut
 * trace-setup), read back by the agent (trace-read) or from a SysRq-z trace dump on the console
 * after a hang; and the order verdict's judgement of it. Pure logic: no board, no I/O. */
#ifndef RIG_JUDGE_WINDOW_H
#define RIG_JUDGE_WINDOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results/cycle.h"

#define MAX_TRACED_DEVS 16

struct frozen_dev {               /* one superblock the kernel froze */
	char dev[40];                 /* s_id: "sda1", "loop0" */
	bool returned;                /* freeze_super returned */
	uint64_t frozen_ns;           /* when it returned */
	uint64_t thawed_ns;           /* thaw_super called; 0 = never */
};

struct frozen_window {            /* CLOCK_BOOTTIME ns (a trace dump: ns since the buffer's start) */
	bool seen;                    /* filesystems_freeze() entered */
	bool freeze_done, thaw_seen, thaw_done;
	uint64_t freeze_ns, freeze_done_ns, thaw_ns, thaw_done_ns;
	char order[256];              /* devices in the order freeze_super saw them */
	struct frozen_dev devs[MAX_TRACED_DEVS];
	unsigned n_frozen;
};

/* One trace event: "fs_freeze", "fs_freeze_done", "fs_thaw", "fs_thaw_done", "freeze_super",
 * "freeze_super_ret", "thaw_super"; dev = s_id ("" when not traced). Others are ignored. */
void window_feed(struct frozen_window *w, const char *event, uint64_t ns, const char *dev);

/* The dev="..." of a trace line (its kprobe's s_id argument) into dev; "" when absent. */
void trace_line_dev(const char *line, char *dev, size_t size);

/* The order verdict. A filesystem on an image file (a loop mount) must freeze before the
 * filesystem holding its image: backing is that filesystem's s_id ("sda1"; "" = unknown: any
 * sd*, nvme*, vd* or mmcblk* device), NULL when the board has no image filesystem. A backing
 * device frozen before the first loop device fails. hung: the cycle hung and w comes from a
 * trace dump taken then; with an image filesystem on the board, a freeze or thaw that never
 * finished fails too (the verdict's promise is "freezes and thaws without a hang"). detail gets
 * one line for people. */
enum results_verdict_result order_judge(const struct frozen_window *w, bool knob_on,
					const char *backing, bool hung, char *detail, size_t size);

#endif
