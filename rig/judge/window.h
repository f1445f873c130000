/* The kernel's freeze and thaw of filesystems as the rig's kprobes saw them (rig-dut
 * trace-setup), read back by the agent (trace-read) or from a SysRq-z trace dump on the console
 * after a hang (the order verdict on it: judge/stack_order.h). Pure logic: no board, no I/O. */
#ifndef RIG_JUDGE_WINDOW_H
#define RIG_JUDGE_WINDOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

#endif
