/* The command deploy: the lab's own script puts the kernel on the board (a flasher, a labgrid
 * strategy, an scp to the board's /boot and a bootloader entry). It is called as
 *   RUN KERNEL INITRD DTB CMDLINE
 * (an absent initrd or dtb is an empty argument), within deploy.command.timeout_s, with its
 * output appended to the run's deploy.log; anything but exit 0 is an infrastructure failure. */
#include "deploy/deploy.h"

#include <stdio.h>

#include "util/process.h"

#define STOP_GRACE_MS 2000

static int command_prepare(struct deploy *d, const struct deploy_request *req,
			   struct rig_err *err)
{
	const struct board_deploy_command *c = d->board->deploy.command;
	char *argv[] = { c->run, (char *)req->kernel, (char *)(req->initrd ? req->initrd : ""),
			 (char *)(req->dtb ? req->dtb : ""), (char *)req->cmdline, NULL };
	struct process_spec spec = {
		.argv = argv, .out = PROCESS_IO_APPEND, .out_path = d->log_path,
		.err = PROCESS_IO_APPEND, .err_path = d->log_path, .own_group = true,
	};
	struct process_result res;
	FILE *log = fopen(d->log_path, "a");

	if (log) {
		fprintf(log, "deploy command (boot %u): %s %s %s %s '%s'\n", d->generation + 1, c->run,
			argv[1], argv[2], argv[3], req->cmdline);
		fclose(log);
	}
	if (process_run(&spec, (long long)c->timeout_s * 1000, STOP_GRACE_MS, 0, &res, err) < 0)
		return -1;
	process_result_free(&res);
	if (res.timed_out)
		return rig_err_set(err, RIG_EXIT_INFRA, "deploy command %s did not finish within "
				   "%u s (deploy.command.timeout_s; output in %s)", c->run,
				   c->timeout_s, d->log_path);
	if (res.exit_code != 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "deploy command %s exited %d (output in %s)",
				   c->run, res.exit_code, d->log_path);
	return 0;
}

const struct deploy_ops deploy_command_ops = {
	.name = "command", .sets_kernel = true, .sets_cmdline = true, .prepare = command_prepare,
};
