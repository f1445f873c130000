/* Run one shell command line with a deadline, capturing what it prints. */
#ifndef RIG_POWER_SHELL_H
#define RIG_POWER_SHELL_H

#include "util/err.h"

#define SHELL_CAPTURE_MAX 4096

struct shell_result {
	int exit_code;                      /* 128+N when killed by signal N */
	char out[SHELL_CAPTURE_MAX];        /* stdout, truncated, NUL-terminated */
	char err[SHELL_CAPTURE_MAX];        /* stderr, likewise */
};

/* /bin/sh -c cmd in its own process group (util/process); on timeout the whole group is stopped
 * (SIGTERM, a second of grace, SIGKILL) and the call
 * fails with RIG_EXIT_INFRA.  A non-zero exit is not an error here: see res->exit_code. */
int shell_run(const char *cmd, unsigned timeout_ms, struct shell_result *res, struct rig_err *err);

#endif
