/* What a board's stacks (boards/README.md, `stacks`) provide: the block devices each one makes,
 * and which filesystems sit on one. The image builds them at boot from the kernel command line
 * the rig deploys (rig.stack.NAME=..., rig.fs.NAME=..., image/storage.sh). Pure: no I/O. */
#ifndef RIG_CONFIG_BOARD_STACKS_H
#define RIG_CONFIG_BOARD_STACKS_H

#include <stdbool.h>
#include <stddef.h>

#include "config/board.h"

/* The stack that makes block device `device` (/dev/mapper/NAME for luks2, /dev/NAME/lv and
 * /dev/NAME/lv-snap for lvm, /dev/NAME for raid1), NULL when none of the board's does. */
const struct board_stack *board_stack_of_device(const struct board *b, const char *device);

/* The board filesystem that holds path (its mount point the longest prefix of path's first len
 * characters, followed by a '/'), other than filesystem skip: its index, or -1. */
int board_fs_holding(const struct board *b, const char *path, size_t len, size_t skip);

/* Whether the image must be told about filesystem fs on the command line (it is not in the
 * image's own layout): it sits on a stack, it is an overlay, or its image file lies in such a
 * filesystem. */
bool board_fs_is_stacked(const struct board *b, const struct board_filesystem *fs);

/* The kernel command line words that describe the stacks and the stacked filesystems, each
 * preceded by a blank ("" when the board has none): rig.stack.NAME=KIND:DEV[,DEV...][:SIZE:SNAP]
 * and rig.fs.NAME=TYPE:DEVICE:MOUNT. Returns a malloc'ed string, NULL when out of memory. */
char *board_stack_cmdline(const struct board *b);

#endif
