/* Small helpers shared by the workload programs: clocks, number parsing, error messages.
 * Workload code cannot use rig/util (the board binaries link only workloads/lib). */
#ifndef WORKLOADS_WL_UTIL_H
#define WORKLOADS_WL_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

struct wl_err {
	char msg[256];
};

/* Format a message into err (if non-NULL) and return code, so callers can `return wl_err_set(...)`. */
int wl_err_set(struct wl_err *err, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Nanoseconds on clock (CLOCK_BOOTTIME, CLOCK_MONOTONIC); 0 if the clock is unavailable. */
uint64_t wl_now_ns(clockid_t clock);

/* Parse a whole decimal string into *out; false on junk, sign or overflow. */
bool wl_parse_u64(const char *text, uint64_t *out);

/* wl_parse_u64 limited to [0, max]. */
bool wl_parse_uint(const char *text, unsigned max, unsigned *out);

/* write(2) all of buf, retrying on EINTR and short writes; 0 or -errno. */
int wl_write_all(int fd, const void *buf, size_t len);

#endif
