/* The QEMU backend against a real qemu-system-x86_64 (TCG, no kernel: it sits in the BIOS or
 * stays paused), plus the command line it is given. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/power.h"
#include "power/power.h"
#include "power/qemu_args.h"
#include "util/clock.h"

struct fixture {
	char dir[64];
	char qmp[128];
	char console[128];
	char nvme[128];
	char sata[128];
	struct board_disk disks[2];
	struct board_qemu qemu;
	struct board board;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	strcpy(f->dir, "/tmp/rig-power-qemu-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->qmp, sizeof(f->qmp), "%s/qmp.sock", f->dir);
	snprintf(f->console, sizeof(f->console), "%s/console.sock", f->dir);
	snprintf(f->nvme, sizeof(f->nvme), "%s/disks/nvme.img", f->dir);
	snprintf(f->sata, sizeof(f->sata), "%s/disks/sata.img", f->dir);
	f->disks[0] = (struct board_disk){ .id = "nvme0", .interface = "nvme", .file = f->nvme,
					   .size_mb = 4 };
	f->disks[1] = (struct board_disk){ .id = "sata0", .interface = "sata", .file = f->sata,
					   .size_mb = 2 };
	f->qemu = (struct board_qemu){ .binary = "qemu-system-x86_64", .machine = "pc",
				       .accel = "tcg", .cpus = 1, .memory_mb = 64, .qmp = f->qmp,
				       .disks = f->disks, .n_disks = 2 };
	f->board = (struct board){ .name = "qemu-test", .power = { .backend = "qemu",
								   .qemu = &f->qemu },
				   .deploy = { .backend = "qemu" },
				   .console = { .transport = "socket", .path = f->console } };
	*state = f;
	return 0;
}

/* A failed test may leave its QEMU running: never leak one. */
static void kill_leftover_qemu(const struct fixture *f)
{
	char path[128];
	FILE *fp;
	int pid;

	snprintf(path, sizeof(path), "%s/qemu.pid", f->dir);
	fp = fopen(path, "r");
	if (!fp)
		return;
	if (fscanf(fp, "%d", &pid) == 1 && pid > 0 && kill(pid, SIGKILL) == 0)
		waitpid(pid, NULL, 0);
	fclose(fp);
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[128];

	kill_leftover_qemu(f);

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	assert_int_equal(system(cmd), 0);
	free(f);
	return 0;
}

static pid_t read_pidfile(const struct fixture *f)
{
	char path[128];
	FILE *fp;
	int pid = 0;

	snprintf(path, sizeof(path), "%s/qemu.pid", f->dir);
	fp = fopen(path, "r");
	assert_non_null(fp);
	assert_int_equal(fscanf(fp, "%d", &pid), 1);
	fclose(fp);
	return pid;
}

static enum power_state status_of(struct power *power)
{
	struct rig_err err = { 0 };
	enum power_state state;

	assert_int_equal(power_status(power, &state, &err), 0);
	return state;
}

static off_t file_size(const char *path)
{
	struct stat st;

	assert_int_equal(stat(path, &st), 0);
	return st.st_size;
}

static void test_lifecycle(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };
	struct power *power;
	double t0 = wall_clock_seconds();
	pid_t pid;

	assert_int_equal(power_open(&f->board, f->dir, &power, &err), 0);
	assert_string_equal(power_backend_name(power), "qemu");
	assert_int_equal(status_of(power), POWER_OFF);
	if (power_on(power, &err) < 0)
		fail_msg("power_on: %s", err.msg);
	pid = read_pidfile(f);
	assert_true(pid > 0);
	assert_int_equal(file_size(f->nvme), 4 << 20);
	assert_int_equal(file_size(f->sata), 2 << 20);
	assert_int_equal(access(f->console, F_OK), 0);
	/* Started with -S: nothing runs until the caller resumes the CPUs. */
	assert_int_equal(status_of(power), POWER_PAUSED);
	assert_int_equal(power_resume_cpus(power, &err), 0);
	assert_int_equal(status_of(power), POWER_RUNNING);
	assert_int_equal(power_wait_event(power, "RESUME", t0, 5000, &err), 1);
	assert_int_equal(power_inject_hang(power, &err), 0);
	assert_int_equal(status_of(power), POWER_PAUSED);
	assert_int_equal(power_wait_event(power, "STOP", t0, 5000, &err), 1);
	assert_int_equal(power_reset(power, &err), 0);
	assert_int_equal(power_wait_event(power, "RESET", t0, 5000, &err), 1);
	assert_int_equal(power_sysrq(power, 's', &err), 0);
	assert_int_equal(power_sysrq(power, '!', &err), -1);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	/* A second "on" while it runs changes nothing. */
	assert_int_equal(power_on(power, &err), 0);
	assert_int_equal(read_pidfile(f), pid);
	assert_int_equal(power_off(power, &err), 0);
	assert_int_equal(status_of(power), POWER_OFF);
	/* Reaped: no zombie left behind, no such process any more. */
	assert_int_equal(waitpid(pid, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
	assert_int_equal(kill(pid, 0), -1);
	assert_int_equal(power_off(power, &err), 0);
	power_close(power);
}

/* A rig that did not start QEMU finds it through the pidfile and can still switch it off. */
static void test_adopt_running_qemu(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };
	struct power *first, *second;
	pid_t pid;

	f->qemu.n_disks = 0;
	assert_int_equal(power_open(&f->board, NULL, &first, &err), 0);
	if (power_on(first, &err) < 0)
		fail_msg("power_on: %s", err.msg);
	pid = read_pidfile(f);
	power_close(first);  /* QEMU keeps running: closing is not powering off */
	assert_int_equal(kill(pid, 0), 0);

	assert_int_equal(power_open(&f->board, NULL, &second, &err), 0);
	assert_int_equal(status_of(second), POWER_PAUSED);
	assert_int_equal(power_off(second, &err), 0);
	assert_int_equal(status_of(second), POWER_OFF);
	power_close(second);
	/* It was our child after all: reap it here. */
	assert_int_equal(waitpid(pid, NULL, 0), pid);
}

static void test_missing_binary(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };
	struct power *power;

	f->qemu.binary = "/nonexistent/qemu-system-x86_64";
	assert_int_equal(power_open(&f->board, f->dir, &power, &err), 0);
	assert_int_equal(power_on(power, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_INFRA);
	assert_non_null(strstr(err.msg, "No such file"));
	assert_int_equal(status_of(power), POWER_OFF);
	power_close(power);
}

static void test_qemu_refusing_its_arguments(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };
	struct power *power;

	f->qemu.machine = "no-such-machine";
	assert_int_equal(power_open(&f->board, f->dir, &power, &err), 0);
	assert_int_equal(power_on(power, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_INFRA);
	/* QEMU's own words, from its stderr, explain the failure. */
	assert_non_null(strstr(err.msg, "unsupported machine type"));
	assert_non_null(strstr(err.msg, "qemu.stderr"));
	power_close(power);
}

static void test_missing_qemu_section(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };
	struct power *power = NULL;

	f->board.power.qemu = NULL;
	assert_int_equal(power_open(&f->board, f->dir, &power, &err), -1);
	assert_null(power);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
}

/* `rig power ... ACTION` on the fixture's run directory; returns the exit code. */
static int rig_power(struct fixture *f, const char *action, char *out, size_t size)
{
	char *argv[] = { "power", "--run", f->dir, (char *)action };
	FILE *o = tmpfile(), *e = tmpfile();
	size_t n;
	int rc;

	assert_non_null(o);
	assert_non_null(e);
	rc = cmd_power_to(&f->board, 4, argv, o, e);
	rewind(o);
	n = fread(out, 1, size - 1, o);
	out[n] = '\0';
	fclose(o);
	fclose(e);
	return rc;
}

/* From the command line QEMU comes up running (nobody else would start its CPUs) and stays up
 * after the command returns. */
static void test_cli_on_status_off(void **state)
{
	struct fixture *f = *state;
	char out[64];
	pid_t pid;

	f->qemu.n_disks = 0;
	assert_int_equal(rig_power(f, "on", out, sizeof(out)), RIG_EXIT_PASS);
	pid = read_pidfile(f);
	assert_int_equal(rig_power(f, "status", out, sizeof(out)), RIG_EXIT_PASS);
	assert_string_equal(out, "on\n");
	assert_int_equal(rig_power(f, "reset", out, sizeof(out)), RIG_EXIT_PASS);
	assert_int_equal(rig_power(f, "off", out, sizeof(out)), RIG_EXIT_PASS);
	assert_int_equal(rig_power(f, "status", out, sizeof(out)), RIG_EXIT_PASS);
	assert_string_equal(out, "off\n");
	assert_int_equal(waitpid(pid, NULL, 0), pid);
}

static int argv_index(const struct qemu_argv *args, const char *value)
{
	for (size_t i = 0; i < args->argc; i++)
		if (strcmp(args->argv[i], value) == 0)
			return (int)i;
	return -1;
}

static void test_argv_from_board(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };
	struct qemu_argv args;
	char *extra[] = { "-no-reboot", "-nic", "none" };
	char expect[256];

	f->board.boot = (struct board_boot){ .kernel = "/k/vmlinux", .initrd = "/k/initrd",
					     .cmdline = "console=ttyS0 quiet" };
	f->qemu.extra_args = extra;
	f->qemu.n_extra_args = 3;
	f->qemu.memory_mb = 768;
	f->qemu.cpus = 2;
	f->disks[1].file = "/d/sata,1.img";
	assert_int_equal(qemu_build_argv(&f->board, "/run", &args, &err), 0);
	assert_string_equal(args.argv[0], "qemu-system-x86_64");
	assert_string_equal(args.argv[args.argc - 1], "none");
	assert_null(args.argv[args.argc]);
	assert_true(argv_index(&args, "-S") > 0);
	assert_string_equal(args.argv[argv_index(&args, "-machine") + 1], "pc");
	/* No tcg_thread given: single-threaded TCG (multi-threaded oopses in text patching). */
	assert_string_equal(args.argv[argv_index(&args, "-accel") + 1], "tcg,thread=single");
	assert_string_equal(args.argv[argv_index(&args, "-smp") + 1], "2");
	assert_string_equal(args.argv[argv_index(&args, "-m") + 1], "768");
	assert_string_equal(args.argv[argv_index(&args, "-kernel") + 1], "/k/vmlinux");
	assert_string_equal(args.argv[argv_index(&args, "-initrd") + 1], "/k/initrd");
	assert_string_equal(args.argv[argv_index(&args, "-append") + 1], "console=ttyS0 quiet");
	assert_string_equal(args.argv[argv_index(&args, "-serial") + 1], "chardev:con0");
	snprintf(expect, sizeof(expect), "socket,id=con0,path=%s,server=on,wait=off,"
		 "logfile=/run/qemu-serial.log", f->console);
	assert_string_equal(args.argv[argv_index(&args, "-chardev") + 1], expect);
	snprintf(expect, sizeof(expect), "unix:%s,server=on,wait=off", f->qmp);
	assert_string_equal(args.argv[argv_index(&args, "-qmp") + 1], expect);
	snprintf(expect, sizeof(expect), "file=%s,if=none,id=nvme0,format=raw,cache=writeback",
		 f->nvme);
	assert_true(argv_index(&args, expect) > 0);
	assert_true(argv_index(&args, "nvme,drive=nvme0,serial=nvme0") > 0);
	/* The controller comes before its disk; a comma in a path is doubled. */
	assert_true(argv_index(&args, "ahci,id=ahci0") <
		    argv_index(&args, "ide-hd,drive=sata0,bus=ahci0.0"));
	assert_true(argv_index(&args, "file=/d/sata,,1.img,if=none,id=sata0,format=raw,"
			       "cache=writeback") > 0);
	qemu_argv_free(&args);
}

/* tcg_thread reaches -accel as given; KVM gets no thread option (the board check refuses one). */
static void test_argv_accel(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };
	struct qemu_argv args;

	f->qemu.tcg_thread = "multi";
	assert_int_equal(qemu_build_argv(&f->board, "/run", &args, &err), 0);
	assert_string_equal(args.argv[argv_index(&args, "-accel") + 1], "tcg,thread=multi");
	qemu_argv_free(&args);
	f->qemu.tcg_thread = NULL;
	f->qemu.accel = "kvm";
	assert_int_equal(qemu_build_argv(&f->board, "/run", &args, &err), 0);
	assert_string_equal(args.argv[argv_index(&args, "-accel") + 1], "kvm");
	assert_string_equal(args.argv[argv_index(&args, "-machine") + 1], "pc");
	qemu_argv_free(&args);
}

/* A board net-booted by the tftp deploy: its firmware loads the kernel, QEMU is not told one
 * (and the negative control: the qemu deploy does tell it). */
static void test_argv_without_kernel_for_tftp_deploy(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };
	struct qemu_argv args;

	f->board.boot = (struct board_boot){ .kernel = "/k/bzImage", .initrd = "/k/initrd",
					     .cmdline = "console=ttyS0" };
	f->board.deploy.backend = "tftp";
	assert_int_equal(qemu_build_argv(&f->board, "/run", &args, &err), 0);
	assert_int_equal(argv_index(&args, "-kernel"), -1);
	assert_int_equal(argv_index(&args, "-initrd"), -1);
	assert_int_equal(argv_index(&args, "-append"), -1);
	qemu_argv_free(&args);
	f->board.deploy.backend = "qemu";
	assert_int_equal(qemu_build_argv(&f->board, "/run", &args, &err), 0);
	assert_true(argv_index(&args, "-kernel") > 0);
	qemu_argv_free(&args);
}

static void test_argv_rejects_unknown_interface(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };
	struct qemu_argv args;

	f->disks[0].interface = "scsi";
	assert_int_equal(qemu_build_argv(&f->board, "/run", &args, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	assert_non_null(strstr(err.msg, "scsi"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_argv_from_board, setup, teardown),
		cmocka_unit_test_setup_teardown(test_argv_accel, setup, teardown),
		cmocka_unit_test_setup_teardown(test_argv_without_kernel_for_tftp_deploy, setup, teardown),
		cmocka_unit_test_setup_teardown(test_argv_rejects_unknown_interface, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_qemu_section, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_binary, setup, teardown),
		cmocka_unit_test_setup_teardown(test_qemu_refusing_its_arguments, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lifecycle, setup, teardown),
		cmocka_unit_test_setup_teardown(test_adopt_running_qemu, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cli_on_status_off, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
