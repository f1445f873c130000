#include "power/qemu_proc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/clock.h"

int qemu_proc_spawn(struct qemu_proc *proc, char *const argv[], const char *stderr_path,
		    struct rig_err *err)
{
	/* Own process group: a Ctrl-C meant for rig must not kill the board mid-test. */
	struct process_spec spec = { .argv = argv, .err = PROCESS_IO_FILE, .err_path = stderr_path,
		.own_group = true };

	if (process_start(&spec, &proc->process, err) < 0)
		return -1;
	proc->pid = proc->process.pid;
	proc->child = true;
	return 0;
}

static bool is_zombie(pid_t pid)
{
	char path[64], buf[256];
	const char *paren;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return true;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	paren = strrchr(buf, ')');
	return !paren || paren[1] == '\0' || paren[2] == 'Z';
}

bool qemu_proc_alive(struct qemu_proc *proc)
{
	if (proc->pid <= 0)
		return false;
	if (proc->child) {
		if (process_alive(&proc->process))
			return true;
		proc->pid = 0;
		return false;
	}
	if ((kill(proc->pid, 0) == 0 || errno == EPERM) && !is_zombie(proc->pid))
		return true;
	proc->pid = 0;
	return false;
}

bool qemu_proc_wait_exit(struct qemu_proc *proc, unsigned timeout_ms)
{
	for (unsigned waited = 0; qemu_proc_alive(proc); waited += 20) {
		if (waited >= timeout_ms)
			return false;
		clock_sleep_ms(20);
	}
	return true;
}

int qemu_proc_kill(struct qemu_proc *proc, struct rig_err *err)
{
	pid_t pid = proc->pid;

	if (!qemu_proc_alive(proc))
		return 0;
	if (proc->child) {
		int rc = process_stop(&proc->process, 0, err);

		if (rc == 0)
			proc->pid = 0;
		return rc;
	}
	if (kill(pid, SIGKILL) < 0 && errno != ESRCH)
		return rig_err_set(err, RIG_EXIT_INFRA, "kill QEMU %d: %s", (int)pid,
				   strerror(errno));
	if (!qemu_proc_wait_exit(proc, 10000))
		return rig_err_set(err, RIG_EXIT_INFRA, "QEMU %d survives SIGKILL", (int)pid);
	return 0;
}

int qemu_pidfile_write(const char *path, pid_t pid, struct rig_err *err)
{
	FILE *f = fopen(path, "we");

	if (!f)
		return rig_err_set(err, RIG_EXIT_INFRA, "pidfile %s: %s", path, strerror(errno));
	fprintf(f, "%d\n", (int)pid);
	if (fclose(f) != 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "pidfile %s: %s", path, strerror(errno));
	return 0;
}

/* A recycled pid must not be mistaken for the board: check its program's name. */
static bool looks_like(pid_t pid, const char *name)
{
	char path[64], argv0[512];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	n = fread(argv0, 1, sizeof(argv0) - 1, f);
	fclose(f);
	argv0[n] = '\0';
	return strstr(argv0, name) != NULL;
}

void qemu_pidfile_adopt(const char *path, struct qemu_proc *proc)
{
	qemu_pidfile_adopt_named(path, proc, "qemu");
}

void qemu_pidfile_adopt_named(const char *path, struct qemu_proc *proc, const char *name)
{
	FILE *f = fopen(path, "re");
	int pid = 0;

	proc->pid = 0;
	proc->child = false;
	if (!f)
		return;
	if (fscanf(f, "%d", &pid) != 1)
		pid = 0;
	fclose(f);
	if (pid <= 0 || !looks_like(pid, name))
		return;
	proc->pid = pid;
	if (!qemu_proc_alive(proc))
		proc->pid = 0;
}
