/* Running other programs: start, capture, wait with a deadline, stop (SIGTERM, grace, SIGKILL). */
#include "util/process.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/clock.h"

#define POLL_MS 10
#define KILL_WAIT_MS 10000

extern char **environ;

/* environ with env_add laid over it (a NAME= in env_add replaces the inherited NAME=). Built
 * before fork(): the child may only make async-signal-safe calls. */
static char **merged_env(char *const *env_add)
{
	size_t n_env = 0, n_add = 0, n = 0;
	char **env;

	while (environ && environ[n_env])
		n_env++;
	while (env_add && env_add[n_add])
		n_add++;
	if (!(env = calloc(n_env + n_add + 1, sizeof(*env))))
		return NULL;
	for (size_t i = 0; i < n_env; i++) {
		size_t name = strcspn(environ[i], "=");
		bool replaced = false;

		for (size_t k = 0; k < n_add && !replaced; k++)
			replaced = strncmp(env_add[k], environ[i], name + 1) == 0;
		if (!replaced)
			env[n++] = environ[i];
	}
	for (size_t k = 0; k < n_add; k++)
		env[n++] = env_add[k];
	return env;
}

static int open_target(enum process_io how, const char *path, int flags)
{
	switch (how) {
	case PROCESS_IO_NULL:
		return open("/dev/null", flags & O_ACCMODE);
	case PROCESS_IO_FILE:
		return open(path, flags | O_CREAT | O_TRUNC, 0644);
	case PROCESS_IO_APPEND:
		return open(path, flags | O_CREAT | O_APPEND, 0644);
	default:
		return -1;
	}
}

/* fd `target` of the child: the pipe's write end, a file, /dev/null, or the rig's own. */
static int route(enum process_io how, const char *path, int pipe_end, int target, int flags)
{
	int fd;

	if (how == PROCESS_IO_INHERIT)
		return 0;
	fd = how == PROCESS_IO_CAPTURE ? pipe_end : open_target(how, path, flags);
	if (fd < 0 || dup2(fd, target) < 0)
		return -1;
	if (fd != pipe_end)
		close(fd);
	return 0;
}

/* In the child: never returns. An exec failure is reported through report_fd. */
static void exec_child(const struct process_spec *spec, char **env, const int out[2],
		       const int errp[2], int report_fd)
{
	int e;

	if (spec->own_group)
		setpgid(0, 0);
	if (route(spec->in, NULL, -1, STDIN_FILENO, O_RDONLY) < 0 ||
	    route(spec->out, spec->out_path, out[1], STDOUT_FILENO, O_WRONLY) < 0 ||
	    route(spec->err, spec->err_path, errp[1], STDERR_FILENO, O_WRONLY) < 0 ||
	    (spec->cwd && chdir(spec->cwd) < 0))
		goto fail;
	/* Only 0-2 go with it: the rig's sockets, locks and files stay the rig's. Best effort on
	 * kernels without close_range(); report_fd is close-on-exec already. */
	close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
	execvpe(spec->argv[0], spec->argv, env);
fail:
	e = errno;
	if (write(report_fd, &e, sizeof(e)) < 0)
		_exit(126);
	_exit(127);
}

static void close_pair(int p[2])
{
	for (int i = 0; i < 2; i++)
		if (p[i] >= 0)
			close(p[i]);
	p[0] = p[1] = -1;
}

static int make_pipe(enum process_io how, int p[2])
{
	return how == PROCESS_IO_CAPTURE ? pipe2(p, O_CLOEXEC) : 0;
}

/* Reap after the child reported an exec failure: it exits at once. */
static void reap(pid_t pid, int *status)
{
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
}

int process_start(const struct process_spec *spec, struct process *proc, struct rig_err *err)
{
	int out[2] = { -1, -1 }, errp[2] = { -1, -1 }, report[2] = { -1, -1 }, exec_errno = 0;
	char **env = merged_env(spec->env_add);
	ssize_t n;
	pid_t pid;

	memset(proc, 0, sizeof(*proc));
	proc->out_fd = proc->err_fd = -1;
	proc->own_group = spec->own_group;
	if (!env)
		return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
	if (make_pipe(spec->out, out) < 0 || make_pipe(spec->err, errp) < 0 ||
	    pipe2(report, O_CLOEXEC) < 0) {
		int e = errno;

		close_pair(out);
		close_pair(errp);
		free(env);
		return rig_err_set(err, RIG_EXIT_INFRA, "pipe: %s", strerror(e));
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		exec_child(spec, env, out, errp, report[1]);
	free(env);
	close(report[1]);
	if (out[1] >= 0)
		close(out[1]);
	if (errp[1] >= 0)
		close(errp[1]);
	if (pid < 0) {
		int e = errno;

		close(report[0]);
		close_pair(out);
		close_pair(errp);
		return rig_err_set(err, RIG_EXIT_INFRA, "fork for %s: %s", spec->argv[0], strerror(e));
	}
	/* Also from the parent, so a stop cannot race the child's own setpgid(). */
	if (spec->own_group)
		setpgid(pid, pid);
	/* The pipe closes on a successful exec; otherwise the child sends its errno. */
	do
		n = read(report[0], &exec_errno, sizeof(exec_errno));
	while (n < 0 && errno == EINTR);
	close(report[0]);
	if (n > 0) {
		int status;

		reap(pid, &status);
		close_pair(out);
		close_pair(errp);
		proc->exec_errno = exec_errno;
		return rig_err_set(err, RIG_EXIT_INFRA, "cannot run %s: %s", spec->argv[0],
				   strerror(exec_errno));
	}
	proc->pid = pid;
	proc->out_fd = out[0];
	proc->err_fd = errp[0];
	return 0;
}

static void note_status(struct process *proc, int status)
{
	proc->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	proc->pid = 0;
}

bool process_alive(struct process *proc)
{
	int status;
	pid_t r;

	if (proc->pid <= 0)
		return false;
	do
		r = waitpid(proc->pid, &status, WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r == 0)
		return true;
	if (r == proc->pid)
		note_status(proc, status);
	else
		proc->pid = 0;   /* not ours to wait for any more (ECHILD): gone */
	return false;
}

bool process_wait(struct process *proc, long long timeout_ms)
{
	long long deadline = monotonic_ms() + timeout_ms;

	while (process_alive(proc)) {
		if (timeout_ms >= 0 && monotonic_ms() >= deadline)
			return false;
		clock_sleep_ms(POLL_MS);
	}
	return true;
}

static void signal_it(const struct process *proc, int sig)
{
	if (proc->own_group)
		kill(-proc->pid, sig);
	else
		kill(proc->pid, sig);
}

int process_stop(struct process *proc, unsigned grace_ms, struct rig_err *err)
{
	pid_t pid = proc->pid;

	if (!process_alive(proc))
		return 0;
	if (grace_ms > 0) {
		signal_it(proc, SIGTERM);
		if (process_wait(proc, grace_ms))
			return 0;
	}
	signal_it(proc, SIGKILL);
	if (process_wait(proc, KILL_WAIT_MS))
		return 0;
	return rig_err_set(err, RIG_EXIT_INFRA, "process %d survives SIGKILL", (int)pid);
}

/* ---- process_run: capture and deadline ------------------------------------------------- */

struct capture {
	int fd;
	char *buf;
	size_t len, cap, max;
	bool failed;                /* out of memory: the rest is dropped, the run fails */
	bool cut;                   /* output past max was read and dropped */
};

/* Ends a capture that was cut, inside its max, so nobody mistakes it for the whole output. */
#define CUT_MARK "\n[rig: output cut]\n"

static void mark_cut(struct capture *c)
{
	size_t n = sizeof(CUT_MARK) - 1;

	if (!c->cut || !c->buf || c->max < n)
		return;
	if (c->len > c->max - n)
		c->len = c->max - n;
	memcpy(c->buf + c->len, CUT_MARK, n + 1);
	c->len += n;
}

static int capture_init(struct capture *c, int fd, size_t max)
{
	*c = (struct capture){ .fd = fd, .max = max };
	if (fd < 0)
		return 0;
	c->cap = max < 4096 ? max : 4096;
	if (!(c->buf = malloc(c->cap + 1)))
		return -1;
	c->buf[0] = '\0';
	return 0;
}

/* Room for more output: the buffer doubles up to max. */
static size_t room(struct capture *c)
{
	if (c->len == c->cap && c->cap < c->max && !c->failed) {
		size_t cap = c->cap * 2 < c->max ? c->cap * 2 : c->max;
		char *grown = realloc(c->buf, cap + 1);

		if (grown) {
			c->buf = grown;
			c->cap = cap;
		} else {
			c->failed = true;
		}
	}
	return c->cap - c->len;
}

/* Read what is there; past max the output is read and dropped. 0 = end of file. */
static int drain(struct capture *c)
{
	char scratch[4096];
	size_t free_bytes = room(c);
	ssize_t n = free_bytes ? read(c->fd, c->buf + c->len, free_bytes)
			       : read(c->fd, scratch, sizeof(scratch));

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 1;
	if (n <= 0)
		return 0;
	if (free_bytes)
		c->len += (size_t)n;
	else
		c->cut = true;
	c->buf[c->len] = '\0';
	return 1;
}

/* Read both pipes until they close or the deadline passes (deadline < 0: none). true = closed. */
static bool collect(struct capture caps[2], long long deadline)
{
	bool open_fd[2] = { caps[0].fd >= 0, caps[1].fd >= 0 };

	while (open_fd[0] || open_fd[1]) {
		struct pollfd pfd[2];
		long long left = deadline < 0 ? -1 : deadline - monotonic_ms();
		int ready;

		for (int i = 0; i < 2; i++)
			pfd[i] = (struct pollfd){ .fd = open_fd[i] ? caps[i].fd : -1, .events = POLLIN };
		if (deadline >= 0 && left <= 0)
			return false;
		ready = poll(pfd, 2, left < 0 ? -1 : (int)(left > 1000 ? 1000 : left));
		if (ready < 0 && errno != EINTR)
			return false;
		for (int i = 0; i < 2 && ready > 0; i++)
			if (pfd[i].revents && !drain(&caps[i]))
				open_fd[i] = false;
	}
	return true;
}

/* What is left until deadline: -1 for none, and never below 0 (a deadline that already passed
 * must not read as "no deadline"). */
static long long remaining(long long deadline)
{
	long long left = deadline - monotonic_ms();

	return deadline < 0 ? -1 : left > 0 ? left : 0;
}

int process_run(const struct process_spec *spec, long long timeout_ms, unsigned grace_ms,
		size_t capture_max, struct process_result *res, struct rig_err *err)
{
	long long deadline = timeout_ms > 0 ? monotonic_ms() + timeout_ms : -1;
	struct capture caps[2] = { { .fd = -1 }, { .fd = -1 } };
	struct process proc;
	bool done;

	memset(res, 0, sizeof(*res));
	if (process_start(spec, &proc, err) < 0)
		return -1;
	if (capture_init(&caps[0], proc.out_fd, capture_max) < 0 ||
	    capture_init(&caps[1], proc.err_fd, capture_max) < 0) {
		(void)process_stop(&proc, 0, err);
		rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
		goto fail;
	}
	/* The pipes closing does not mean it exited (a daemonised grandchild may hold them, or it
	 * closed them early): wait for the exit itself, within the same deadline. */
	done = collect(caps, deadline) && process_wait(&proc, remaining(deadline));
	if (!done) {
		res->timed_out = true;
		if (process_stop(&proc, grace_ms, err) < 0)
			goto fail;
	}
	if (caps[0].failed || caps[1].failed) {
		rig_err_set(err, RIG_EXIT_INFRA, "out of memory reading what %s printed", spec->argv[0]);
		goto fail;
	}
	res->exit_code = proc.exit_code;
	for (int i = 0; i < 2; i++)
		mark_cut(&caps[i]);
	res->out_cut = caps[0].cut && capture_max > 0;
	res->err_cut = caps[1].cut && capture_max > 0;
	res->out = caps[0].buf;
	res->err = caps[1].buf;
	for (int i = 0; i < 2; i++)
		if (caps[i].fd >= 0)
			close(caps[i].fd);
	return 0;
fail:
	if (proc.out_fd >= 0)
		close(proc.out_fd);
	if (proc.err_fd >= 0)
		close(proc.err_fd);
	free(caps[0].buf);
	free(caps[1].buf);
	return -1;
}

void process_result_free(struct process_result *res)
{
	free(res->out);
	free(res->err);
	res->out = res->err = NULL;
}

int process_last_line(const char *text, char *buf, size_t size)
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
