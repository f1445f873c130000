#include "power/shell.h"

#include "util/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct capture {
	int fd;
	char *buf;
	size_t len;
};

static void exec_shell(const char *cmd, int out_fd, int err_fd)
{
	int null_fd = open("/dev/null", O_RDONLY);

	setpgid(0, 0);
	close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);  /* best effort: keep rig's fds from the command */
	if (null_fd < 0 || dup2(null_fd, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0)
		_exit(127);
	execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
	_exit(127);
}

/* Read what is there; past the buffer's end output is read and dropped. 0 = EOF. */
static int drain(struct capture *c)
{
	char scratch[1024];
	ssize_t n;
	size_t room = SHELL_CAPTURE_MAX - 1 - c->len;

	if (room > 0)
		n = read(c->fd, c->buf + c->len, room);
	else
		n = read(c->fd, scratch, sizeof(scratch));
	if (n < 0 && errno == EINTR)
		return 1;
	if (n <= 0)
		return 0;
	if (room > 0)
		c->len += (size_t)n;
	c->buf[c->len] = '\0';
	return 1;
}

/* Collect both pipes until they close or the deadline passes.  true = closed in time. */
static bool collect(struct capture caps[2], long long deadline)
{
	bool open_fd[2] = { true, true };

	while (open_fd[0] || open_fd[1]) {
		struct pollfd pfd[2];
		long long left = deadline - monotonic_ms();
		int ready;

		for (int i = 0; i < 2; i++)
			pfd[i] = (struct pollfd){ .fd = open_fd[i] ? caps[i].fd : -1, .events = POLLIN };
		if (left <= 0)
			return false;
		ready = poll(pfd, 2, (int)left);
		if (ready < 0 && errno != EINTR)
			return false;
		for (int i = 0; i < 2 && ready > 0; i++)
			if (pfd[i].revents && !drain(&caps[i]))
				open_fd[i] = false;
	}
	return true;
}

/* The pipes closing does not mean the shell exited (a daemonized grandchild may hold them, or
 * the shell may have closed them early): wait for the exit itself, within the deadline. */
static bool wait_exit(pid_t pid, long long deadline, int *status)
{
	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid)
			return true;
		if (r < 0 && errno != EINTR)
			return true;
		if (monotonic_ms() >= deadline)
			return false;
		usleep(10000);
	}
}

int shell_run(const char *cmd, unsigned timeout_ms, struct shell_result *res, struct rig_err *err)
{
	long long deadline = monotonic_ms() + timeout_ms;
	int out_pipe[2], err_pipe[2], status = 0;
	struct capture caps[2];
	bool done;
	pid_t pid;

	memset(res, 0, sizeof(*res));
	if (pipe2(out_pipe, O_CLOEXEC) < 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "pipe: %s", strerror(errno));
	if (pipe2(err_pipe, O_CLOEXEC) < 0) {
		close(out_pipe[0]);
		close(out_pipe[1]);
		return rig_err_set(err, RIG_EXIT_INFRA, "pipe: %s", strerror(errno));
	}
	pid = fork();
	if (pid == 0)
		exec_shell(cmd, out_pipe[1], err_pipe[1]);
	close(out_pipe[1]);
	close(err_pipe[1]);
	if (pid < 0) {
		close(out_pipe[0]);
		close(err_pipe[0]);
		return rig_err_set(err, RIG_EXIT_INFRA, "fork: %s", strerror(errno));
	}
	/* Also from the parent, so killpg() cannot race the child's own setpgid(). */
	setpgid(pid, pid);
	caps[0] = (struct capture){ .fd = out_pipe[0], .buf = res->out };
	caps[1] = (struct capture){ .fd = err_pipe[0], .buf = res->err };
	done = collect(caps, deadline) && wait_exit(pid, deadline, &status);
	close(out_pipe[0]);
	close(err_pipe[0]);
	if (!done) {
		kill(-pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return rig_err_set(err, RIG_EXIT_INFRA, "'%s' timed out after %u ms (killed)", cmd,
				   timeout_ms);
	}
	res->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	return 0;
}
