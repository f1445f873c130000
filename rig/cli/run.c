#include "cli/run.h"

#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/context.h"
#include "config/plan.h"
#include "engine/engine.h"
#include "config/known.h"
#include "engine/resource_lock.h"
#include "cli/stale.h"
#include "results/db.h"
#include "util/number.h"

static const char run_usage[] =
	"usage: rig run --board BOARD --plan PLAN [options]\n"
	"\n"
	"Boot the board, start the plan's workloads and run its steps for N cycles, storing every\n"
	"cycle's verdicts, measurements and events in the results database.\n"
	"\n"
	"options:\n"
	"  --board BOARD     board name (boards/NAME.yaml) or board file\n"
	"  --plan PLAN       plan name (plans/NAME.yaml) or plan file\n"
	"  --db FILE         results database (default out/results.db)\n"
	"  --cycles N        repeat the plan's steps N times (default: the plan's cycles)\n"
	"  --kernel DIR      boot DIR/bzImage and record DIR/meta.json (a kernel build's out/kernels/ID)\n"
	"  --kernel-meta F   meta.json of the kernel under test (default: next to the board's kernel,\n"
	"                    else out/kernel/meta.json). After every boot the board's release and\n"
	"                    build-id must match it (else exit 3)\n"
	"  --append ARGS     extra kernel command line for every boot of this run\n"
	"  --known FILE      known issues (default known-issues/known-issues.yaml; 'none' disables)\n"
	"  --strict          a failure matching a known issue still fails the run\n"
	"  -q, --quiet       no progress output\n"
	"  -h, --help        this text\n"
	"\n"
	"SIGINT, SIGTERM, SIGHUP and SIGQUIT end the run: the cycle in flight and the run are stored\n"
	"as aborted. A rig killed outright (SIGKILL) leaves its run running until the next rig run\n"
	"on that board, or `rig results --repair`, marks it aborted.\n"
	"\n"
	"exit status: 0 every verdict passed (or failed only with known issues), 1 a verdict\n"
	"failed or the board hung, 2 bad usage or configuration, 3 infrastructure failure.\n";

struct run_args {
	const char *board, *plan, *db, *kernel_meta, *known, *kernel_dir, *append;
	unsigned cycles;
	bool strict, quiet, help;
};

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static int parse_args(int argc, char **argv, struct run_args *a, struct rig_err *err)
{
	static const struct option options[] = {
		{ "board", required_argument, NULL, 'b' }, { "plan", required_argument, NULL, 'p' },
		{ "db", required_argument, NULL, 'd' }, { "cycles", required_argument, NULL, 'c' },
		{ "kernel-meta", required_argument, NULL, 'k' }, { "known", required_argument, NULL, 'K' },
		{ "kernel", required_argument, NULL, 'D' }, { "append", required_argument, NULL, 'A' },
		{ "strict", no_argument, NULL, 's' }, { "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	int opt;

	memset(a, 0, sizeof(*a));
	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+qh", options, NULL)) != -1) {
		switch (opt) {
		case 'b': a->board = optarg; break;
		case 'p': a->plan = optarg; break;
		case 'd': a->db = optarg; break;
		case 'k': a->kernel_meta = optarg; break;
		case 'D': a->kernel_dir = optarg; break;
		case 'A': a->append = optarg; break;
		case 'K': a->known = optarg; break;
		case 's': a->strict = true; break;
		case 'q': a->quiet = true; break;
		case 'h': a->help = true; break;
		case 'c':
			if (parse_uint(optarg, 1, 100000, &a->cycles) < 0)
				return rig_err_set(err, RIG_EXIT_USAGE, "--cycles: '%s' is not 1..100000", optarg);
			break;
		default:
			return rig_err_set(err, RIG_EXIT_USAGE, "run: unknown option '%s' (see rig run --help)",
					   argv[optind - 1]);
		}
	}
	if (optind < argc)
		return rig_err_set(err, RIG_EXIT_USAGE, "run: unexpected argument '%s'", argv[optind]);
	if (!a->help && (!a->board || !a->plan))
		return rig_err_set(err, RIG_EXIT_USAGE, "run: --board and --plan are required (see rig run --help)");
	return 0;
}

static void print_summary(const struct engine_totals *t, const char *db_path, int code)
{
	printf("\n%-16s %6s %6s %6s %6s\n", "verdict", "pass", "fail", "known", "skip");
	for (unsigned i = 0; i < t->n_verdict_names; i++) {
		const struct engine_verdict_count *c = &t->by_verdict[i];

		printf("%-16s %6u %6u %6u %6u\n", c->name, c->pass, c->fail, c->known, c->skip);
	}
	printf("%-16s %6u %6u %6u %6u\n", "total", t->pass, t->fail, t->known, t->skip);
	printf("\ncycles: %u of %u run, %u hang(s), %u infrastructure error(s)\n", t->cycles_done,
	       t->cycles, t->hangs, t->infra);
	if (t->starved)
		printf("of those infrastructure errors, %u a hang, failure or unanswered board command "
		       "on a host that starved the board of CPU (its host-cpu verdict says how much)\n",
		       t->starved);
	printf("results: %s (run %lld) — rig results --db %s --run %lld\n", db_path,
	       (long long)t->run_id, db_path, (long long)t->run_id);
	printf("verdict: %s\n", code == 0 ? (t->known ? "PASS (with known issues)" : "PASS")
			       : code == 1 ? "FAIL" : "INFRASTRUCTURE ERROR");
}

struct run_resources {
	struct board *board;
	struct plan *plan;
	struct board_lock *lock;
	struct results_db *db;
	struct known_issues *known;
};

static void release(struct run_resources *r)
{
	known_free(r->known);
	results_close(r->db);
	board_lock_release(r->lock);
	plan_free(r->plan);
	board_free(r->board);
}

static int load_all(const struct run_args *a, struct cli_paths *paths, struct run_resources *r,
		    char *db_path, size_t db_size, struct rig_err *err)
{
	char path[PATH_MAX], name[128];

	cli_board_name(a->board, name, sizeof(name));
	cli_plan_path(paths, a->plan, path, sizeof(path));
	if (plan_load(path, &r->plan, err) < 0 || cli_make_run_dir(paths, name, err) < 0 ||
	    cli_load_board(paths, a->board, &r->board, err) < 0 ||
	    plan_check_board(r->plan, r->board, err) < 0)
		return -1;
	if (cli_load_known(paths, a->known, &r->known, err) < 0)
		return -1;
	if (cli_override_boot(r->board, a->kernel_dir, a->append, err) < 0)
		return -1;
	if (board_lock_acquire_board(r->board, NULL, &r->lock, err) < 0)
		return -1;
	if (a->db)
		snprintf(db_path, db_size, "%s", a->db);
	else
		cli_path(db_path, db_size, paths->out, "results.db");
	return results_open(db_path, RESULTS_OPEN_CREATE, &r->db, err);
}

/* The meta.json next to the kernel the board boots (the board file's boot.kernel; --kernel skips it),
 * when there is one: the kernel recorded is the kernel booted. */
static void board_kernel_meta(const struct board *board, char *meta, size_t size)
{
	const char *kernel = board->boot.kernel, *slash = kernel ? strrchr(kernel, '/') : NULL;
	char candidate[PATH_MAX];

	if (!slash || snprintf(candidate, sizeof(candidate), "%.*s/meta.json", (int)(slash - kernel),
			       kernel) >= (int)sizeof(candidate) || access(candidate, R_OK) != 0)
		return;
	snprintf(meta, size, "%s", candidate);
}

int cmd_run(int argc, char **argv)
{
	struct run_args a;
	struct rig_err err = { 0 };
	struct cli_paths paths;
	struct run_resources r = { 0 };
	struct engine_totals totals;
	char db_path[PATH_MAX], meta[PATH_MAX];
	struct sigaction sa = { .sa_handler = on_signal };
	struct engine_options opts = { .stop = &stop_requested };
	int code;

	if (parse_args(argc, argv, &a, &err) < 0)
		return cli_fail(&err);
	if (a.help) {
		fputs(run_usage, stdout);
		return 0;
	}
	cli_paths_init(&paths);
	/* Holding the board's lock: a run of this board still running is a rig that is gone. */
	if (load_all(&a, &paths, &r, db_path, sizeof(db_path), &err) < 0 ||
	    cli_stale_reconcile_board(r.db, r.board->name, stderr, &err) < 0) {
		release(&r);
		return cli_fail(&err);
	}
	cli_path(meta, sizeof(meta), paths.out, "kernel/meta.json");
	opts.run_dir = paths.run;
	if (a.kernel_dir)
		cli_path(meta, sizeof(meta), a.kernel_dir, "meta.json");
	else
		board_kernel_meta(r.board, meta, sizeof(meta));
	opts.kernel_meta_path = a.kernel_meta ? a.kernel_meta : (access(meta, R_OK) == 0 ? meta : NULL);
	opts.cycles = a.cycles;
	opts.strict = a.strict;
	opts.progress = a.quiet ? NULL : stdout;
	opts.known = r.known;
	/* A closed terminal (SIGHUP) or the quit key (SIGQUIT) ends the run like Ctrl-C: the run is
	 * stored as aborted, never left running. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	if (!a.quiet)
		printf("rig run: board %s, plan %s, run directory %s\n", r.board->name, r.plan->name,
		       paths.run);
	code = engine_run(r.board, r.plan, r.db, &opts, &totals, &err);
	if (code == RIG_EXIT_INFRA || code == RIG_EXIT_USAGE)
		fprintf(stderr, "rig: %s\n", err.msg[0] ? err.msg : "infrastructure failure");
	if (stop_requested)
		fprintf(stderr, "rig: interrupted: the cycle in flight is marked aborted\n");
	if (!a.quiet || code != RIG_EXIT_INFRA)
		print_summary(&totals, db_path, code);
	release(&r);
	return code;
}
