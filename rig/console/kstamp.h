/* The kernel's console record prefix: "[%5lu.%06lu] " (printk.c print_time), optionally
 * followed by a caller id "[%6s]" (CONFIG_PRINTK_CALLER, e.g. "[    T1]"). */
#ifndef RIG_CONSOLE_KSTAMP_H
#define RIG_CONSOLE_KSTAMP_H

#include <stdbool.h>
#include <stddef.h>

struct kstamp {
	double secs;          /* kernel time of the record */
	size_t len;           /* prefix length including the space after it */
};

/* Does s start with a record prefix? At the end of a string the space may be missing. */
bool kstamp_parse(const char *s, struct kstamp *ks);
/* First record prefix (with its space) at column >= from; returns its column or -1. */
long kstamp_find(const char *s, size_t from, struct kstamp *ks);

#endif
