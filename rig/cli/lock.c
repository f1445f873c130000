#include "cli/lock.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/context.h"
#include "engine/lease.h"
#include "util/number.h"

static const char usage_text[] =
	"usage: rig lock --board BOARD [--wait SECONDS] -- COMMAND [ARG...]\n"
	"\n"
	"Run COMMAND holding the board's lock, the one `rig run` takes: COMMAND replaces rig\n"
	"(exec) and holds the board until it exits, however it exits. A board someone else\n"
	"holds is waited for up to --wait seconds (default 0: refuse at once, exit 3, naming\n"
	"the holder). COMMAND's children and siblings (the other commands one LAVA dispatcher\n"
	"runs for the same job: `rig power` for its power commands) share the board; `rig run`\n"
	"and everything else wait or are refused.\n"
	"\n"
	"BOARD is a board name (boards/NAME.yaml need not exist here, e.g. on a LAVA worker).\n"
	"The LAVA device dictionaries in jobs/devices start QEMU or the serial connection\n"
	"through it. Exit status: COMMAND's; 2 usage; 3 the board stayed locked, or COMMAND\n"
	"could not be started.\n";

int cmd_lock(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "board", required_argument, NULL, 'b' }, { "wait", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	struct rig_err err = { 0 };
	struct board_lease lease;
	const char *board = NULL;
	char name[128];
	long long wait_s = 0;
	int opt;

	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		if (opt == 'h') {
			fputs(usage_text, stdout);
			return RIG_EXIT_PASS;
		} else if (opt == 'b') {
			board = optarg;
		} else if (opt == 'w') {
			if (parse_number(optarg, 0, 7 * 86400, &wait_s)) {
				fprintf(stderr, "rig lock: --wait: '%s' is not 0..604800 seconds\n", optarg);
				return RIG_EXIT_USAGE;
			}
		} else {
			fprintf(stderr, "rig lock: unknown or incomplete option '%s'; try 'rig lock --help'\n",
				argv[optind - 1]);
			return RIG_EXIT_USAGE;
		}
	}
	if (!board || optind >= argc) {
		fputs(usage_text, stderr);
		return RIG_EXIT_USAGE;
	}
	cli_board_name(board, name, sizeof(name));
	if (board_lease_take(name, (double)wait_s, &lease, &err) ||
	    (lease.lock && board_lock_keep_on_exec(lease.lock, &err)))
		return cli_fail(&err);
	execvp(argv[optind], argv + optind);
	fprintf(stderr, "rig lock: %s: %s\n", argv[optind], strerror(errno));
	board_lease_release(&lease);
	return RIG_EXIT_INFRA;
}
