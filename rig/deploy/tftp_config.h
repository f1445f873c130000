/* The boot configuration the tftp deploy writes, in each format a lab's boards read over TFTP.
 * Pure: builds text, touches nothing. */
#ifndef RIG_DEPLOY_TFTP_CONFIG_H
#define RIG_DEPLOY_TFTP_CONFIG_H

#include "util/err.h"

struct tftp_boot_files {
	const char *kernel;    /* names relative to the TFTP root */
	const char *initrd;    /* may be NULL */
	const char *dtb;       /* may be NULL */
	const char *cmdline;   /* one line, printable (deploy_cmdline()) */
};

/* Where a format's configuration lives in the TFTP root unless deploy.tftp.config says:
 * ipxe boot.ipxe, pxelinux pxelinux.cfg/default, extlinux extlinux/extlinux.conf.
 * NULL for an unknown format. */
const char *tftp_default_config(const char *format);

/* The configuration text (caller frees *out). RIG_EXIT_USAGE for an unknown format, a dtb in a
 * format that cannot load one (ipxe, pxelinux: x86), or a command line iPXE would expand. */
int tftp_render_config(const char *format, const struct tftp_boot_files *files, char **out,
		       struct rig_err *err);

#endif
