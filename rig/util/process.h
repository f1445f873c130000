/* The one way the rig runs another program (git, the kernel build, a board's power command,
 * QEMU, `rig run` under git bisect): by argument vector, never through a shell of its own (a
 * shell line is argv {"/bin/sh", "-c", line}), without the rig's descriptors, waited for with a
 * deadline, and stopped the same way every time: SIGTERM, a grace period for its clean-up, then
 * SIGKILL (a grace of 0 is a SIGKILL at once: a power cut of a QEMU board). */
#ifndef RIG_UTIL_PROCESS_H
#define RIG_UTIL_PROCESS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "util/err.h"

enum process_io {
	PROCESS_IO_NULL,      /* /dev/null (the default for stdin) */
	PROCESS_IO_INHERIT,   /* the rig's own */
	PROCESS_IO_CAPTURE,   /* a pipe read by process_run() (stdout, stderr only) */
	PROCESS_IO_FILE,      /* path, truncated */
	PROCESS_IO_APPEND,    /* path, appended */
};

struct process_spec {
	char *const *argv;          /* argv[0] is looked up in PATH */
	char *const *env_add;       /* "NAME=value" entries added to the environment; may be NULL */
	const char *cwd;            /* NULL = the current directory */
	enum process_io in, out, err;
	const char *out_path;       /* PROCESS_IO_FILE / _APPEND */
	const char *err_path;
	bool own_group;             /* its own process group: a Ctrl-C meant for the rig does not
				     * reach it, and a stop reaches its children too */
};

struct process {
	pid_t pid;                  /* 0 = none (never started, or reaped) */
	bool own_group;
	int out_fd, err_fd;         /* read ends of captured pipes, -1 when none */
	int exit_code;              /* once reaped: its status, 128+N when signal N ended it */
	int exec_errno;             /* process_start failed because exec did (ENOENT ...); else 0 */
};

/* Start it. -1 with RIG_EXIT_INFRA when it could not be run at all (pipe, fork, or exec: then
 * proc->exec_errno says why, and the message is "cannot run ARGV0: REASON"). */
int process_start(const struct process_spec *spec, struct process *proc, struct rig_err *err);
/* Still running? Reaps it (setting exit_code, clearing pid) once it has ended. */
bool process_alive(struct process *proc);
/* Wait up to timeout_ms (< 0: for ever) for it to end. true once it has (exit_code set). */
bool process_wait(struct process *proc, long long timeout_ms);
/* SIGTERM (to its group when it has one), up to grace_ms for it to end, then SIGKILL; reaped.
 * 0 once gone; -1 when even SIGKILL did not end it within 10 s. */
int process_stop(struct process *proc, unsigned grace_ms, struct rig_err *err);

struct process_result {
	int exit_code;              /* 128+N when signal N ended it */
	bool timed_out;             /* the deadline passed and it was stopped */
	char *out, *err;            /* captured text, NUL-terminated, at most capture_max bytes
				     * each (the rest is read and dropped, and the text then ends
				     * in "\n[rig: output cut]\n"); NULL when not captured */
	bool out_cut, err_cut;      /* that happened */
};

/* Start, capture, wait up to timeout_ms (0 = no deadline), stop it with grace_ms when the
 * deadline passes. 0 with res filled whatever the program did (a non-zero exit or a timeout is
 * the caller's to judge); -1 only when it could not be run (see process_start). Free res with
 * process_result_free(). */
int process_run(const struct process_spec *spec, long long timeout_ms, unsigned grace_ms,
		size_t capture_max, struct process_result *res, struct rig_err *err);
void process_result_free(struct process_result *res);

/* The last non-empty line of text into buf (what build scripts print as their answer); -1 when
 * there is none or it does not fit. */
int process_last_line(const char *text, char *buf, size_t size);

#endif
