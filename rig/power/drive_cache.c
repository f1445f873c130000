#include "power/drive_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/clock.h"

/* nbdkit writes its pid file once it accepts connections; TCG boards load the machine. */
#define NBDKIT_START_TIMEOUT_MS 20000

int drive_cache_path(const char *run_dir, const char *disk_id, const char *what, char *buf,
		     size_t size, struct rig_err *err)
{
	int n = snprintf(buf, size, "%s/nbdkit-%s.%s", run_dir ? run_dir : ".", disk_id, what);

	if (n < 0 || (size_t)n >= size)
		return rig_err_set(err, RIG_EXIT_USAGE, "run directory path too long for the "
				   "nbdkit %s of disk %s", what, disk_id);
	return 0;
}

bool drive_cache_any(const struct board_qemu *qemu)
{
	for (size_t i = 0; qemu && i < qemu->n_disks; i++)
		if (qemu->disks[i].volatile_cache)
			return true;
	return false;
}

int drive_cache_argv(const struct board_disk *d, const char *run_dir, struct qemu_argv *out,
		     struct rig_err *err)
{
	char sock[4096], log[4096], pid[4096];

	memset(out, 0, sizeof(*out));
	if (!d->id || !d->file)
		return rig_err_set(err, RIG_EXIT_USAGE, "power.qemu.disks: id and file are required");
	if (drive_cache_path(run_dir, d->id, "sock", sock, sizeof(sock), err) < 0 ||
	    drive_cache_path(run_dir, d->id, "log", log, sizeof(log), err) < 0 ||
	    drive_cache_path(run_dir, d->id, "pid", pid, sizeof(pid), err) < 0)
		return -1;
	/* The first filter is the outermost: the log sees the requests as the guest sent them. */
	if (qemu_argv_add(out, err, "nbdkit") < 0 || qemu_argv_add(out, err, "--foreground") < 0 ||
	    qemu_argv_add(out, err, "--unix=%s", sock) < 0 ||
	    qemu_argv_add(out, err, "--pidfile=%s", pid) < 0 ||
	    qemu_argv_add(out, err, "--filter=log") < 0 ||
	    qemu_argv_add(out, err, "--filter=cache") < 0 || qemu_argv_add(out, err, "file") < 0 ||
	    qemu_argv_add(out, err, "file=%s", d->file) < 0 ||
	    qemu_argv_add(out, err, "cache=writeback") < 0 ||
	    qemu_argv_add(out, err, "logfile=%s", log) < 0) {
		qemu_argv_free(out);
		return -1;
	}
	return 0;
}

static int remove_file(const char *path, struct rig_err *err)
{
	if (unlink(path) < 0 && errno != ENOENT)
		return rig_err_set(err, RIG_EXIT_INFRA, "remove %s: %s", path, strerror(errno));
	return 0;
}

/* One disk's nbdkit goes: ours or one an earlier rig left (its pid file). */
static int cut_one(struct qemu_proc *proc, const struct board_disk *d, const char *run_dir,
		   struct rig_err *err)
{
	char pid[4096], sock[4096];

	if (drive_cache_path(run_dir, d->id, "pid", pid, sizeof(pid), err) < 0 ||
	    drive_cache_path(run_dir, d->id, "sock", sock, sizeof(sock), err) < 0)
		return -1;
	if (!qemu_proc_alive(proc))
		qemu_pidfile_adopt_named(pid, proc, "nbdkit");
	if (qemu_proc_kill(proc, err) < 0)
		return -1;
	memset(proc, 0, sizeof(*proc));
	return remove_file(pid, err) < 0 || remove_file(sock, err) < 0 ? -1 : 0;
}

int drive_cache_cut(struct drive_caches *dc, const struct board_qemu *qemu, const char *run_dir,
		    struct rig_err *err)
{
	int rc = 0;

	for (size_t i = 0; qemu && i < qemu->n_disks && i < DRIVE_CACHE_MAX_DISKS; i++)
		if (qemu->disks[i].volatile_cache && cut_one(&dc->proc[i], &qemu->disks[i], run_dir,
							     err) < 0)
			rc = -1;
	return rc;
}

/* The last line nbdkit wrote to stderr, to say why it did not start. */
static void first_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");

	buf[0] = '\0';
	if (!f)
		return;
	if (!fgets(buf, (int)size, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

static int wait_ready(struct qemu_proc *proc, const char *pid, const char *stderr_path,
		      struct rig_err *err)
{
	long long deadline = monotonic_ms() + NBDKIT_START_TIMEOUT_MS;
	char why[300];

	while (access(pid, F_OK) < 0) {
		if (!qemu_proc_alive(proc)) {
			first_line(stderr_path, why, sizeof(why));
			return rig_err_set(err, RIG_EXIT_INFRA, "nbdkit exited during start-up: %s "
					   "(see %s)", why[0] ? why : "no message", stderr_path);
		}
		if (monotonic_ms() >= deadline)
			return rig_err_set(err, RIG_EXIT_INFRA, "nbdkit did not write %s within %d s",
					   pid, NBDKIT_START_TIMEOUT_MS / 1000);
		clock_sleep_ms(20);
	}
	return 0;
}

static int start_one(struct qemu_proc *proc, const struct board_disk *d, const char *run_dir,
		     struct rig_err *err)
{
	char pid[4096], log[4096], errpath[4096], tmpdir[4200];
	char *env[] = { tmpdir, NULL };
	struct qemu_argv args;
	struct process_spec spec = { .err = PROCESS_IO_FILE, .err_path = errpath, .env_add = env,
				     .own_group = true };

	if (cut_one(proc, d, run_dir, err) < 0 ||
	    drive_cache_path(run_dir, d->id, "pid", pid, sizeof(pid), err) < 0 ||
	    drive_cache_path(run_dir, d->id, "log", log, sizeof(log), err) < 0 ||
	    drive_cache_path(run_dir, d->id, "stderr", errpath, sizeof(errpath), err) < 0 ||
	    remove_file(log, err) < 0)
		return -1;
	/* The cache filter keeps its blocks in a deleted file under TMPDIR: the run directory. */
	snprintf(tmpdir, sizeof(tmpdir), "TMPDIR=%s", run_dir ? run_dir : ".");
	if (drive_cache_argv(d, run_dir, &args, err) < 0)
		return -1;
	spec.argv = args.argv;
	if (process_start(&spec, &proc->process, err) < 0) {
		qemu_argv_free(&args);
		return -1;
	}
	qemu_argv_free(&args);
	proc->pid = proc->process.pid;
	proc->child = true;
	if (wait_ready(proc, pid, errpath, err) < 0) {
		struct rig_err ignored;

		qemu_proc_kill(proc, &ignored);
		return -1;
	}
	return 0;
}

int drive_cache_start(struct drive_caches *dc, const struct board_qemu *qemu, const char *run_dir,
		      struct rig_err *err)
{
	for (size_t i = 0; qemu && i < qemu->n_disks; i++) {
		if (!qemu->disks[i].volatile_cache)
			continue;
		if (i >= DRIVE_CACHE_MAX_DISKS)
			return rig_err_set(err, RIG_EXIT_USAGE, "power.qemu.disks[%zu]: at most %d "
					   "disks can have a volatile_cache", i, DRIVE_CACHE_MAX_DISKS);
		if (start_one(&dc->proc[i], &qemu->disks[i], run_dir, err) < 0) {
			struct rig_err ignored;

			drive_cache_cut(dc, qemu, run_dir, &ignored);
			return -1;
		}
	}
	return 0;
}
