/* Boot configurations for the tftp deploy (tftp_config.h). Every file names the kernel, initrd
 * (and device tree) relative to the configuration's TFTP root and carries the whole command line. */
#include "deploy/tftp_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *tftp_default_config(const char *format)
{
	if (strcmp(format, "ipxe") == 0)
		return "boot.ipxe";
	if (strcmp(format, "pxelinux") == 0)
		return "pxelinux.cfg/default";
	if (strcmp(format, "extlinux") == 0)
		return "extlinux/extlinux.conf";
	return NULL;
}

/* iPXE script: `initrd=` names the initrd for an EFI stub kernel; a legacy bzImage ignores it. */
static int render_ipxe(const struct tftp_boot_files *f, char **out)
{
	if (f->initrd)
		return asprintf(out, "#!ipxe\nkernel %s initrd=%s %s\ninitrd %s\nboot\n", f->kernel,
				f->initrd, f->cmdline, f->initrd);
	return asprintf(out, "#!ipxe\nkernel %s %s\nboot\n", f->kernel, f->cmdline);
}

static int render_pxelinux(const struct tftp_boot_files *f, char **out)
{
	return asprintf(out, "DEFAULT rig\nPROMPT 0\nTIMEOUT 0\nLABEL rig\n  KERNEL %s\n%s%s%s"
			"  APPEND %s\n", f->kernel, f->initrd ? "  INITRD " : "",
			f->initrd ? f->initrd : "", f->initrd ? "\n" : "", f->cmdline);
}

/* U-Boot's distro boot (sysboot) and `pxe get` read this syntax. */
static int render_extlinux(const struct tftp_boot_files *f, char **out)
{
	return asprintf(out, "default rig\nprompt 0\ntimeout 0\nlabel rig\n  kernel %s\n%s%s%s%s%s%s"
			"  append %s\n", f->kernel, f->initrd ? "  initrd " : "",
			f->initrd ? f->initrd : "", f->initrd ? "\n" : "", f->dtb ? "  fdt " : "",
			f->dtb ? f->dtb : "", f->dtb ? "\n" : "", f->cmdline);
}

int tftp_render_config(const char *format, const struct tftp_boot_files *files, char **out,
		       struct rig_err *err)
{
	int n;

	*out = NULL;
	if (!tftp_default_config(format))
		return rig_err_set(err, RIG_EXIT_USAGE, "deploy.tftp.format: unknown format '%s' "
				   "(ipxe, pxelinux, extlinux)", format);
	if (files->dtb && strcmp(format, "extlinux") != 0)
		return rig_err_set(err, RIG_EXIT_USAGE, "deploy.tftp.format %s cannot load a device "
				   "tree (boot.dtb): use extlinux", format);
	/* iPXE expands ${name} in a script line: the kernel would not get what the board file says */
	if (strcmp(format, "ipxe") == 0 && strstr(files->cmdline, "${"))
		return rig_err_set(err, RIG_EXIT_USAGE, "kernel command line holds '${', which iPXE "
				   "would expand: %s", files->cmdline);
	if (strcmp(format, "ipxe") == 0)
		n = render_ipxe(files, out);
	else if (strcmp(format, "pxelinux") == 0)
		n = render_pxelinux(files, out);
	else
		n = render_extlinux(files, out);
	if (n < 0) {
		*out = NULL;
		return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
	}
	return 0;
}
