/* The tftp deploy: before every boot, the kernel, initrd and device tree are copied into the
 * board's TFTP root under names new for this boot (rig-<pid>-<boot>-kernel ...), each written to
 * a temporary name, synced and renamed; then the boot configuration naming them (tftp_config.h)
 * replaces the old one the same way, so a board that fetches at any moment gets either the old
 * boot or the new one, whole. The files of earlier boots are removed afterwards. The lab points
 * its TFTP server (tftpd-hpa, dnsmasq) at the root and its boards' PXE/iPXE/U-Boot at the
 * configuration; files named rig-* in the root are the rig's. */
#include "deploy/deploy.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "deploy/tftp_config.h"

#define NAME_MAX_LEN 96

struct tftp_job {
	const char *root;
	char prefix[48];           /* rig-<pid>-<boot>- */
};

static int fsync_dir(const char *dir, struct rig_err *err)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "deploy tftp: open %s: %s", dir,
				   strerror(errno));
	rc = fsync(fd);
	close(fd);
	if (rc < 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "deploy tftp: fsync %s: %s", dir,
				   strerror(errno));
	return 0;
}

/* Write n bytes of data (or, with src set, the contents of src) to path through path.rig-tmp:
 * written, synced, renamed, the directory synced. */
static int write_atomic(const char *path, const char *src, const char *data, size_t n,
			struct rig_err *err)
{
	char tmp[4200], dir[4200], buf[1 << 16];
	int in = -1, out, rc = -1;
	ssize_t got;

	if (snprintf(tmp, sizeof(tmp), "%s.rig-tmp", path) >= (int)sizeof(tmp))
		return rig_err_set(err, RIG_EXIT_USAGE, "deploy tftp: path too long: %s", path);
	if (src && (in = open(src, O_RDONLY | O_CLOEXEC)) < 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "deploy tftp: %s: %s", src, strerror(errno));
	if ((out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) < 0) {
		rig_err_set(err, RIG_EXIT_INFRA, "deploy tftp: create %s: %s", tmp, strerror(errno));
		goto out;
	}
	if (src) {
		while ((got = read(in, buf, sizeof(buf))) > 0)
			if (write(out, buf, (size_t)got) != got)
				break;
		if (got != 0) {
			rig_err_set(err, RIG_EXIT_INFRA, "deploy tftp: copy %s to %s: %s", src, tmp,
				    strerror(errno));
			goto out;
		}
	} else if (write(out, data, n) != (ssize_t)n) {
		rig_err_set(err, RIG_EXIT_INFRA, "deploy tftp: write %s: %s", tmp, strerror(errno));
		goto out;
	}
	if (fsync(out) < 0 || close(out) < 0) {
		out = -1;
		rig_err_set(err, RIG_EXIT_INFRA, "deploy tftp: sync %s: %s", tmp, strerror(errno));
		goto out;
	}
	out = -1;
	if (rename(tmp, path) < 0) {
		rig_err_set(err, RIG_EXIT_INFRA, "deploy tftp: rename %s: %s", tmp, strerror(errno));
		goto out;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	rc = fsync_dir(dir, err);
out:
	if (out >= 0)
		close(out);
	if (in >= 0)
		close(in);
	if (rc < 0)
		unlink(tmp);
	return rc;
}

/* The directories of root/rel's parents inside root (pxelinux.cfg/, extlinux/). */
static int make_dirs(const char *root, const char *rel, struct rig_err *err)
{
	char path[4200];
	size_t base = strlen(root) + 1;

	if (snprintf(path, sizeof(path), "%s/%s", root, rel) >= (int)sizeof(path))
		return rig_err_set(err, RIG_EXIT_USAGE, "deploy tftp: path too long: %s", rel);
	for (char *p = path + base; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			return rig_err_set(err, RIG_EXIT_INFRA, "deploy tftp: mkdir %s: %s", path,
					   strerror(errno));
		*p = '/';
	}
	return 0;
}

/* Copy src to root/name. */
static int put_file(const struct tftp_job *j, const char *name, const char *src,
		    struct rig_err *err)
{
	char path[4200];

	if (snprintf(path, sizeof(path), "%s/%s", j->root, name) >= (int)sizeof(path))
		return rig_err_set(err, RIG_EXIT_USAGE, "deploy tftp: path too long: %s", j->root);
	return write_atomic(path, src, NULL, 0, err);
}

/* rig-<digits>-<digits>-{kernel,initrd,dtb}: the rig's own files. */
static int is_ours(const char *name)
{
	unsigned long pid, boot;
	char what[16];

	return sscanf(name, "rig-%lu-%lu-%15s", &pid, &boot, what) == 3 &&
	       (strcmp(what, "kernel") == 0 || strcmp(what, "initrd") == 0 ||
		strcmp(what, "dtb") == 0);
}

/* Remove the files of earlier boots (the configuration no longer names them). */
static void remove_old(const struct tftp_job *j)
{
	DIR *dir = opendir(j->root);
	struct dirent *e;
	char path[4200];

	if (!dir)
		return;
	while ((e = readdir(dir)))
		if (is_ours(e->d_name) && strncmp(e->d_name, j->prefix, strlen(j->prefix)) != 0 &&
		    snprintf(path, sizeof(path), "%s/%s", j->root, e->d_name) < (int)sizeof(path))
			(void)unlink(path);
	closedir(dir);
}

static int tftp_prepare(struct deploy *d, const struct deploy_request *req, struct rig_err *err)
{
	const struct board_deploy_tftp *t = d->board->deploy.tftp;
	const char *config = t->config ? t->config : tftp_default_config(t->format);
	struct tftp_job j = { .root = t->root };
	char kernel[NAME_MAX_LEN], initrd[NAME_MAX_LEN], dtb[NAME_MAX_LEN], path[4200];
	struct tftp_boot_files files = { .kernel = kernel, .cmdline = req->cmdline };
	struct stat st;
	char *text;
	int rc;

	if (!config || config[0] == '/' || strstr(config, ".."))
		return rig_err_set(err, RIG_EXIT_USAGE, "board %s: deploy.tftp.config must be a "
				   "path inside the root", d->board->name);
	/* a root in the run directory ({run}/tftp: the QEMU net-boot board) is made here; a lab's
	 * root whose parent is missing is a wrong path, not something to create */
	if (mkdir(t->root, 0755) < 0 && errno != EEXIST)
		return rig_err_set(err, RIG_EXIT_INFRA, "deploy tftp: root %s: %s", t->root,
				   strerror(errno));
	if (stat(t->root, &st) < 0 || !S_ISDIR(st.st_mode))
		return rig_err_set(err, RIG_EXIT_INFRA, "deploy tftp: root %s is not a directory",
				   t->root);
	if (!req->kernel)
		return rig_err_set(err, RIG_EXIT_USAGE, "board %s: deploy tftp needs boot.kernel",
				   d->board->name);
	snprintf(j.prefix, sizeof(j.prefix), "rig-%ld-%u-", (long)getpid(), d->generation + 1);
	snprintf(kernel, sizeof(kernel), "%skernel", j.prefix);
	snprintf(initrd, sizeof(initrd), "%sinitrd", j.prefix);
	snprintf(dtb, sizeof(dtb), "%sdtb", j.prefix);
	if (req->initrd)
		files.initrd = initrd;
	if (req->dtb)
		files.dtb = dtb;
	/* the configuration is checked before anything is copied */
	if (tftp_render_config(t->format, &files, &text, err) < 0)
		return -1;
	rc = put_file(&j, kernel, req->kernel, err);
	if (rc == 0 && req->initrd)
		rc = put_file(&j, initrd, req->initrd, err);
	if (rc == 0 && req->dtb)
		rc = put_file(&j, dtb, req->dtb, err);
	if (rc == 0 && (rc = make_dirs(t->root, config, err)) == 0) {
		snprintf(path, sizeof(path), "%s/%s", t->root, config);
		rc = write_atomic(path, NULL, text, strlen(text), err);
	}
	free(text);
	if (rc == 0)
		remove_old(&j);
	return rc;
}

const struct deploy_ops deploy_tftp_ops = {
	.name = "tftp", .sets_kernel = true, .sets_cmdline = true, .prepare = tftp_prepare,
};
