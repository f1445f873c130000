/* The QEMU backend: the board is a QEMU process driven over QMP.
 *
 * "on" starts QEMU with its CPUs stopped (see power.h for the resume contract); "off" is QMP
 * quit, a power cut with no guest shutdown, and SIGKILL when QMP does not answer.  A board with
 * volatile_cache disks (power/drive_cache.h) has them served by nbdkit, started before QEMU;
 * its "off" SIGKILLs those nbdkits and then QEMU (a QMP quit would have QEMU flush its drives
 * as it closes them: the cut must drop what the kernel did not flush).  A QEMU
 * started by an earlier rig (e.g. `rig power on`) is found again through <run>/qemu.pid.
 * QEMU serves one QMP client at a time, so two rigs on the same board wait on each other. */
#include "power/backend.h"
#include "power/blockstats.h"

#include "util/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "power/drive_cache.h"
#include "power/qemu_args.h"
#include "power/qemu_proc.h"
#include "power/qmp.h"

/* TCG on a loaded machine can take a while to create its sockets and answer. */
#define QEMU_START_TIMEOUT_MS 30000
#define QMP_CONNECT_TIMEOUT_MS 5000
#define QMP_COMMAND_TIMEOUT_MS 10000
#define QEMU_QUIT_TIMEOUT_MS 5000

struct qemu_power {
	struct qemu_proc proc;
	struct qmp *qmp;
	struct drive_caches caches;  /* the nbdkits of volatile_cache disks */
	char run_dir[PATH_MAX];
	char qmp_path[PATH_MAX];
	char pidfile[PATH_MAX + 16];
	char stderr_path[PATH_MAX + 16];
};

static struct qemu_power *priv(struct power *power)
{
	return power->priv;
}

/* Default run directory: where the QMP socket lives. */
static int pick_run_dir(struct power *power, struct qemu_power *qp, struct rig_err *err)
{
	char copy[PATH_MAX];
	int n;

	if (power->run_dir)
		n = snprintf(qp->run_dir, sizeof(qp->run_dir), "%s", power->run_dir);
	else if (power->board->power.qemu->qmp) {
		snprintf(copy, sizeof(copy), "%s", power->board->power.qemu->qmp);
		n = snprintf(qp->run_dir, sizeof(qp->run_dir), "%s", dirname(copy));
	} else
		n = snprintf(qp->run_dir, sizeof(qp->run_dir), ".");
	if (n < 0 || (size_t)n >= sizeof(qp->run_dir))
		return rig_err_set(err, RIG_EXIT_USAGE, "run directory path too long");
	snprintf(qp->pidfile, sizeof(qp->pidfile), "%s/qemu.pid", qp->run_dir);
	snprintf(qp->stderr_path, sizeof(qp->stderr_path), "%s/qemu.stderr", qp->run_dir);
	return 0;
}

static int qemu_open(struct power *power, struct rig_err *err)
{
	struct qemu_power *qp;

	if (!power->board->power.qemu)
		return rig_err_set(err, RIG_EXIT_USAGE, "board %s: power.backend is qemu but "
				   "power.qemu is missing", power->board->name ? power->board->name : "?");
	qp = calloc(1, sizeof(*qp));
	if (!qp)
		return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
	if (pick_run_dir(power, qp, err) < 0 ||
	    qemu_qmp_path(power->board, qp->run_dir, qp->qmp_path, sizeof(qp->qmp_path), err) < 0) {
		free(qp);
		return -1;
	}
	qemu_pidfile_adopt(qp->pidfile, &qp->proc);
	power->priv = qp;
	return 0;
}

static void qemu_close(struct power *power)
{
	struct qemu_power *qp = priv(power);

	qmp_close(qp->qmp);
	free(qp);
}

/* The last line QEMU wrote to stderr, to explain why it died. */
static void stderr_tail(const struct qemu_power *qp, char *buf, size_t size)
{
	int fd = open(qp->stderr_path, O_RDONLY | O_CLOEXEC);
	off_t end;
	ssize_t n;

	buf[0] = '\0';
	if (fd < 0)
		return;
	end = lseek(fd, 0, SEEK_END);
	if (end > (off_t)size - 1)
		lseek(fd, end - (off_t)size + 1, SEEK_SET);
	else
		lseek(fd, 0, SEEK_SET);
	n = read(fd, buf, size - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	for (char *p = buf; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
}

static int qemu_died(const struct qemu_power *qp, struct rig_err *err)
{
	char tail[400];

	stderr_tail(qp, tail, sizeof(tail));
	return rig_err_set(err, RIG_EXIT_INFRA, "QEMU exited during start-up: %s (see %s)",
			   tail[0] ? tail : "no message", qp->stderr_path);
}

/* Connect QMP, giving QEMU time to create the socket and noticing when it dies instead. */
static int connect_started(struct qemu_power *qp, struct rig_err *err)
{
	long long deadline = monotonic_ms() + QEMU_START_TIMEOUT_MS;
	struct stat st;

	while (stat(qp->qmp_path, &st) < 0 || !S_ISSOCK(st.st_mode)) {
		if (!qemu_proc_alive(&qp->proc))
			return qemu_died(qp, err);
		if (monotonic_ms() >= deadline)
			return rig_err_set(err, RIG_EXIT_INFRA, "QEMU did not create %s within %d s",
					   qp->qmp_path, QEMU_START_TIMEOUT_MS / 1000);
		clock_sleep_ms(20);
	}
	if (qmp_connect(qp->qmp_path, (unsigned)(deadline - monotonic_ms()), &qp->qmp, err) < 0)
		return qemu_proc_alive(&qp->proc) ? -1 : qemu_died(qp, err);
	return 0;
}

static int ensure_qmp(struct qemu_power *qp, struct rig_err *err)
{
	if (qp->qmp)
		return 0;
	if (!qemu_proc_alive(&qp->proc))
		return rig_err_set(err, RIG_EXIT_INFRA, "QEMU is not running");
	return qmp_connect(qp->qmp_path, QMP_CONNECT_TIMEOUT_MS, &qp->qmp, err);
}

/* One QMP command; a connection that failed because QEMU went away is dropped. */
static int command(struct qemu_power *qp, const char *name, json_t *args, json_t **ret,
		   struct rig_err *err)
{
	if (ensure_qmp(qp, err) < 0)
		return -1;
	if (qmp_execute(qp->qmp, name, args, QMP_COMMAND_TIMEOUT_MS, ret, err) == 0)
		return 0;
	if (!qemu_proc_alive(&qp->proc)) {
		qmp_close(qp->qmp);
		qp->qmp = NULL;
	}
	return -1;
}

static int simple_command(struct power *power, const char *name, struct rig_err *err)
{
	return command(priv(power), name, NULL, NULL, err);
}

static int prepare_run(struct power *power, struct qemu_power *qp, struct rig_err *err)
{
	if (mkdir(qp->run_dir, 0755) < 0 && errno != EEXIST)
		return rig_err_set(err, RIG_EXIT_INFRA, "mkdir %s: %s", qp->run_dir,
				   strerror(errno));
	if (qemu_create_disks(power->board->power.qemu, err) < 0)
		return -1;
	/* A stale socket from a previous QEMU would look ready before the new one is. */
	if (unlink(qp->qmp_path) < 0 && errno != ENOENT)
		return rig_err_set(err, RIG_EXIT_INFRA, "remove stale %s: %s", qp->qmp_path,
				   strerror(errno));
	return 0;
}

static int qemu_on(struct power *power, struct rig_err *err)
{
	struct qemu_power *qp = priv(power);
	struct qemu_argv args;

	if (qemu_proc_alive(&qp->proc))
		return 0;
	qmp_close(qp->qmp);
	qp->qmp = NULL;
	if (prepare_run(power, qp, err) < 0 ||
	    drive_cache_start(&qp->caches, power->board->power.qemu, qp->run_dir, err) < 0)
		return -1;
	if (qemu_build_argv(power->board, qp->run_dir, &args, err) < 0 ||
	    qemu_proc_spawn(&qp->proc, args.argv, qp->stderr_path, err) < 0) {
		struct rig_err ignored;

		drive_cache_cut(&qp->caches, power->board->power.qemu, qp->run_dir, &ignored);
		qemu_argv_free(&args);
		return -1;
	}
	qemu_argv_free(&args);
	if (qemu_pidfile_write(qp->pidfile, qp->proc.pid, err) < 0 ||
	    connect_started(qp, err) < 0) {
		struct rig_err ignored;

		qemu_proc_kill(&qp->proc, &ignored);
		drive_cache_cut(&qp->caches, power->board->power.qemu, qp->run_dir, &ignored);
		unlink(qp->pidfile);
		return -1;
	}
	return 0;
}

static int qemu_resume_cpus(struct power *power, struct rig_err *err)
{
	return simple_command(power, "cont", err);
}

static int qemu_off(struct power *power, struct rig_err *err)
{
	struct qemu_power *qp = priv(power);
	const struct board_qemu *q = power->board->power.qemu;
	struct rig_err ignored;

	if (drive_cache_any(q)) {
		/* The drives first: QEMU, killed after them, has nothing left to flush to. */
		if (drive_cache_cut(&qp->caches, q, qp->run_dir, err) < 0 ||
		    qemu_proc_kill(&qp->proc, err) < 0)
			return -1;
	} else if (qemu_proc_alive(&qp->proc)) {
		/* QEMU may close the socket before it replies: the exit is what counts. */
		command(qp, "quit", NULL, NULL, &ignored);
		if (!qemu_proc_wait_exit(&qp->proc, QEMU_QUIT_TIMEOUT_MS) &&
		    qemu_proc_kill(&qp->proc, err) < 0)
			return -1;
	}
	qmp_close(qp->qmp);
	qp->qmp = NULL;
	if (unlink(qp->pidfile) < 0 && errno != ENOENT)
		return rig_err_set(err, RIG_EXIT_INFRA, "remove %s: %s", qp->pidfile,
				   strerror(errno));
	return 0;
}

static int qemu_cycle(struct power *power, struct rig_err *err)
{
	if (qemu_off(power, err) < 0)
		return -1;
	return qemu_on(power, err);
}

static int qemu_press(struct power *power, unsigned ms, struct rig_err *err)
{
	(void)ms;  /* an ACPI button event has no duration */
	return simple_command(power, "system_powerdown", err);
}

static int qemu_reset(struct power *power, struct rig_err *err)
{
	return simple_command(power, "system_reset", err);
}

static enum power_state map_run_state(const char *status, int running)
{
	if (running)
		return POWER_RUNNING;
	if (strcmp(status, "suspended") == 0)
		return POWER_SUSPENDED;
	if (strcmp(status, "shutdown") == 0)
		return POWER_OFF;
	return POWER_PAUSED;  /* paused, prelaunch, guest-panicked, internal-error, ... */
}

static int qemu_status(struct power *power, enum power_state *state, struct rig_err *err)
{
	struct qemu_power *qp = priv(power);
	struct rig_err lost;
	const char *status;
	json_t *ret;
	int running;

	if (!qemu_proc_alive(&qp->proc)) {
		*state = POWER_OFF;
		return 0;
	}
	/* A live QEMU whose QMP does not answer is powered, state unknown. */
	if (command(qp, "query-status", NULL, &ret, &lost) < 0) {
		*state = qemu_proc_alive(&qp->proc) ? POWER_UNKNOWN : POWER_OFF;
		return 0;
	}
	if (json_unpack(ret, "{s:s, s:b}", "status", &status, "running", &running) < 0) {
		json_decref(ret);
		return rig_err_set(err, RIG_EXIT_INFRA, "QMP query-status: unexpected reply");
	}
	*state = map_run_state(status, running);
	json_decref(ret);
	return 0;
}

/* QEMU ignores system_wakeup until the guest is really suspended, and a guest on its way to
 * sleep (its console already says "entering S3") still runs for a moment on TCG: wait for the
 * suspended state while the guest runs, up to WAKEUP_WAIT_MS, then send it. */
#define WAKEUP_WAIT_MS 10000

static int qemu_wakeup(struct power *power, struct rig_err *err)
{
	enum power_state state = POWER_RUNNING;

	for (long long start = monotonic_ms(); monotonic_ms() - start < WAKEUP_WAIT_MS;) {
		if (qemu_status(power, &state, err) < 0)
			return -1;
		if (state != POWER_RUNNING)
			break;
		clock_sleep_ms(100);
	}
	return simple_command(power, "system_wakeup", err);
}

static int qemu_inject_hang(struct power *power, struct rig_err *err)
{
	return simple_command(power, "stop", err);
}

static int qemu_sysrq(struct power *power, char key, struct rig_err *err)
{
	char qcode[2] = { key, '\0' };
	json_t *args;
	int rc;

	if (!((key >= 'a' && key <= 'z') || (key >= '0' && key <= '9')))
		return rig_err_set(err, RIG_EXIT_USAGE, "SysRq key '%c': use a-z or 0-9", key);
	args = json_pack("{s:[{s:s, s:s}, {s:s, s:s}, {s:s, s:s}]}", "keys",
			 "type", "qcode", "data", "alt", "type", "qcode", "data", "sysrq",
			 "type", "qcode", "data", qcode);
	if (!args)
		return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
	rc = command(priv(power), "send-key", args, NULL, err);
	json_decref(args);
	return rc;
}

static int qemu_wait_event(struct power *power, const char *event, double since,
			   unsigned timeout_ms, struct rig_err *err)
{
	struct qemu_power *qp = priv(power);

	if (ensure_qmp(qp, err) < 0)
		return -1;
	return qmp_wait_event(qp->qmp, event, since, timeout_ms, err);
}

static int qemu_disk_ops(struct power *power, unsigned long long *ops, struct rig_err *err)
{
	json_t *ret = NULL;
	int rc;

	if (command(priv(power), "query-blockstats", NULL, &ret, err) < 0)
		return -1;
	rc = blockstats_ops(ret, ops);
	json_decref(ret);
	if (rc < 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "QMP query-blockstats: unexpected reply");
	return 0;
}

/* The QEMU process, for the host's CPU accounting of the board (its threads' schedstat). */
static long qemu_host_pid(struct power *power)
{
	struct qemu_power *qp = priv(power);

	return qemu_proc_alive(&qp->proc) ? (long)qp->proc.pid : 0;
}

const struct power_ops power_qemu_ops = {
	.name = "qemu",
	.open = qemu_open,
	.on = qemu_on,
	.resume_cpus = qemu_resume_cpus,
	.off = qemu_off,
	.cycle = qemu_cycle,
	.press = qemu_press,
	.reset = qemu_reset,
	.status = qemu_status,
	.wakeup = qemu_wakeup,
	.inject_hang = qemu_inject_hang,
	.sysrq = qemu_sysrq,
	.wait_event = qemu_wait_event,
	.disk_ops = qemu_disk_ops,
	.host_pid = qemu_host_pid,
	.close = qemu_close,
};
