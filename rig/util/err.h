/* Errors carried up to the CLI, which turns their class into the documented exit code. */
#ifndef RIG_UTIL_ERR_H
#define RIG_UTIL_ERR_H

#include <stdarg.h>

/* Exit codes of every rig command (rig(1), EXIT STATUS). */
enum rig_exit {
	RIG_EXIT_PASS = 0,    /* every verdict passed */
	RIG_EXIT_FAIL = 1,    /* a verdict failed: a regression */
	RIG_EXIT_USAGE = 2,   /* bad usage or configuration */
	RIG_EXIT_INFRA = 3,   /* infrastructure: board unreachable, serial gone, QEMU missing */
};

struct rig_err {
	enum rig_exit class;  /* which exit code this error maps to */
	char msg[1024];       /* complete human message: "boards/x.yaml:12: key 'foo': unknown key" */
};

/* Fill err (if non-NULL) and return -1, so callers can `return rig_err_set(...)`. */
int rig_err_set(struct rig_err *err, enum rig_exit class, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int rig_err_setv(struct rig_err *err, enum rig_exit class, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

#endif
