/* rig — the suspend-rig controller. See rig(1): rig/doc/rig.1.
 *
 * main() owns only dispatch: one table names every command, what it does (the usage text is
 * made from it) and how it is called. Every command parses its own options and answers -h and
 * --help on stdout with exit 0; `rig help COMMAND` is the same as `rig COMMAND --help`. */
#include <signal.h>
#include <stdbool.h>
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

typedef int (*plain_cmd_fn)(int argc, char **argv);
typedef int (*board_cmd_fn)(struct board *board, int argc, char **argv);

/* argv[0] is the command's name in both kinds; a board command gets its --board loaded (NULL
 * when none was given: only --help works then). */
struct command {
	const char *name;
	const char *summary;
	plain_cmd_fn run;
	board_cmd_fn run_with_board;
};

static int cmd_version(int argc, char **argv);

static const struct command commands[] = {
	{ "run", "run a plan on a board, store verdicts (rig run --board qemu --plan smoke)", cmd_run, NULL },
	{ "boot", "boot a board to its agent and run commands on it", cmd_boot, NULL },
	{ "power", "switch a board: on, off, cycle, press, reset, wakeup, status", NULL, cmd_power },
	{ "powerd", "hold a board's GPIO power lines and serve rig power", NULL, cmd_powerd },
	{ "console", "interactive serial console of a board", NULL, cmd_console },
	{ "results", "show stored runs, cycles and verdicts", cmd_results, NULL },
	{ "known", "known issues: last seen, active or possibly fixed", cmd_known, NULL },
	{ "dashboard", "write the pass/fail dashboard (static HTML site)", cmd_dashboard, NULL },
	{ "lava", "render and submit LAVA jobs, import LAVA results (rig lava --help)", cmd_lava, NULL },
	{ "lock", "run a command holding the board (LAVA device dictionaries)", cmd_lock, NULL },
	{ "bisect", "find the first bad kernel commit, even for intermittent failures", cmd_bisect, NULL },
	{ "bisect-sim", "simulate flake-aware bisection against repeat-N bisection", cmd_bisect_sim, NULL },
	{ "bisect-step", "run a command for git bisect run (0 good, 1 bad, 125 skip)", cmd_bisect_step, NULL },
	{ "version", "print the version", cmd_version, NULL },
};

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *to)
{
	fputs("usage: rig COMMAND [options]      (rig COMMAND --help for each command)\n"
	      "\n"
	      "Drive a board through suspend and hibernate cycles and prove the kernel keeps data safe.\n"
	      "\n"
	      "commands:\n", to);
	for (size_t i = 0; i < N_COMMANDS; i++)
		fprintf(to, "  %-12s %s\n", commands[i].name, commands[i].summary);
	fputs("  help         this text; rig help COMMAND = rig COMMAND --help\n"
	      "\n"
	      "exit status: 0 pass, 1 a verdict failed, 2 bad usage or configuration,\n"
	      "3 infrastructure failure (board unreachable, serial gone, QEMU missing).\n", to);
}

static int cmd_version(int argc, char **argv)
{
	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		puts("usage: rig version\n\nPrint the rig's version (git describe of its source).");
		return RIG_EXIT_PASS;
	}
	if (argc > 1) {
		fprintf(stderr, "rig: version: unexpected argument '%s'\n", argv[1]);
		return RIG_EXIT_USAGE;
	}
	printf("rig %s\n", RIG_VERSION);
	return RIG_EXIT_PASS;
}

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

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

static int dispatch(const struct command *c, int argc, char **argv)
{
	return c->run ? c->run(argc, argv) : with_board(c->run_with_board, argc, argv);
}

static bool is_help(const char *arg)
{
	return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0 || strcmp(arg, "help") == 0;
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : NULL;
	const struct command *c;

	if (!name) {
		usage(stderr);
		return RIG_EXIT_USAGE;
	}
	if (is_help(name) && (argc <= 2 || is_help(argv[2]))) {   /* rig help, rig help --help */
		usage(stdout);
		return RIG_EXIT_PASS;
	}
	/* A board that went away must be an error return (exit 3), not a silent death by SIGPIPE. */
	signal(SIGPIPE, SIG_IGN);
	if (is_help(name)) {            /* rig help COMMAND */
		char *help_argv[] = { argv[2], "--help", NULL };

		if (!(c = find_command(argv[2]))) {
			fprintf(stderr, "rig: unknown command '%s'\n\n", argv[2]);
			usage(stderr);
			return RIG_EXIT_USAGE;
		}
		return dispatch(c, 2, help_argv);
	}
	if (strcmp(name, "--version") == 0)
		name = "version";
	if (!(c = find_command(name))) {
		fprintf(stderr, "rig: unknown command '%s'\n\n", name);
		usage(stderr);
		return RIG_EXIT_USAGE;
	}
	return dispatch(c, argc - 1, argv + 1);
}
