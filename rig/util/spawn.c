#include "util/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int redirect(const char *path, int flags, int target)
{
	int fd = open(path, flags | O_CLOEXEC, 0644);

	if (fd < 0 || dup2(fd, target) < 0)
		return -1;
	close(fd);
	return 0;
}

/* In the child: never returns. */
static void exec_child(const struct spawn_spec *spec, int out_pipe)
{
	if (out_pipe >= 0 && dup2(out_pipe, STDOUT_FILENO) < 0)
		_exit(127);
	if (spec->stdout_path && redirect(spec->stdout_path, O_WRONLY | O_CREAT | O_TRUNC, STDOUT_FILENO) < 0)
		_exit(127);
	if (spec->stderr_path && redirect(spec->stderr_path, O_WRONLY | O_CREAT | O_APPEND, STDERR_FILENO) < 0)
		_exit(127);
	if (spec->cwd && chdir(spec->cwd) < 0)
		_exit(127);
	for (char *const *e = spec->env_add; e && *e; e++)
		if (putenv(*e) != 0)
			_exit(127);
	execvp(spec->argv[0], spec->argv);
	fprintf(stderr, "rig: %s: %s\n", spec->argv[0], strerror(errno));
	_exit(127);
}

static int read_all(int fd, char **text)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);

	if (!buf)
		return -1;
	for (;;) {
		if (cap - len < 2048) {
			char *bigger = realloc(buf, cap * 2);

			if (!bigger)
				break;
			buf = bigger;
			cap *= 2;
		}
		ssize_t n = read(fd, buf + len, cap - len - 1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			buf[len] = '\0';
			*text = buf;
			return n < 0 ? -1 : 0;
		}
		len += (size_t)n;
	}
	free(buf);
	return -1;
}

static int wait_exit(pid_t pid, int *exit_code)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	*exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	return 0;
}

int spawn_run(const struct spawn_spec *spec, int *exit_code, char **captured, struct rig_err *err)
{
	int fds[2] = { -1, -1 };
	char *text = NULL;
	int read_rc = 0;
	pid_t pid;

	if (!spec->stdout_path && pipe2(fds, O_CLOEXEC) < 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "pipe: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		int e = errno;

		if (fds[0] >= 0) {
			close(fds[0]);
			close(fds[1]);
		}
		return rig_err_set(err, RIG_EXIT_INFRA, "fork for %s: %s", spec->argv[0], strerror(e));
	}
	if (pid == 0)
		exec_child(spec, fds[1]);
	if (fds[0] >= 0) {
		close(fds[1]);
		read_rc = read_all(fds[0], &text);
		close(fds[0]);
	}
	if (wait_exit(pid, exit_code) < 0 || read_rc < 0) {
		free(text);
		return rig_err_set(err, RIG_EXIT_INFRA, "running %s: %s", spec->argv[0], strerror(errno));
	}
	if (captured)
		*captured = text;
	else
		free(text);
	return 0;
}

int spawn_last_line(const char *text, char *buf, size_t size)
{
	const char *end = text + strlen(text), *start;

	while (end > text && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		end--;
	start = end;
	while (start > text && start[-1] != '\n')
		start--;
	if (start == end || (size_t)(end - start) >= size)
		return -1;
	memcpy(buf, start, (size_t)(end - start));
	buf[end - start] = '\0';
	return 0;
}
