#include "power/shell.h"

#include <stdio.h>
#include <string.h>

#include "util/process.h"

/* A power command that outlived its deadline gets this long after SIGTERM to tidy up (a PDU
 * client closing its session) before its process group is killed. */
#define SHELL_STOP_GRACE_MS 1000

int shell_run(const char *cmd, unsigned timeout_ms, struct shell_result *res, struct rig_err *err)
{
	char *argv[] = { "/bin/sh", "-c", (char *)cmd, NULL };
	struct process_spec spec = { .argv = argv, .out = PROCESS_IO_CAPTURE,
		.err = PROCESS_IO_CAPTURE, .own_group = true };
	struct process_result run;

	memset(res, 0, sizeof(*res));
	if (process_run(&spec, timeout_ms ? timeout_ms : 1, SHELL_STOP_GRACE_MS,
			SHELL_CAPTURE_MAX - 1, &run, err) < 0)
		return -1;
	snprintf(res->out, sizeof(res->out), "%s", run.out ? run.out : "");
	snprintf(res->err, sizeof(res->err), "%s", run.err ? run.err : "");
	res->exit_code = run.exit_code;
	process_result_free(&run);
	if (run.timed_out)
		return rig_err_set(err, RIG_EXIT_INFRA, "'%s' timed out after %u ms (stopped)", cmd,
				   timeout_ms);
	return 0;
}
