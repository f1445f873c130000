/* The board side reports one line of key=value pairs (workloads/agent/rig-dut.sh). */
#ifndef RIG_UTIL_KV_H
#define RIG_UTIL_KV_H

#include <stdbool.h>
#include <stddef.h>

/* Copy the value of key (up to the next space; "..." quoted values keep their spaces) into buf.
 * Returns true if the key is present. */
bool kv_get(const char *line, const char *key, char *buf, size_t size);
/* The value as a long; returns fallback when absent or not a number. */
long kv_long(const char *line, const char *key, long fallback);
double kv_double(const char *line, const char *key, double fallback);

#endif
