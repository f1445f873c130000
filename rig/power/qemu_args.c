#include "power/qemu_args.h"

#include "power/drive_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* AHCI has six ports; more SATA disks than that need a second controller we do not model. */
#define AHCI_PORTS 6

int qemu_argv_add(struct qemu_argv *args, struct rig_err *err, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	if (args->argc + 2 > args->cap) {
		size_t cap = args->cap ? args->cap * 2 : 32;
		char **v = realloc(args->argv, cap * sizeof(*v));

		if (!v)
			return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
		args->argv = v;
		args->cap = cap;
	}
	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
	args->argv[args->argc++] = s;
	args->argv[args->argc] = NULL;
	return 0;
}

void qemu_argv_free(struct qemu_argv *args)
{
	for (size_t i = 0; i < args->argc; i++)
		free(args->argv[i]);
	free(args->argv);
	memset(args, 0, sizeof(*args));
}

/* QEMU option values separate keys with commas; a literal comma is written twice. */
static char *escape_commas(const char *value)
{
	size_t extra = 0;
	char *out, *p;

	for (const char *c = value; *c; c++)
		extra += *c == ',';
	out = malloc(strlen(value) + extra + 1);
	if (!out)
		return NULL;
	for (p = out; *value; value++) {
		*p++ = *value;
		if (*value == ',')
			*p++ = ',';
	}
	*p = '\0';
	return out;
}

/* Replace *s by its comma-escaped copy; false when out of memory (*s is then untouched). */
static int escape_in_place(char **s)
{
	char *escaped = escape_commas(*s);

	if (!escaped)
		return 0;
	free(*s);
	*s = escaped;
	return 1;
}

int qemu_qmp_path(const struct board *board, const char *run_dir, char *buf, size_t size,
		  struct rig_err *err)
{
	const struct board_qemu *qemu = board->power.qemu;
	int n;

	if (qemu && qemu->qmp)
		n = snprintf(buf, size, "%s", qemu->qmp);
	else
		n = snprintf(buf, size, "%s/qmp.sock", run_dir ? run_dir : ".");
	if (n < 0 || (size_t)n >= size)
		return rig_err_set(err, RIG_EXIT_USAGE, "QMP socket path too long");
	return 0;
}

static int add_machine(struct qemu_argv *a, const struct board_qemu *q, struct rig_err *err)
{
	const char *accel = q->accel ? q->accel : "tcg";

	if (qemu_argv_add(a, err, "%s", q->binary ? q->binary : "qemu-system-x86_64") < 0 ||
	    qemu_argv_add(a, err, "-S") < 0 || qemu_argv_add(a, err, "-machine") < 0 ||
	    qemu_argv_add(a, err, "%s", q->machine ? q->machine : "pc") < 0 ||
	    qemu_argv_add(a, err, "-accel") < 0)
		return -1;
	/* Multi-threaded TCG races the guest's live text patching (static keys) between vCPUs:
	 * `Oops: int3` in boots of the default board (boards/README.md, power.qemu.tcg_thread). */
	if (strcmp(accel, "tcg") == 0 ? qemu_argv_add(a, err, "tcg,thread=%s",
						      q->tcg_thread ? q->tcg_thread : "single") < 0
				      : qemu_argv_add(a, err, "%s", accel) < 0)
		return -1;
	if (qemu_argv_add(a, err, "-smp") < 0 || qemu_argv_add(a, err, "%u", q->cpus ? q->cpus : 1) < 0 ||
	    qemu_argv_add(a, err, "-m") < 0 ||
	    qemu_argv_add(a, err, "%u", q->memory_mb ? q->memory_mb : 512) < 0)
		return -1;
	if (q->firmware && (qemu_argv_add(a, err, "-bios") < 0 ||
			    qemu_argv_add(a, err, "%s", q->firmware) < 0))
		return -1;
	return 0;
}

/* Only the qemu deploy has QEMU load the kernel; with another (tftp) the firmware boots it. */
static int add_boot(struct qemu_argv *a, const struct board *board, struct rig_err *err)
{
	const struct board_boot *boot = &board->boot;

	if (!boot->kernel || !board->deploy.backend || strcmp(board->deploy.backend, "qemu") != 0)
		return 0;
	if (qemu_argv_add(a, err, "-kernel") < 0 || qemu_argv_add(a, err, "%s", boot->kernel) < 0)
		return -1;
	if (boot->initrd && (qemu_argv_add(a, err, "-initrd") < 0 ||
			     qemu_argv_add(a, err, "%s", boot->initrd) < 0))
		return -1;
	if (boot->cmdline && (qemu_argv_add(a, err, "-append") < 0 ||
			      qemu_argv_add(a, err, "%s", boot->cmdline) < 0))
		return -1;
	return 0;
}

/* The console is a unix socket QEMU serves; everything it carries also goes to a log file. */
static int add_console(struct qemu_argv *a, const struct board *board, const char *run_dir,
		       struct rig_err *err)
{
	const struct board_console *con = &board->console;
	char *log = NULL, *path = NULL;
	int rc;

	if (!con->transport || strcmp(con->transport, "socket") != 0 || !con->path)
		return 0;
	if (asprintf(&log, "%s/qemu-serial.log", run_dir ? run_dir : ".") < 0) {
		log = NULL;
		rc = rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
	} else if (!(path = escape_commas(con->path)) || !escape_in_place(&log)) {
		rc = rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
	} else if ((rc = qemu_argv_add(a, err, "-serial")) == 0 &&
		   (rc = qemu_argv_add(a, err, "chardev:con0")) == 0 &&
		   (rc = qemu_argv_add(a, err, "-chardev")) == 0) {
		rc = qemu_argv_add(a, err, "socket,id=con0,path=%s,server=on,wait=off,logfile=%s", path, log);
	}
	free(path);
	free(log);
	return rc;
}

/* The -drive of a disk: its image file, or the nbdkit serving it with a volatile cache. */
static int add_drive(struct qemu_argv *a, const struct board_disk *d, const char *run_dir,
		     struct rig_err *err)
{
	char sock[4096];
	char *path;
	int rc;

	if (d->volatile_cache &&
	    drive_cache_path(run_dir, d->id, "sock", sock, sizeof(sock), err) < 0)
		return -1;
	path = escape_commas(d->volatile_cache ? sock : d->file);
	if (!path)
		return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
	rc = qemu_argv_add(a, err, "-drive");
	if (rc == 0 && d->volatile_cache)
		rc = qemu_argv_add(a, err, "driver=raw,file.driver=nbd,file.server.type=unix,"
			 "file.server.path=%s,if=none,id=%s,cache=writeback", path, d->id);
	else if (rc == 0)
		rc = qemu_argv_add(a, err, "file=%s,if=none,id=%s,format=raw,cache=writeback", path, d->id);
	free(path);
	return rc;
}

static int add_disk(struct qemu_argv *a, const struct board_disk *d, const char *run_dir,
		    unsigned *sata_port, struct rig_err *err)
{
	if (!d->id || !d->file || !d->interface)
		return rig_err_set(err, RIG_EXIT_USAGE, "power.qemu.disks: id, interface and file "
				   "are required");
	if (strcmp(d->interface, "nvme") != 0 && strcmp(d->interface, "sata") != 0)
		return rig_err_set(err, RIG_EXIT_USAGE, "power.qemu.disks[%s]: unknown interface "
				   "'%s' (nvme, sata)", d->id, d->interface);
	if (add_drive(a, d, run_dir, err) < 0 || qemu_argv_add(a, err, "-device") < 0)
		return -1;
	if (strcmp(d->interface, "nvme") == 0)
		return qemu_argv_add(a, err, "nvme,drive=%s,serial=%s", d->id, d->id);
	if (*sata_port >= AHCI_PORTS)
		return rig_err_set(err, RIG_EXIT_USAGE, "power.qemu.disks: more than %d sata disks",
				   AHCI_PORTS);
	return qemu_argv_add(a, err, "ide-hd,drive=%s,bus=ahci0.%u", d->id, (*sata_port)++);
}

static int add_disks(struct qemu_argv *a, const struct board_qemu *q, const char *run_dir,
		     struct rig_err *err)
{
	unsigned sata_port = 0;

	for (size_t i = 0; i < q->n_disks; i++) {
		if (q->disks[i].interface && strcmp(q->disks[i].interface, "sata") == 0 &&
		    sata_port == 0 && (qemu_argv_add(a, err, "-device") < 0 ||
				       qemu_argv_add(a, err, "ahci,id=ahci0") < 0))
			return -1;
		if (add_disk(a, &q->disks[i], run_dir, &sata_port, err) < 0)
			return -1;
	}
	return 0;
}

static int add_qmp(struct qemu_argv *a, const char *path, struct rig_err *err)
{
	char *escaped = escape_commas(path);
	int rc;

	if (!escaped)
		return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
	rc = qemu_argv_add(a, err, "unix:%s,server=on,wait=off", escaped);
	free(escaped);
	return rc;
}

int qemu_build_argv(const struct board *board, const char *run_dir, struct qemu_argv *out,
		    struct rig_err *err)
{
	const struct board_qemu *q = board->power.qemu;
	char qmp[4096];

	memset(out, 0, sizeof(*out));
	if (!q)
		return rig_err_set(err, RIG_EXIT_USAGE, "board %s: power.qemu is missing",
				   board->name ? board->name : "?");
	if (qemu_qmp_path(board, run_dir, qmp, sizeof(qmp), err) < 0)
		goto fail;
	if (add_machine(out, q, err) < 0 || add_boot(out, board, err) < 0 ||
	    qemu_argv_add(out, err, "-display") < 0 || qemu_argv_add(out, err, "none") < 0 ||
	    qemu_argv_add(out, err, "-nodefaults") < 0 || add_console(out, board, run_dir, err) < 0 ||
	    qemu_argv_add(out, err, "-qmp") < 0 ||
	    add_qmp(out, qmp, err) < 0 ||
	    add_disks(out, q, run_dir, err) < 0)
		goto fail;
	for (size_t i = 0; i < q->n_extra_args; i++)
		if (qemu_argv_add(out, err, "%s", q->extra_args[i]) < 0)
			goto fail;
	return 0;
fail:
	qemu_argv_free(out);
	return -1;
}

static int make_parent_dirs(const char *file, struct rig_err *err)
{
	char *path = strdup(file);

	if (!path)
		return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST) {
			rig_err_set(err, RIG_EXIT_INFRA, "mkdir %s: %s", path, strerror(errno));
			free(path);
			return -1;
		}
		*p = '/';
	}
	free(path);
	return 0;
}

static int create_sparse(const struct board_disk *d, struct rig_err *err)
{
	int fd;

	if (make_parent_dirs(d->file, err) < 0)
		return -1;
	fd = open(d->file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0 && errno == EEXIST)
		return 0;
	if (fd < 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "create disk %s: %s", d->file,
				   strerror(errno));
	if (ftruncate(fd, (off_t)d->size_mb * 1024 * 1024) < 0) {
		rig_err_set(err, RIG_EXIT_INFRA, "size disk %s: %s", d->file, strerror(errno));
		close(fd);
		unlink(d->file);
		return -1;
	}
	if (close(fd) < 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "close disk %s: %s", d->file,
				   strerror(errno));
	return 0;
}

/* Copy src to dst through dst.tmp, holes kept as holes (the disk images are mostly empty). */
static int copy_sparse(const char *src, const char *dst, struct rig_err *err)
{
	static char buf[1 << 16];
	char tmp[4096];
	int in, out = -1, rc = -1;
	off_t size = 0;
	ssize_t n;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", dst) >= (int)sizeof(tmp))
		return rig_err_set(err, RIG_EXIT_USAGE, "disk path too long: %s", dst);
	if ((in = open(src, O_RDONLY | O_CLOEXEC)) < 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "disk seed %s: %s (make image-debian?)", src,
				   strerror(errno));
	if (make_parent_dirs(dst, err) < 0)
		goto out;
	if ((out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) < 0) {
		rig_err_set(err, RIG_EXIT_INFRA, "create disk %s: %s", tmp, strerror(errno));
		goto out;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		bool zero = true;

		for (ssize_t i = 0; i < n && zero; i++)
			zero = buf[i] == 0;
		if (zero ? lseek(out, n, SEEK_CUR) < 0 : write(out, buf, (size_t)n) != n) {
			rig_err_set(err, RIG_EXIT_INFRA, "write disk %s: %s", tmp, strerror(errno));
			goto out;
		}
		size += n;
	}
	if (n < 0 || ftruncate(out, size) < 0) {
		rig_err_set(err, RIG_EXIT_INFRA, "copy %s to %s: %s", src, tmp, strerror(errno));
		goto out;
	}
	n = close(out);
	out = -1;
	if (n < 0) {
		rig_err_set(err, RIG_EXIT_INFRA, "close %s: %s", tmp, strerror(errno));
		goto out;
	}
	if (rename(tmp, dst) < 0) {
		rig_err_set(err, RIG_EXIT_INFRA, "rename %s: %s", tmp, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	if (out >= 0)
		close(out);
	if (rc < 0)
		unlink(tmp);
	close(in);
	return rc;
}

/* A seeded disk is (re)made from its seed when missing or older than the seed: a rebuilt image
 * replaces the board's disk, whose contents are scratch. */
static bool seed_is_newer(const struct board_disk *d)
{
	struct stat seed, disk;

	if (stat(d->file, &disk) < 0)
		return true;
	return stat(d->seed, &seed) == 0 &&
	       (seed.st_mtim.tv_sec > disk.st_mtim.tv_sec ||
		(seed.st_mtim.tv_sec == disk.st_mtim.tv_sec && seed.st_mtim.tv_nsec > disk.st_mtim.tv_nsec));
}

int qemu_create_disks(const struct board_qemu *qemu, struct rig_err *err)
{
	for (size_t i = 0; i < qemu->n_disks; i++) {
		const struct board_disk *d = &qemu->disks[i];

		if (!d->file)
			return rig_err_set(err, RIG_EXIT_USAGE, "power.qemu.disks[%zu]: no file", i);
		if (d->seed) {
			if (seed_is_newer(d) && copy_sparse(d->seed, d->file, err) < 0)
				return -1;
			continue;
		}
		if (access(d->file, F_OK) == 0)
			continue;
		if (d->size_mb == 0)
			return rig_err_set(err, RIG_EXIT_USAGE, "disk %s is missing and has no "
					   "size_mb to create it", d->file);
		if (create_sparse(d, err) < 0)
			return -1;
	}
	return 0;
}
