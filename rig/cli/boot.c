#include "cli/boot.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/context.h"
#include "engine/resource_lock.h"
#include "engine/session.h"
#include "util/number.h"

static const char boot_usage[] =
	"usage: rig boot --board BOARD [--kernel DIR] [--append ARGS] [--exec COMMAND]... [--timeout S]\n"
	"\n"
	"Power the board on, wait for its agent, run each COMMAND on it through the agent\n"
	"(printing its output), then power it off. A quick check that a kernel and image boot.\n"
	"\n"
	"options:\n"
	"  --board BOARD    board name (boards/NAME.yaml) or board file\n"
	"  --kernel DIR     boot DIR/bzImage (a kernel build's out/kernel-NAME), as rig run --kernel\n"
	"  --append ARGS    extra kernel command line for this boot\n"
	"  --exec COMMAND   shell command to run on the board (repeatable, in order)\n"
	"  --timeout S      per-command timeout (default: the board's command timeout)\n"
	"  -h, --help       this text\n"
	"\n"
	"exit status: 0 booted and every command exited 0; 1 a command failed; 2 usage;\n"
	"3 the board did not boot or the console failed.\n";

#define MAX_EXECS 64

struct boot_args {
	const char *board, *append, *kernel_dir;
	const char *execs[MAX_EXECS];
	unsigned n_execs, timeout;
	bool help;
};

static int parse_args(int argc, char **argv, struct boot_args *a, struct rig_err *err)
{
	static const struct option options[] = {
		{ "board", required_argument, NULL, 'b' }, { "append", required_argument, NULL, 'a' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "exec", required_argument, NULL, 'e' }, { "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	int opt;

	memset(a, 0, sizeof(*a));
	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+h", options, NULL)) != -1) {
		switch (opt) {
		case 'b': a->board = optarg; break;
		case 'a': a->append = optarg; break;
		case 'k': a->kernel_dir = optarg; break;
		case 'h': a->help = true; break;
		case 't':
			if (parse_uint(optarg, 1, 86400, &a->timeout) < 0)
				return rig_err_set(err, RIG_EXIT_USAGE, "--timeout: '%s' is not 1..86400 seconds",
						   optarg);
			break;
		case 'e':
			if (a->n_execs == MAX_EXECS)
				return rig_err_set(err, RIG_EXIT_USAGE, "boot: at most %d --exec", MAX_EXECS);
			a->execs[a->n_execs++] = optarg;
			break;
		default:
			return rig_err_set(err, RIG_EXIT_USAGE, "boot: unknown option '%s' (see rig boot --help)",
					   argv[optind - 1]);
		}
	}
	if (optind < argc)
		return rig_err_set(err, RIG_EXIT_USAGE, "boot: unexpected argument '%s'", argv[optind]);
	if (!a->help && !a->board)
		return rig_err_set(err, RIG_EXIT_USAGE, "boot: --board is required");
	return 0;
}

/* Run one command and print its output; 0 rc 0, 1 rc != 0, -1 infrastructure. */
static int run_one(struct session *s, const char *cmd, unsigned timeout, struct rig_err *err)
{
	struct agent_reply reply;
	int rc;

	if (session_exec_verified(s, cmd, timeout, &reply, err) < 0)
		return -1;
	printf("$ %s\n", cmd);
	for (size_t i = 0; i < reply.n_lines; i++)
		printf("%s\n", reply.lines[i]);
	printf("[rc=%d]\n", reply.rc);
	fflush(stdout);
	rc = reply.rc == 0 ? 0 : 1;
	agent_reply_free(&reply);
	return rc;
}

static int boot_and_exec(const struct boot_args *a, struct board *board, const char *run_dir,
			 struct rig_err *err)
{
	struct session *s;
	unsigned timeout = a->timeout ? a->timeout : board->timeouts.command;
	int rc, failed = 0;

	if (a->append && cli_check_deploy(board, "--append", false, true, err) < 0)
		return RIG_EXIT_USAGE;
	if (session_open(board, run_dir, stderr, &s, err) < 0)
		return RIG_EXIT_INFRA;
	rc = session_boot(s, a->append, board->timeouts.boot, err);
	/* an oops or a panic on the way up says more than "no agent" */
	if (rc != 0 && session_check_boot_health(s, err) < 0)
		rc = -1;
	else if (rc == 1)
		rig_err_set(err, RIG_EXIT_INFRA, "board %s: no agent within %u s (console log %s)",
			    board->name, board->timeouts.boot, s->console_log);
	else if (rc == 0 && session_check_boot_health(s, err) < 0)
		rc = -1;
	for (unsigned i = 0; rc == 0 && i < a->n_execs; i++) {
		int one = run_one(s, a->execs[i], timeout, err);

		if (one < 0)
			rc = -1;
		failed |= one == 1;
	}
	/* a lockup or a stall while the commands ran is the board's state too */
	if (rc == 0 && session_check_boot_health(s, err) < 0)
		rc = -1;
	session_say(s, "console log: %s", s->console_log);
	session_close(s);
	if (rc != 0)
		return RIG_EXIT_INFRA;
	return failed ? RIG_EXIT_FAIL : RIG_EXIT_PASS;
}

int cmd_boot(int argc, char **argv)
{
	struct boot_args a;
	struct rig_err err = { 0 };
	struct cli_paths paths;
	struct board *board = NULL;
	struct board_lock *lock = NULL;
	char name[128];
	int code;

	if (parse_args(argc, argv, &a, &err) < 0)
		return cli_fail(&err);
	if (a.help) {
		fputs(boot_usage, stdout);
		return 0;
	}
	cli_paths_init(&paths);
	cli_board_name(a.board, name, sizeof(name));
	if (cli_make_run_dir(&paths, name, &err) < 0 ||
	    cli_load_board(&paths, a.board, &board, &err) < 0 ||
	    (a.kernel_dir && cli_override_boot(board, a.kernel_dir, NULL, &err) < 0) ||
	    board_lock_acquire_board(board, NULL, &lock, &err) < 0) {
		board_free(board);
		return cli_fail(&err);
	}
	code = boot_and_exec(&a, board, paths.run, &err);
	if (code == RIG_EXIT_INFRA)
		fprintf(stderr, "rig: %s\n", err.msg);
	board_lock_release(lock);
	board_free(board);
	return code;
}
