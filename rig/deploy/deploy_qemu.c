/* The qemu deploy: QEMU loads the kernel, initrd and command line itself (-kernel, -initrd,
 * -append: power/qemu_args.c builds them from board->boot, which the session sets to this boot's
 * command line while it powers on).  Nothing is copied; what QEMU will load must be there. */
#include "deploy/deploy.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

static int need_file(const char *what, const char *path, struct rig_err *err)
{
	if (!path || access(path, R_OK) == 0)
		return 0;
	return rig_err_set(err, RIG_EXIT_INFRA, "deploy qemu: %s %s: %s", what, path,
			   strerror(errno));
}

static int qemu_prepare(struct deploy *d, const struct deploy_request *req, struct rig_err *err)
{
	if (req->dtb)
		return rig_err_set(err, RIG_EXIT_USAGE, "board %s: deploy qemu does not load a "
				   "device tree (boot.dtb)", d->board->name);
	return need_file("kernel", req->kernel, err) || need_file("initrd", req->initrd, err) ? -1 : 0;
}

const struct deploy_ops deploy_qemu_ops = {
	.name = "qemu", .sets_kernel = true, .sets_cmdline = true, .prepare = qemu_prepare,
};
