/* vbench-host's log: one line per event, stamped with the monotonic clock in ms. */
#ifndef VBENCH_HOSTLOG_H
#define VBENCH_HOSTLOG_H

#include <stdio.h>

void host_log(FILE *log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
