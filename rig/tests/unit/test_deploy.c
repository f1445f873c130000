/* rig/deploy/: the command line of a boot, the tftp backend's files and boot configurations
 * (written whole or not at all, the old boot's removed), the command backend's script (its
 * arguments, its failure, its deadline), and the refusals of a board that boots what it has. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/unit/support.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/context.h"
#include "config/plan.h"
#include "deploy/deploy.h"
#include "deploy/tftp_config.h"

struct fixture {
	char dir[64];             /* scratch: the kernel files, the TFTP root, the run dir */
	char root[96], kernel[96], initrd[96], dtb[96];
	struct board_deploy_tftp tftp;
	struct board_deploy_command command;
	struct board board;
	struct deploy *deploy;
};

static void write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
}

/* The whole file as a string (caller frees); NULL when it does not exist. */
static char *read_file(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *text;
	long n;

	if (!fp)
		return NULL;
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	rewind(fp);
	text = calloc(1, (size_t)n + 1);
	assert_non_null(text);
	assert_int_equal(fread(text, 1, (size_t)n, fp), (size_t)n);
	fclose(fp);
	return text;
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	strcpy(f->dir, "/tmp/rig-deploy-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->root, sizeof(f->root), "%s/tftp", f->dir);
	snprintf(f->kernel, sizeof(f->kernel), "%s/bzImage", f->dir);
	snprintf(f->initrd, sizeof(f->initrd), "%s/initrd.cpio", f->dir);
	snprintf(f->dtb, sizeof(f->dtb), "%s/board.dtb", f->dir);
	assert_int_equal(mkdir(f->root, 0755), 0);
	write_file(f->kernel, "KERNEL-A");
	write_file(f->initrd, "INITRD-A");
	write_file(f->dtb, "DTB-A");
	f->tftp = (struct board_deploy_tftp){ .root = f->root, .format = "ipxe" };
	f->board = (struct board){
		.name = "deploy-test", .path = "boards/deploy-test.yaml",
		.boot = { .kernel = f->kernel, .initrd = f->initrd,
			  .cmdline = "console=ttyS0,115200  no_console_suspend\n" },
		.power = { .backend = "gpiod" },
		.deploy = { .backend = "tftp", .tftp = &f->tftp },
	};
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[128];

	deploy_close(f->deploy);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	assert_int_equal(system(cmd), 0);
	free(f);
	return 0;
}

static void open_deploy(struct fixture *f)
{
	struct rig_err err = { 0 };

	deploy_close(f->deploy);
	f->deploy = NULL;
	if (deploy_open(&f->board, f->dir, &f->deploy, &err) < 0)
		fail_msg("deploy_open: %s", err.msg);
}

/* Names in the root, sorted, space-separated (subdirectories included by name). */
static void list_root(const char *root, char *buf, size_t size)
{
	struct dirent **names;
	int n = scandir(root, &names, NULL, alphasort);

	assert_true(n >= 0);
	buf[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (strcmp(names[i]->d_name, ".") != 0 && strcmp(names[i]->d_name, "..") != 0)
			snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", *buf ? " " : "",
				 names[i]->d_name);
		free(names[i]);
	}
	free(names);
}

/* ---- the command line ---- */

static void cmdline_joins_board_and_extra(void **state)
{
	struct rig_err err = { 0 };
	char *s;

	(void)state;
	assert_int_equal(deploy_cmdline("  console=ttyS0\n quiet  ", "noresume", &s, &err), 0);
	assert_string_equal(s, "console=ttyS0 quiet noresume");
	free(s);
	assert_int_equal(deploy_cmdline("a\tb", NULL, &s, &err), 0);
	assert_string_equal(s, "a b");
	free(s);
	assert_int_equal(deploy_cmdline(NULL, "noresume", &s, &err), 0);
	assert_string_equal(s, "noresume");
	free(s);
	assert_int_equal(deploy_cmdline(NULL, NULL, &s, &err), 0);
	assert_string_equal(s, "");
	free(s);
	/* a control character would break the boot configuration's line */
	assert_int_equal(deploy_cmdline("console=ttyS0 \x1b[0m", NULL, &s, &err), -1);
	assert_null(s);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	assert_non_null(strstr(err.msg, "control character"));
}

/* ---- tftp ---- */

static void tftp_writes_files_and_ipxe_script(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };
	char path[256], listing[512], *script, *copy;

	assert_int_equal(rmdir(f->root), 0);   /* a root in the run directory is made */
	open_deploy(f);
	assert_int_equal(deploy_prepare(f->deploy, "noresume", &err), 0);
	snprintf(path, sizeof(path), "%s/boot.ipxe", f->root);
	script = read_file(path);
	assert_non_null(script);
	snprintf(listing, sizeof(listing), "#!ipxe\nkernel rig-%ld-1-kernel initrd=rig-%ld-1-initrd "
		 "console=ttyS0,115200 no_console_suspend noresume\ninitrd rig-%ld-1-initrd\nboot\n",
		 (long)getpid(), (long)getpid(), (long)getpid());
	assert_string_equal(script, listing);
	free(script);
	snprintf(path, sizeof(path), "%s/rig-%ld-1-kernel", f->root, (long)getpid());
	copy = read_file(path);
	assert_string_equal(copy, "KERNEL-A");
	free(copy);
	/* nothing half-written is left behind */
	list_root(f->root, listing, sizeof(listing));
	assert_null(strstr(listing, "tmp"));
}

/* Per boot: the next boot's files replace the old ones, and its configuration drops noresume. */
static void tftp_next_boot_replaces_the_old(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };
	char path[256], listing[512], want[512], *script;
	long pid = (long)getpid();

	open_deploy(f);
	assert_int_equal(deploy_prepare(f->deploy, "noresume", &err), 0);
	write_file(f->kernel, "KERNEL-B");
	assert_int_equal(deploy_prepare(f->deploy, NULL, &err), 0);
	list_root(f->root, listing, sizeof(listing));
	snprintf(want, sizeof(want), "boot.ipxe rig-%ld-2-initrd rig-%ld-2-kernel", pid, pid);
	assert_string_equal(listing, want);
	snprintf(path, sizeof(path), "%s/boot.ipxe", f->root);
	script = read_file(path);
	assert_null(strstr(script, "noresume"));
	assert_non_null(strstr(script, "-2-kernel"));
	free(script);
	snprintf(path, sizeof(path), "%s/rig-%ld-2-kernel", f->root, pid);
	script = read_file(path);
	assert_string_equal(script, "KERNEL-B");
	free(script);
}

/* Atomic: a boot that cannot be deployed leaves the previous configuration whole, pointing at
 * files that are still there. */
static void tftp_failure_keeps_the_previous_boot(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };
	char path[256], *before, *after, listing[512];

	open_deploy(f);
	assert_int_equal(deploy_prepare(f->deploy, NULL, &err), 0);
	snprintf(path, sizeof(path), "%s/boot.ipxe", f->root);
	before = read_file(path);
	f->board.boot.initrd = "/nonexistent/initrd";
	assert_int_equal(deploy_prepare(f->deploy, NULL, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_INFRA);
	assert_non_null(strstr(err.msg, "/nonexistent/initrd"));
	after = read_file(path);
	assert_string_equal(before, after);
	list_root(f->root, listing, sizeof(listing));
	assert_non_null(strstr(listing, "-1-kernel"));
	assert_non_null(strstr(listing, "-1-initrd"));
	assert_null(strstr(listing, "tmp"));
	free(before);
	free(after);
}

static void tftp_pxelinux_and_extlinux(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };
	char path[256], *text;

	f->tftp.format = "pxelinux";
	open_deploy(f);
	assert_int_equal(deploy_prepare(f->deploy, NULL, &err), 0);
	snprintf(path, sizeof(path), "%s/pxelinux.cfg/default", f->root);
	text = read_file(path);
	assert_non_null(text);
	assert_non_null(strstr(text, "DEFAULT rig\n"));
	assert_non_null(strstr(text, "  KERNEL rig-"));
	assert_non_null(strstr(text, "  INITRD rig-"));
	assert_non_null(strstr(text, "  APPEND console=ttyS0,115200 no_console_suspend\n"));
	free(text);

	f->tftp.format = "extlinux";
	f->board.boot.dtb = f->dtb;
	open_deploy(f);
	assert_int_equal(deploy_prepare(f->deploy, "noresume", &err), 0);
	snprintf(path, sizeof(path), "%s/extlinux/extlinux.conf", f->root);
	text = read_file(path);
	assert_non_null(text);
	assert_non_null(strstr(text, "label rig\n  kernel rig-"));
	assert_non_null(strstr(text, "-dtb\n"));
	assert_non_null(strstr(text, "  fdt rig-"));
	assert_non_null(strstr(text, "  append console=ttyS0,115200 no_console_suspend noresume\n"));
	free(text);

	/* a configuration somewhere else in the root (U-Boot's pxe get) */
	f->tftp.config = "pxelinux.cfg/default-arm";
	assert_int_equal(deploy_prepare(f->deploy, NULL, &err), 0);
	snprintf(path, sizeof(path), "%s/pxelinux.cfg/default-arm", f->root);
	text = read_file(path);
	assert_non_null(text);
	free(text);
	f->tftp.config = "../outside";
	assert_int_equal(deploy_prepare(f->deploy, NULL, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
}

static void tftp_refuses_what_the_format_cannot_carry(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };
	char listing[512];

	f->board.boot.dtb = f->dtb;   /* iPXE on x86 loads no device tree */
	open_deploy(f);
	assert_int_equal(deploy_prepare(f->deploy, NULL, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	assert_non_null(strstr(err.msg, "cannot load a device tree"));
	f->board.boot.dtb = NULL;
	f->board.boot.cmdline = "root=${root}";   /* iPXE would expand it */
	assert_int_equal(deploy_prepare(f->deploy, NULL, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	list_root(f->root, listing, sizeof(listing));
	assert_string_equal(listing, "");   /* refused before anything was copied */
	f->tftp.root = "/nonexistent/tftp";
	f->board.boot.cmdline = "console=ttyS0";
	assert_int_equal(deploy_prepare(f->deploy, NULL, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_INFRA);
	assert_non_null(strstr(err.msg, "root /nonexistent/tftp: No such file or directory"));
}

/* ---- command ---- */

static void use_script(struct fixture *f, const char *body, unsigned timeout_s)
{
	static char script[128];
	char text[512];

	snprintf(script, sizeof(script), "%s/flash.sh", f->dir);
	snprintf(text, sizeof(text), "#!/bin/sh\n%s\n", body);
	write_file(script, text);
	assert_int_equal(chmod(script, 0755), 0);
	f->command = (struct board_deploy_command){ .run = script, .timeout_s = timeout_s };
	f->board.deploy = (struct board_deploy){ .backend = "command", .command = &f->command };
	open_deploy(f);
}

static void command_gets_every_argument(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };
	char path[256], want[512], *args, *log;

	snprintf(path, sizeof(path), "%s/args", f->dir);
	snprintf(want, sizeof(want), "for a; do echo \"[$a]\"; done >%s; echo flashed", path);
	use_script(f, want, 10);
	assert_int_equal(deploy_prepare(f->deploy, "noresume", &err), 0);
	args = read_file(path);
	snprintf(want, sizeof(want), "[%s]\n[%s]\n[]\n[console=ttyS0,115200 no_console_suspend "
		 "noresume]\n", f->kernel, f->initrd);
	assert_string_equal(args, want);
	free(args);
	log = read_file(f->deploy->log_path);   /* the script's output is in the run's log */
	assert_non_null(log);
	assert_non_null(strstr(log, "flashed\n"));
	free(log);
}

static void command_failure_is_infrastructure(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };
	char *log;

	use_script(f, "echo 'no board on /dev/ttyUSB3' >&2; exit 3", 10);
	assert_int_equal(deploy_prepare(f->deploy, NULL, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_INFRA);
	assert_non_null(strstr(err.msg, "exited 3"));
	assert_non_null(strstr(err.msg, "deploy.log"));
	log = read_file(f->deploy->log_path);
	assert_non_null(strstr(log, "no board on /dev/ttyUSB3"));
	free(log);
}

static void command_timeout_stops_it(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };
	struct timespec t0, t1;

	use_script(f, "sleep 30", 1);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(deploy_prepare(f->deploy, NULL, &err), -1);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	assert_int_equal(err.class, RIG_EXIT_INFRA);
	assert_non_null(strstr(err.msg, "did not finish within 1 s"));
	/* stopped at its deadline (plus the grace for its clean-up), not after its 30 s */
	assert_true(t1.tv_sec - t0.tv_sec < 10);
}

/* ---- none: the board boots what it has; whatever needs rig's kernel or command line is refused */

static void none_refuses_a_command_line(void **state)
{
	struct fixture *f = *state;
	struct rig_err err = { 0 };

	f->board.deploy = (struct board_deploy){ .backend = "none" };
	f->board.boot = (struct board_boot){ .cmdline = "console=ttyS0" };
	open_deploy(f);
	assert_false(deploy_can_set_kernel(&f->board));
	assert_false(deploy_can_set_cmdline(&f->board));
	assert_int_equal(deploy_prepare(f->deploy, NULL, &err), 0);
	assert_int_equal(deploy_prepare(f->deploy, "noresume", &err), -1);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	assert_non_null(strstr(err.msg, "cannot boot with 'noresume'"));
	/* the CLI refuses --kernel, --append and rig bisect before anything runs */
	assert_int_equal(cli_override_boot(&f->board, NULL, "quiet", &err), -1);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	assert_non_null(strstr(err.msg, "--append: board deploy-test cannot set the kernel command "
			       "line: boards/deploy-test.yaml: deploy.backend is none"));
	assert_int_equal(cli_override_boot(&f->board, f->dir, NULL, &err), -1);
	assert_non_null(strstr(err.msg, "--kernel: board deploy-test cannot boot a kernel"));
	assert_int_equal(cli_check_deploy(&f->board, "rig bisect", true, false, &err), -1);
	assert_non_null(strstr(err.msg, "rig bisect: board deploy-test cannot boot a kernel"));
	/* positive control: a board that deploys takes them */
	f->board.deploy = (struct board_deploy){ .backend = "tftp", .tftp = &f->tftp };
	assert_true(deploy_can_set_kernel(&f->board));
	assert_int_equal(cli_check_deploy(&f->board, "rig bisect", true, true, &err), 0);
	assert_non_null(f->board.boot.cmdline = strdup("console=ttyS0"));
	assert_int_equal(cli_override_boot(&f->board, NULL, "quiet", &err), 0);
	assert_string_equal(f->board.boot.cmdline, "console=ttyS0 quiet");
	free(f->board.boot.cmdline);
}

/* A plan that discards a hibernation image needs noresume: refused on a board that boots what
 * it has, accepted on the same kind of board once it deploys over TFTP. */
static void plan_check_follows_the_deploy(void **state)
{
	struct rig_err err = { 0 };
	struct board *none = NULL, *tftp = NULL;
	struct plan *plan = NULL;
	char *path;

	(void)state;
	path = top_path("rig/tests/data/plans/discard-image.yaml");
	assert_int_equal(plan_load(path, &plan, &err), 0);
	free(path);
	path = top_path("boards/qemu-bench.yaml");
	assert_int_equal(board_load(path, NULL, &none, &err), 0);
	free(path);
	path = top_path("rig/tests/data/boards/deploy-tftp-gpiod.yaml");
	assert_int_equal(board_load(path, NULL, &tftp, &err), 0);
	free(path);
	assert_int_equal(plan_check_board(plan, none, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	assert_non_null(strstr(err.msg, "discard-image.yaml:4: steps[1].hibernate.resume"));
	assert_int_equal(plan_check_board(plan, tftp, &err), 0);
	plan_free(plan);
	board_free(none);
	board_free(tftp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cmdline_joins_board_and_extra),
		cmocka_unit_test_setup_teardown(tftp_writes_files_and_ipxe_script, setup, teardown),
		cmocka_unit_test_setup_teardown(tftp_next_boot_replaces_the_old, setup, teardown),
		cmocka_unit_test_setup_teardown(tftp_failure_keeps_the_previous_boot, setup, teardown),
		cmocka_unit_test_setup_teardown(tftp_pxelinux_and_extlinux, setup, teardown),
		cmocka_unit_test_setup_teardown(tftp_refuses_what_the_format_cannot_carry, setup,
						teardown),
		cmocka_unit_test_setup_teardown(command_gets_every_argument, setup, teardown),
		cmocka_unit_test_setup_teardown(command_failure_is_infrastructure, setup, teardown),
		cmocka_unit_test_setup_teardown(command_timeout_stops_it, setup, teardown),
		cmocka_unit_test_setup_teardown(none_refuses_a_command_line, setup, teardown),
		cmocka_unit_test(plan_check_follows_the_deploy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
