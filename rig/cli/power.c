#include "cli/power.h"

#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/lease.h"
#include "power/gpiod.h"
#include "power/power.h"
#include "power/power_daemon.h"
#include "util/err.h"
#include "util/number.h"

static const char power_usage[] =
	"usage: rig power --board BOARD [--run DIR] [--ms N] ACTION\n"
	"\n"
	"Switch the board under test or report its power state.\n"
	"\n"
	"actions:\n"
	"  on        power on (QEMU: start it; its CPUs run at once)\n"
	"  off       cut the power: the board gets no chance to shut down\n"
	"  cycle     off, then on\n"
	"  press     press the power button (ACPI power button on QEMU)\n"
	"  reset     pulse the reset line (QEMU: system_reset)\n"
	"  wakeup    wake a suspended board (QEMU only)\n"
	"  status    print off, on, suspended, paused or unknown\n"
	"\n"
	"options:\n"
	"  --run DIR   run directory with the QEMU pidfile, logs and sockets\n"
	"              (default: the directory of the board's QMP socket)\n"
	"  --ms N      press the button for N ms (default: the board's press_ms)\n"
	"  --wait S    wait up to S seconds for a board another driver holds (default 0)\n"
	"  -h, --help  this text\n"
	"\n"
	"Every action but status takes the board's lock while it acts: a board that `rig run`\n"
	"(or anyone but a `rig lock` lease of this job) holds is refused, exit 3, naming the\n"
	"holder. See rig lock --help.\n"
	"\n"
	"A gpiod board is driven through `rig powerd` when it answers on the board's socket;\n"
	"otherwise rig drives the lines itself and they revert when it exits.\n";

static const char powerd_usage[] =
	"usage: rig powerd --board BOARD [--group GROUP]\n"
	"\n"
	"Hold the board's GPIO power lines (which revert when their holder exits) and serve\n"
	"`rig power` on power.gpiod.socket until SIGINT or SIGTERM. Only this user (and root) may\n"
	"drive the board through it, checked on the peer's credentials (SO_PEERCRED), not only on\n"
	"the socket file's mode (0600); others are refused, naming who may.\n"
	"\n"
	"  --group GROUP  members of GROUP may drive the board too (socket 0660, group GROUP)\n"
	"  -h, --help     this text\n";

struct power_args {
	bool help;
	const char *run_dir;
	unsigned ms;
	long long wait_s;
	const char *action;
};

static int parse_ms(const char *text, unsigned *ms, struct rig_err *err)
{
	if (parse_uint(text, 1, 60000, ms) < 0)
		return rig_err_set(err, RIG_EXIT_USAGE, "--ms: '%s' is not 1..60000", text);
	return 0;
}

static int parse_power_args(int argc, char **argv, struct power_args *a, struct rig_err *err)
{
	static const struct option options[] = {
		{ "run", required_argument, NULL, 'r' }, { "ms", required_argument, NULL, 'm' },
		{ "wait", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	int opt;

	memset(a, 0, sizeof(*a));
	optind = 0;  /* glibc: full re-initialisation, so the parser can run more than once */
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+h", options, NULL)) != -1) {
		if (opt == 'h')
			a->help = true;
		else if (opt == 'r')
			a->run_dir = optarg;
		else if (opt == 'm' && parse_ms(optarg, &a->ms, err) < 0)
			return -1;
		else if (opt == 'w' && parse_number(optarg, 0, 7 * 86400, &a->wait_s))
			return rig_err_set(err, RIG_EXIT_USAGE, "--wait: '%s' is not 0..604800 seconds",
					   optarg);
		else if (opt == '?')
			return rig_err_set(err, RIG_EXIT_USAGE, "unknown or incomplete option '%s'; "
					   "try 'rig power --help'", argv[optind - 1]);
	}
	if (a->help)
		return 0;
	if (optind >= argc)
		return rig_err_set(err, RIG_EXIT_USAGE, "no action; try 'rig power --help'");
	if (optind + 1 < argc)
		return rig_err_set(err, RIG_EXIT_USAGE, "unexpected argument '%s'",
				   argv[optind + 1]);
	a->action = argv[optind];
	return 0;
}

/* QEMU starts with stopped CPUs for the engine's sake; from the command line, nobody else
 * will start them. */
static int on_and_run(struct power *power, struct rig_err *err)
{
	if (power_on(power, err) < 0)
		return -1;
	return power_resume_cpus(power, err);
}

static int cycle_and_run(struct power *power, struct rig_err *err)
{
	if (power_cycle(power, err) < 0)
		return -1;
	return power_resume_cpus(power, err);
}

static int run_action(struct power *power, const struct power_args *a, FILE *out,
		      struct rig_err *err)
{
	enum power_state state;

	if (strcmp(a->action, "on") == 0)
		return on_and_run(power, err);
	if (strcmp(a->action, "off") == 0)
		return power_off(power, err);
	if (strcmp(a->action, "cycle") == 0)
		return cycle_and_run(power, err);
	if (strcmp(a->action, "press") == 0)
		return power_press(power, a->ms, err);
	if (strcmp(a->action, "reset") == 0)
		return power_reset(power, err);
	if (strcmp(a->action, "wakeup") == 0)
		return power_wakeup(power, err);
	if (strcmp(a->action, "status") == 0) {
		if (power_status(power, &state, err) < 0)
			return -1;
		fprintf(out, "%s\n", power_state_name(state));
		return 0;
	}
	return rig_err_set(err, RIG_EXIT_USAGE, "unknown action '%s'; try 'rig power --help'",
			   a->action);
}

int cmd_power_to(struct board *board, int argc, char **argv, FILE *out, FILE *errout)
{
	struct rig_err err = { 0 };
	struct power_args args;
	struct power *power = NULL;
	struct board_lease lease = { 0 };
	int rc;

	rc = parse_power_args(argc, argv, &args, &err);
	if (rc == 0 && args.help) {
		fputs(power_usage, out);
		return RIG_EXIT_PASS;
	}
	if (rc == 0 && !board)
		rc = rig_err_set(&err, RIG_EXIT_USAGE, "rig power needs --board");
	/* Reading the state drives nothing; every other action does. */
	if (rc == 0 && board->name && strcmp(args.action, "status") != 0)
		rc = board_lease_take(board->name, (double)args.wait_s, &lease, &err);
	if (rc == 0)
		rc = power_open(board, args.run_dir, &power, &err);
	if (rc == 0)
		rc = run_action(power, &args, out, &err);
	power_close(power);
	board_lease_release(&lease);
	if (rc == 0)
		return RIG_EXIT_PASS;
	fprintf(errout, "rig power: %s\n", err.msg);
	return (int)err.class;
}

int cmd_power(struct board *board, int argc, char **argv)
{
	return cmd_power_to(board, argc, argv, stdout, stderr);
}

static volatile sig_atomic_t powerd_stop;

static void on_stop_signal(int sig)
{
	(void)sig;
	powerd_stop = 1;
}

static int install_stop_handlers(struct rig_err *err)
{
	struct sigaction sa = { .sa_handler = on_stop_signal };

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGINT, &sa, NULL) < 0 || sigaction(SIGTERM, &sa, NULL) < 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "sigaction: %s", strerror(errno));
	return 0;
}

static int serve(struct board *board, const struct power_daemon_opts *opts, struct rig_err *err)
{
	const char *socket_path = board->power.gpiod->socket;
	struct power *power;
	int listen_fd, rc;

	if (install_stop_handlers(err) < 0 ||
	    gpiod_power_open_direct(board, &gpio_io_libgpiod, &power, err) < 0)
		return -1;
	if (power_daemon_listen(socket_path, &opts->peers, &listen_fd, err) < 0) {
		power_close(power);
		return -1;
	}
	fprintf(stderr, "rig powerd: holding the power lines of %s; serving %s\n",
		board->name ? board->name : "board", socket_path);
	rc = power_daemon_run(power, listen_fd, opts, &powerd_stop, err);
	close(listen_fd);
	unlink(socket_path);
	power_close(power);
	return rc;
}

/* --group NAME (or a number): who besides this user may drive the board. */
static int parse_group(const char *text, struct peer_policy *peers, struct rig_err *err)
{
	struct group gr, *found = NULL;
	char tmp[4096];
	long long gid;

	if (getgrnam_r(text, &gr, tmp, sizeof(tmp), &found) == 0 && found) {
		peers->group = found->gr_gid;
	} else if (parse_number(text, 0, 0x7fffffff, &gid) == 0) {
		peers->group = (gid_t)gid;
	} else {
		return rig_err_set(err, RIG_EXIT_USAGE, "--group: no group '%s'", text);
	}
	peers->has_group = true;
	return 0;
}

int cmd_powerd(struct board *board, int argc, char **argv)
{
	struct power_daemon_opts opts = { .peers = { .owner = geteuid() } };
	struct rig_err err = { 0 };
	int rc = 0;

	for (int i = 1; i < argc && rc == 0; i++) {
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			fputs(powerd_usage, stdout);
			return RIG_EXIT_PASS;
		}
		if (strcmp(argv[i], "--group") == 0 && i + 1 < argc)
			rc = parse_group(argv[++i], &opts.peers, &err);
		else if (strncmp(argv[i], "--group=", 8) == 0)
			rc = parse_group(argv[i] + 8, &opts.peers, &err);
		else
			rc = rig_err_set(&err, RIG_EXIT_USAGE, "unexpected argument '%s'", argv[i]);
	}
	if (rc == 0 && !board)
		rc = rig_err_set(&err, RIG_EXIT_USAGE, "rig powerd needs --board");
	if (rc == 0 && (!board->power.gpiod || !board->power.gpiod->socket))
		rc = rig_err_set(&err, RIG_EXIT_USAGE, "board %s: rig powerd needs power.gpiod "
				 "with a socket", board->name ? board->name : "?");
	if (rc == 0)
		rc = serve(board, &opts, &err);
	if (rc == 0)
		return RIG_EXIT_PASS;
	fprintf(stderr, "rig powerd: %s\n", err.msg);
	return (int)err.class;
}
