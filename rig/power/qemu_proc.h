/* A QEMU process: started as our child in its own process group, or found again through the
 * pidfile a previous rig left in the run directory. */
#ifndef RIG_POWER_QEMU_PROC_H
#define RIG_POWER_QEMU_PROC_H

#include <stdbool.h>
#include <sys/types.h>

#include "util/err.h"
#include "util/process.h"

struct qemu_proc {
	pid_t pid;             /* 0 = none */
	bool child;            /* ours: started and reaped through util/process */
	struct process process;
};

/* execvp(argv) with stdin/stdout on /dev/null and stderr in stderr_path (truncated), no other
 * inherited fds.  Fails with RIG_EXIT_INFRA when the binary cannot be run. */
int qemu_proc_spawn(struct qemu_proc *proc, char *const argv[], const char *stderr_path,
		    struct rig_err *err);
/* Is it still running?  Reaps our child when it has exited (and then clears pid). */
bool qemu_proc_alive(struct qemu_proc *proc);
/* Wait up to timeout_ms for it to exit.  Returns true once it is gone. */
bool qemu_proc_wait_exit(struct qemu_proc *proc, unsigned timeout_ms);
/* SIGKILL (a power cut: no grace for the guest) and wait for it.  0 once gone. */
int qemu_proc_kill(struct qemu_proc *proc, struct rig_err *err);

int qemu_pidfile_write(const char *path, pid_t pid, struct rig_err *err);
/* A live QEMU whose pid is in path (not our child), or pid 0. */
void qemu_pidfile_adopt(const char *path, struct qemu_proc *proc);
/* The same for another program of the board (nbdkit): argv[0] must contain name. */
void qemu_pidfile_adopt_named(const char *path, struct qemu_proc *proc, const char *name);

#endif
