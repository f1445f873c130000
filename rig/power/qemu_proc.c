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

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Only async-signal-safe calls between fork() and exec(). */
static void exec_child(char *const argv[], const char *stderr_path, int report_fd)
{
	int null_fd = open("/dev/null", O_RDWR);
	int err_fd = open(stderr_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int e;

	/* Own process group: a Ctrl-C meant for rig must not kill the board mid-test. */
	setpgid(0, 0);
	/* QEMU must not inherit rig's sockets and files; best effort on old kernels. */
	close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
	if (null_fd < 0 || err_fd < 0 || dup2(null_fd, 0) < 0 || dup2(null_fd, 1) < 0 ||
	    dup2(err_fd, 2) < 0)
		goto fail;
	execvp(argv[0], argv);
fail:
	e = errno;
	if (write(report_fd, &e, sizeof(e)) < 0)
		_exit(126);
	_exit(127);
}

int qemu_proc_spawn(struct qemu_proc *proc, char *const argv[], const char *stderr_path,
		    struct rig_err *err)
{
	int report[2], exec_errno = 0;
	ssize_t n;
	pid_t pid;

	if (pipe2(report, O_CLOEXEC) < 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0) {
		close(report[0]);
		close(report[1]);
		return rig_err_set(err, RIG_EXIT_INFRA, "fork: %s", strerror(errno));
	}
	if (pid == 0)
		exec_child(argv, stderr_path, report[1]);
	close(report[1]);
	/* The pipe closes on a successful exec; otherwise the child sends its errno. */
	do
		n = read(report[0], &exec_errno, sizeof(exec_errno));
	while (n < 0 && errno == EINTR);
	close(report[0]);
	if (n > 0) {
		waitpid(pid, NULL, 0);
		return rig_err_set(err, RIG_EXIT_INFRA, "cannot run %s: %s", argv[0],
				   strerror(exec_errno));
	}
	proc->pid = pid;
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
		pid_t r = waitpid(proc->pid, NULL, WNOHANG);

		if (r == 0)
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
		sleep_ms(20);
	}
	return true;
}

int qemu_proc_kill(struct qemu_proc *proc, struct rig_err *err)
{
	pid_t pid = proc->pid;

	if (!qemu_proc_alive(proc))
		return 0;
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

/* A recycled pid must not be mistaken for the board: check it is a QEMU. */
static bool looks_like_qemu(pid_t pid)
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
	return strstr(argv0, "qemu") != NULL;
}

void qemu_pidfile_adopt(const char *path, struct qemu_proc *proc)
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
	if (pid <= 0 || !looks_like_qemu(pid))
		return;
	proc->pid = pid;
	if (!qemu_proc_alive(proc))
		proc->pid = 0;
}
