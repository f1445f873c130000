/* Running helper programs (git, the kernel build) by argument vector, never through a shell. */
#ifndef RIG_UTIL_SPAWN_H
#define RIG_UTIL_SPAWN_H

#include <stddef.h>

#include "util/err.h"

struct spawn_spec {
	char *const *argv;          /* argv[0] is looked up in PATH */
	char *const *env_add;       /* "NAME=value" entries added to the environment; may be NULL */
	const char *cwd;            /* NULL = the current directory */
	const char *stdout_path;    /* file that receives stdout (truncated); NULL = capture */
	const char *stderr_path;    /* file that receives stderr (appended); NULL = inherited */
};

/*
 * Run spec and wait. *exit_code is the program's exit status, or 128+N when signal N killed it
 * (127 when it could not be started). With stdout_path NULL, stdout is captured into a
 * NUL-terminated malloc'd *captured (the caller frees it; captured may be NULL to discard).
 * Returns -1 (RIG_EXIT_INFRA) only when the program could not be run at all; a non-zero exit
 * is the caller's to judge.
 */
int spawn_run(const struct spawn_spec *spec, int *exit_code, char **captured, struct rig_err *err);

/* The last non-empty line of text, copied into buf (what build scripts print as their answer). */
int spawn_last_line(const char *text, char *buf, size_t size);

#endif
