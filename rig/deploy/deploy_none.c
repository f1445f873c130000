/* The none deploy: the board boots whatever its own bootloader starts.  The rig cannot choose its
 * kernel or command line; deploy_prepare() refuses an extra command line, and the plan check and
 * the CLI refuse what needs one (config/plan_check.c, cli/context.c). */
#include "deploy/deploy.h"

static int none_prepare(struct deploy *d, const struct deploy_request *req, struct rig_err *err)
{
	(void)d;
	(void)req;
	(void)err;
	return 0;
}

const struct deploy_ops deploy_none_ops = {
	.name = "none", .sets_kernel = false, .sets_cmdline = false, .prepare = none_prepare,
};
