/* The QEMU board's disk activity from QMP query-blockstats: the engine lets a phase overrun its
 * timeout while the board's disks still complete requests (engine/busy_deadline.h). */
#ifndef RIG_POWER_BLOCKSTATS_H
#define RIG_POWER_BLOCKSTATS_H

#include <jansson.h>

/* Sum of rd_operations, wr_operations and flush_operations over the devices of a
 * query-blockstats reply (each device's own "stats", not its "parent" node's, which counts the
 * same requests again). 0, or -1 when the reply is not a list of such objects. */
int blockstats_ops(const json_t *reply, unsigned long long *ops);

#endif
