/* The metadata writer's operations (meta-writer, meta-verify; workloads/README.md).
 *
 * Operation k (from 1) belongs to group g = (k-1)/8 and works on that group's files only:
 *   1 create c<g>: 12 KiB written (three 4 KiB blocks of the group's pattern)
 *   2 link c<g> to l<g> (a second name)
 *   3 rename c<g> to r<g>
 *   4 setxattr user.rig = "<g>" on r<g>
 *   5 fallocate r<g> to 16 KiB (the size grows)
 *   6 punch a hole in r<g>'s second block (reads back as zeros, the size stays)
 *   7 write r<g>'s fourth block with O_DIRECT (the inverted pattern)
 *   8 unlink l<g>
 * Every prefix of a group's 8 operations leaves a different state on disk, and the verifier
 * can tell which: after a failure, every acknowledged operation must be visible. */
#ifndef WORKLOADS_META_OPS_H
#define WORKLOADS_META_OPS_H

#include <stdint.h>

#include "lib/journal_verify.h"
#include "lib/wl_util.h"

#define META_OPS_PER_GROUP 8u
#define META_BLOCK 4096u
#define META_ID_FILE "id"

/* Perform operation k in the directory dirfd. 0 or -errno (err says which operation failed). */
int meta_apply(int dirfd, uint64_t k, struct wl_err *err);

/* How many of group g's operations the directory shows applied (0..8), the longest prefix whose
 * effects are all there. *corrupt is set when the group's file holds the wrong data. */
unsigned meta_group_state(int dirfd, uint64_t g, int *corrupt);

/* The directory as a journal scan (journal_verify.h): valid_prefix = the last operation k such
 * that operations 1..k are all visible; records = operations visible; holes = operations
 * missing below the last visible one; corrupt = groups whose data is wrong; id from the
 * directory's id file. 0 or -errno. */
int meta_scan(int dirfd, struct jv_result *out, struct wl_err *err);

#endif
