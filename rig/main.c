/* rig — the suspend-rig controller. See rig(1): rig/doc/rig.1. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/bisect.h"
#include "cli/boot.h"
#include "cli/console.h"
#include "cli/context.h"
#include "cli/dashboard.h"
#include "cli/known.h"
#include "cli/lava.h"
#include "cli/lock.h"
#include "cli/power.h"
#include "cli/results.h"
#include "cli/run.h"
#include "util/err.h"

static const char usage[] =
	"usage: rig COMMAND [options]      (rig COMMAND --help for each command)\n"
	"\n"
	"Drive a board through suspend and hibernate cycles and prove the kernel keeps data safe.\n"
	"\n"
	"commands:\n"
	"  run          run a plan on a board, store verdicts (rig run --board qemu --plan smoke)\n"
	"  boot         boot a board to its agent and run commands on it\n"
	"  power        switch a board: on, off, cycle, press, reset, wakeup, status\n"
	"  powerd       hold a board's GPIO power lines and serve rig power\n"
	"  console      interactive serial console of a board\n"
	"  results      show stored runs, cycles and verdicts\n"
	"  known        known issues: last seen, active or possibly fixed\n"
	"  dashboard    write the pass/fail dashboard (static HTML site)\n"
	"  lava         render and submit LAVA jobs, import LAVA results (rig lava --help)\n"
	"  lock         run a command holding the board (LAVA device dictionaries)\n"
	"  bisect       find the first bad kernel commit, even for intermittent failures\n"
	"  bisect-sim   simulate flake-aware bisection against repeat-N bisection\n"
	"  bisect-step  run a command for git bisect run (0 good, 1 bad, 125 skip)\n"
	"  version      print the version\n"
	"\n"
	"exit status: 0 pass, 1 a verdict failed, 2 bad usage or configuration,\n"
	"3 infrastructure failure (board unreachable, serial gone, QEMU missing).\n";

typedef int (*board_cmd_fn)(struct board *board, int argc, char **argv);

/* Commands that take a loaded board: pull --board out of argv, load it, call fn. */
static int with_board(board_cmd_fn fn, int argc, char **argv)
{
	struct cli_paths paths;
	struct rig_err err = { 0 };
	struct board *board = NULL;
	const char *arg = NULL;
	char **rest = calloc((size_t)argc + 1, sizeof(*rest));
	int n = 0, code;

	if (!rest)
		return RIG_EXIT_INFRA;
	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--board") == 0 && i + 1 < argc)
			arg = argv[++i];
		else if (strncmp(argv[i], "--board=", 8) == 0)
			arg = argv[i] + 8;
		else
			rest[n++] = argv[i];
	}
	cli_paths_init(&paths);
	if (arg) {
		char name[128];

		cli_board_name(arg, name, sizeof(name));
		snprintf(paths.run, sizeof(paths.run), "%.3900s/run/%.120s", paths.out, name);
		if (cli_load_board(&paths, arg, &board, &err) < 0) {
			free(rest);
			return cli_fail(&err);
		}
	}
	code = fn(board, n, rest);
	board_free(board);
	free(rest);
	return code;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL;

	if (!cmd || strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
		fputs(usage, cmd ? stdout : stderr);
		return cmd ? RIG_EXIT_PASS : RIG_EXIT_USAGE;
	}
	/* A board that went away must be an error return (exit 3), not a silent death by SIGPIPE. */
	signal(SIGPIPE, SIG_IGN);
	argc--, argv++;
	if (strcmp(cmd, "run") == 0)
		return cmd_run(argc, argv);
	if (strcmp(cmd, "boot") == 0)
		return cmd_boot(argc, argv);
	if (strcmp(cmd, "power") == 0)
		return with_board(cmd_power, argc, argv);
	if (strcmp(cmd, "powerd") == 0)
		return with_board(cmd_powerd, argc, argv);
	if (strcmp(cmd, "console") == 0)
		return with_board(cmd_console, argc, argv);
	if (strcmp(cmd, "results") == 0)
		return cmd_results(argc, argv);
	if (strcmp(cmd, "lava") == 0)
		return cmd_lava(argc, argv);
	if (strcmp(cmd, "lock") == 0)
		return cmd_lock(argc, argv);
	if (strcmp(cmd, "dashboard") == 0)
		return cmd_dashboard(argc, argv);
	if (strcmp(cmd, "known") == 0)
		return cmd_known(argc, argv);
	if (strcmp(cmd, "bisect") == 0)
		return cmd_bisect(argc, argv);
	if (strcmp(cmd, "bisect-sim") == 0)
		return cmd_bisect_sim(argc, argv);
	if (strcmp(cmd, "bisect-step") == 0)
		return cmd_bisect_step(argc, argv);
	if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
		printf("rig %s\n", RIG_VERSION);
		return RIG_EXIT_PASS;
	}
	fprintf(stderr, "rig: unknown command '%s'\n\n%s", cmd, usage);
	return RIG_EXIT_USAGE;
}
