/* deploy_open() picks the backend board->deploy.backend names; the command line of each boot is
 * assembled here, once, for every backend. */
#include "deploy/deploy.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct deploy_ops *const all_ops[] = {
	&deploy_qemu_ops, &deploy_tftp_ops, &deploy_command_ops, &deploy_none_ops,
};

const struct deploy_ops *deploy_ops_find(const char *name)
{
	for (size_t i = 0; name && i < sizeof(all_ops) / sizeof(all_ops[0]); i++)
		if (strcmp(all_ops[i]->name, name) == 0)
			return all_ops[i];
	return NULL;
}

bool deploy_can_set_kernel(const struct board *board)
{
	const struct deploy_ops *ops = deploy_ops_find(board->deploy.backend);

	return ops && ops->sets_kernel;
}

bool deploy_can_set_cmdline(const struct board *board)
{
	const struct deploy_ops *ops = deploy_ops_find(board->deploy.backend);

	return ops && ops->sets_cmdline;
}

int deploy_open(const struct board *board, const char *run_dir, struct deploy **out,
		struct rig_err *err)
{
	const struct deploy_ops *ops = deploy_ops_find(board->deploy.backend);
	struct deploy *d;

	*out = NULL;
	if (!ops)
		return rig_err_set(err, RIG_EXIT_USAGE, "board %s: unknown deploy backend '%s'",
				   board->name, board->deploy.backend ? board->deploy.backend : "");
	if (!(d = calloc(1, sizeof(*d))))
		return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
	d->ops = ops;
	d->board = board;
	snprintf(d->log_path, sizeof(d->log_path), "%s/deploy.log", run_dir ? run_dir : ".");
	*out = d;
	return 0;
}

void deploy_close(struct deploy *d)
{
	free(d);
}

/* Append the words of s (blank-separated) to out at *n; -1 on a control character. */
static int append_words(char *out, size_t *n, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (isspace(c)) {
			if (*n && out[*n - 1] != ' ')
				out[(*n)++] = ' ';
			continue;
		}
		if (iscntrl(c))
			return -1;
		out[(*n)++] = (char)c;
	}
	return 0;
}

int deploy_cmdline(const char *board_cmdline, const char *extra, char **out, struct rig_err *err)
{
	size_t size = strlen(board_cmdline ? board_cmdline : "") + strlen(extra ? extra : "") + 2;
	size_t n = 0;
	char *s = malloc(size);

	*out = NULL;
	if (!s)
		return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
	if (append_words(s, &n, board_cmdline ? board_cmdline : "") < 0 ||
	    append_words(s, &n, " ") < 0 || append_words(s, &n, extra ? extra : "") < 0) {
		free(s);
		return rig_err_set(err, RIG_EXIT_USAGE, "kernel command line: a control character "
				   "(only printable characters and blanks can be deployed)");
	}
	while (n && s[n - 1] == ' ')
		n--;
	s[n] = '\0';
	*out = s;
	return 0;
}

int deploy_boot_cmdline(const struct board *board, const char *extra, char **out,
			struct rig_err *err)
{
	char *words = strdup(""), *longer;
	int rc;

	for (size_t i = 0; words && i < board->n_filesystems; i++) {
		const struct board_filesystem *fs = &board->filesystems[i];

		if (!fs->options)
			continue;
		if (asprintf(&longer, "%s rig.mountopts.%s=%s", words, fs->name, fs->options) < 0)
			longer = NULL;
		free(words);
		words = longer;
	}
	if (words && extra) {
		if (asprintf(&longer, "%s %s", words, extra) < 0)
			longer = NULL;
		free(words);
		words = longer;
	}
	if (!words)
		return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
	rc = deploy_cmdline(board->boot.cmdline, words, out, err);
	free(words);
	return rc;
}

int deploy_prepare(struct deploy *d, const char *extra_cmdline, struct rig_err *err)
{
	const struct board_boot *boot = &d->board->boot;
	struct deploy_request req = { .kernel = boot->kernel, .initrd = boot->initrd, .dtb = boot->dtb };
	char *cmdline;
	int rc;

	if (extra_cmdline && *extra_cmdline && !d->ops->sets_cmdline)
		return rig_err_set(err, RIG_EXIT_USAGE, "board %s (deploy %s) cannot boot with '%s': "
				   "rig does not set its kernel command line", d->board->name,
				   d->ops->name, extra_cmdline);
	if (deploy_boot_cmdline(d->board, extra_cmdline, &cmdline, err) < 0)
		return -1;
	req.cmdline = cmdline;
	rc = d->ops->prepare(d, &req, err);
	if (rc == 0)
		d->generation++;
	free(cmdline);
	return rc;
}
