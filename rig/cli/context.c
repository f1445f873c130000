#include "cli/context.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "deploy/deploy.h"

void cli_paths_init(struct cli_paths *p)
{
	const char *top = getenv("RIG_TOP"), *out = getenv("OUT");

	memset(p, 0, sizeof(*p));
	if (top && *top)
		snprintf(p->top, sizeof(p->top), "%s", top);
	else if (!getcwd(p->top, sizeof(p->top)))
		snprintf(p->top, sizeof(p->top), ".");
	if (out && *out)
		snprintf(p->out, sizeof(p->out), "%s", out);
	else if (snprintf(p->out, sizeof(p->out), "%s/out", p->top) >= (int)sizeof(p->out))
		snprintf(p->out, sizeof(p->out), "out");
}

static bool names_a_file(const char *arg)
{
	size_t len = strlen(arg);

	return strchr(arg, '/') || (len > 5 && strcmp(arg + len - 5, ".yaml") == 0);
}

int cli_path(char *buf, size_t size, const char *dir, const char *rel)
{
	int n = snprintf(buf, size, "%s/%s", dir, rel);

	if (n < 0 || (size_t)n >= size) {
		buf[0] = '\0';
		return -1;
	}
	return 0;
}

/* A path too long for buf becomes "" (no such file), never a truncated other path. */
static void resolve(const struct cli_paths *p, const char *folder, const char *arg, char *buf,
		    size_t size)
{
	int n = names_a_file(arg) ? snprintf(buf, size, "%s", arg)
				  : snprintf(buf, size, "%s/%s/%s.yaml", p->top, folder, arg);

	if (n < 0 || (size_t)n >= size)
		buf[0] = '\0';
}

void cli_board_path(const struct cli_paths *p, const char *arg, char *buf, size_t size)
{
	resolve(p, "boards", arg, buf, size);
}

void cli_plan_path(const struct cli_paths *p, const char *arg, char *buf, size_t size)
{
	resolve(p, "plans", arg, buf, size);
}

void cli_board_name(const char *arg, char *buf, size_t size)
{
	const char *base = strrchr(arg, '/');
	size_t len;

	base = base ? base + 1 : arg;
	len = strlen(base);
	if (len > 5 && strcmp(base + len - 5, ".yaml") == 0)
		len -= 5;
	snprintf(buf, size, "%.*s", (int)len, base);
}

static int mkdir_p(char *path, struct rig_err *err)
{
	for (char *slash = strchr(path + 1, '/');; slash = strchr(slash + 1, '/')) {
		if (slash)
			*slash = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST) {
			int e = errno;

			if (slash)
				*slash = '/';
			return rig_err_set(err, RIG_EXIT_INFRA, "mkdir %s: %s", path, strerror(e));
		}
		if (!slash)
			return 0;
		*slash = '/';
	}
}

int cli_make_stamped_dir(struct cli_paths *p, const char *kind, const char *board_name,
			 struct rig_err *err)
{
	time_t now = time(NULL);
	struct tm tm;
	char stamp[32];

	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	if ((size_t)snprintf(p->run, sizeof(p->run), "%s/%s/%s/%s", p->out, kind, board_name, stamp) >=
	    sizeof(p->run))
		return rig_err_set(err, RIG_EXIT_USAGE, "%s directory path too long under %s", kind, p->out);
	return mkdir_p(p->run, err);
}

int cli_make_run_dir(struct cli_paths *p, const char *board_name, struct rig_err *err)
{
	return cli_make_stamped_dir(p, "runs", board_name, err);
}

int cli_load_known(const struct cli_paths *p, const char *arg, struct known_issues **out,
		   struct rig_err *err)
{
	char path[PATH_MAX];

	*out = NULL;
	if (arg && strcmp(arg, "none") == 0)
		return 0;
	if (arg)
		snprintf(path, sizeof(path), "%s", arg);
	else
		cli_path(path, sizeof(path), p->top, "known-issues/known-issues.yaml");
	if (!arg && access(path, R_OK) < 0)
		return 0;   /* a checkout without the default file runs without known issues */
	return known_load(path, out, err);
}

int cli_load_board(struct cli_paths *p, const char *arg, struct board **out, struct rig_err *err)
{
	char path[PATH_MAX];
	struct board_paths bp = { .run = p->run[0] ? p->run : NULL, .out = p->out, .top = p->top };

	cli_board_path(p, arg, path, sizeof(path));
	if (access(path, R_OK) < 0)
		return rig_err_set(err, RIG_EXIT_USAGE, "board file %s: %s", path, strerror(errno));
	return board_load(path, &bp, out, err);
}

int cli_check_deploy(const struct board *board, const char *what, bool kernel, bool append,
		     struct rig_err *err)
{
	const char *cannot = kernel && !deploy_can_set_kernel(board) ? "boot a kernel rig chooses" :
			     append && !deploy_can_set_cmdline(board) ? "set the kernel command line" :
			     NULL;

	if (!cannot)
		return 0;
	return rig_err_set(err, RIG_EXIT_USAGE, "%s: board %s cannot %s: %s: deploy.backend is %s "
			   "(the board boots what it has; boards/README.md, deploy:)", what,
			   board->name, cannot, board->path ? board->path : "?", board->deploy.backend);
}

int cli_override_boot(struct board *board, const char *kernel_dir, const char *append,
		      struct rig_err *err)
{
	char *joined;

	if (cli_check_deploy(board, kernel_dir ? "--kernel" : "--append", kernel_dir != NULL,
			     append != NULL, err) < 0)
		return -1;

	if (kernel_dir) {
		if (asprintf(&joined, "%s/bzImage", kernel_dir) < 0)
			return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
		if (access(joined, R_OK) < 0) {
			rig_err_set(err, RIG_EXIT_USAGE, "--kernel: %s is not readable", joined);
			free(joined);
			return -1;
		}
		free(board->boot.kernel);
		board->boot.kernel = joined;
	}
	if (append) {
		if (asprintf(&joined, "%s %s", board->boot.cmdline ? board->boot.cmdline : "",
			     append) < 0)
			return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
		free(board->boot.cmdline);
		board->boot.cmdline = joined;
	}
	return 0;
}

int cli_fail(const struct rig_err *err)
{
	fprintf(stderr, "rig: %s\n", err->msg);
	return err->class ? (int)err->class : RIG_EXIT_INFRA;
}
