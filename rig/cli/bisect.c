/* rig bisect-sim (the simulator's table) and rig bisect-step (git bisect run adaptor). */
#include "cli/bisect.h"

#include "bisect/sim.h"
#include "bisect/step.h"
#include "util/number.h"
#include "util/process.h"
#include "util/err.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int table_commits[] = { 64, 256, 1024, 4096 };
static const double table_p[] = { 0.1, 0.3, 0.5, 1.0 };
#define TABLE_LEN(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define TARGET_ACCURACY 0.95
#define DEFAULT_MAX_TRIES 100

struct sim_options {
	struct bisect_sim_params params;
	int max_tries;         /* largest N tried for repeat-N */
	bool one_commits;      /* --commits given */
	bool one_p;            /* --p given */
	bool help;             /* --help */
};

static int parse_int(const char *s, int min, int *out)
{
	long long v;

	if (parse_number(s, min, INT_MAX, &v) < 0)
		return -1;
	*out = (int)v;
	return 0;
}

static int parse_seed(const char *s, uint64_t *out)
{
	return parse_u64(s, 0, UINT64_MAX, out);
}

static const char sim_usage_text[] =
	"usage: rig bisect-sim [--commits N] [--p P] [--q Q] [--trials T] [--seed S]\n"
	"                      [--confidence C] [--max-cycles M] [--max-tries N] [--detect-cycles D]\n"
	"                      [--stop-known-p]\n"
	"\n"
	"Simulated bisections of a flaky failure: the rig's flake-aware search against repeat-N\n"
	"bisection (ktest's BISECT_TRIES). Without --commits or --p, a table over commits\n"
	"{64,256,1024,4096} x p {0.1,0.3,0.5,1.0}.\n"
	"\n"
	"options:\n"
	"  --commits N        commits between good and bad (default 64)\n"
	"  --p P              probability that a bad commit fails one cycle (default 0.3)\n"
	"  --q Q              probability that a good commit fails one cycle (default 0.01)\n"
	"  --trials T         simulated bisections per cell (default 200)\n"
	"  --seed S           random seed (default 1)\n"
	"  --confidence C     posterior mass that ends the search (default 0.95)\n"
	"  --max-cycles M     cycle budget per bisection (default 0: 1000)\n"
	"  --max-tries N      largest repeat count tried for repeat-N (default 100)\n"
	"  --detect-cycles D  free cycles of the bad endpoint to estimate p (default 0)\n"
	"  --stop-known-p     FA stops on the posterior at the true p (still estimating p to\n"
	"                     choose): a bound for stopping rules, not a method\n"
	"  -h, --help         this text\n"
	"\n"
	"exit status: 0 done, 2 bad usage, 3 the simulation failed.\n";

static int sim_usage(const char *why)
{
	fprintf(stderr, "rig bisect-sim: %s\n%s", why, sim_usage_text);
	return RIG_EXIT_USAGE;
}

static int apply_option(struct sim_options *o, int opt, const char *arg)
{
	struct bisect_sim_params *p = &o->params;
	switch (opt) {
	case 'n': o->one_commits = true; return parse_int(arg, 2, &p->commits);
	case 'p': o->one_p = true; return parse_real(arg, 1e-6, 1.0, &p->p);
	case 'q': return parse_real(arg, 0.0, 0.49, &p->q);
	case 't': return parse_int(arg, 1, &p->trials);
	case 's': return parse_seed(arg, &p->seed);
	case 'c': return parse_real(arg, 0.5, 0.9999, &p->confidence);
	case 'm': return parse_int(arg, 0, &p->max_cycles);
	case 'N': return parse_int(arg, 1, &o->max_tries);
	case 'd': return parse_int(arg, 0, &p->detect_cycles);
	case 'k': p->stop_known_p = true; return 0;
	default: return -1;
	}
}

static int parse_sim_options(int argc, char **argv, struct sim_options *o)
{
	static const struct option longopts[] = {
		{ "commits", required_argument, NULL, 'n' },
		{ "p", required_argument, NULL, 'p' },
		{ "q", required_argument, NULL, 'q' },
		{ "trials", required_argument, NULL, 't' },
		{ "seed", required_argument, NULL, 's' },
		{ "confidence", required_argument, NULL, 'c' },
		{ "max-cycles", required_argument, NULL, 'm' },
		{ "max-tries", required_argument, NULL, 'N' },
		{ "detect-cycles", required_argument, NULL, 'd' },
		{ "stop-known-p", no_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	memset(o, 0, sizeof(*o));
	o->params = (struct bisect_sim_params){ .commits = 64, .p = 0.3, .q = 0.01,
		.confidence = 0.95, .trials = 200, .seed = 1 };
	o->max_tries = DEFAULT_MAX_TRIES;
	optind = 0;  /* glibc: full reset, so a second command in one process parses afresh */
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		if (opt == 'h')
			o->help = true;
		else if (opt == '?' || apply_option(o, opt, optarg) < 0)
			return -1;
	}
	return optind == argc ? 0 : -1;
}

struct sim_row {
	struct bisect_sim_stats unknown_p;   /* p estimated by the search */
	struct bisect_sim_stats known_p;     /* p given, as repeat-N's N is tuned for it */
	struct bisect_sim_stats repeat;
	int tries;
	bool reached;
};

static int simulate_row(const struct sim_options *o, struct sim_row *row)
{
	struct bisect_sim_params known = o->params;

	known.known_p = true;
	known.stop_known_p = false;
	known.detect_cycles = 0;
	if (bisect_sim_flake_aware(&o->params, &row->unknown_p) < 0 ||
	    bisect_sim_flake_aware(&known, &row->known_p) < 0)
		return -1;
	row->tries = bisect_sim_find_tries(&o->params, TARGET_ACCURACY, o->max_tries, &row->repeat,
					   &row->reached);
	return row->tries < 0 ? -1 : 0;
}

static void print_header(const struct sim_options *o)
{
	const struct bisect_sim_params *p = &o->params;
	printf("# flake-aware (FA) vs repeat-N bisect (ktest BISECT_TRIES): q=%.3f confidence=%.2f "
	       "trials=%d seed=%llu\n", p->q, p->confidence, p->trials, (unsigned long long)p->seed);
	printf("# FA: p estimated by the search (%d free cycles of the bad endpoint first)%s; FAk: told p\n",
	       p->detect_cycles, p->stop_known_p ? ", stopping told p (a bound)" : "");
	printf("# N: smallest repeat count reaching %.0f%% accuracy ('*': none up to %d, best shown)\n",
	       TARGET_ACCURACY * 100, o->max_tries);
	printf("# ratio: FA mean cycles / RN mean cycles (ratiok: FAk's); '-' when RN missed %.0f%%\n",
	       TARGET_ACCURACY * 100);
	printf("%7s %5s | %7s %9s | %7s %9s | %4s %7s %9s | %6s %6s\n", "commits", "p",
	       "FA acc", "FA cycles", "FAk acc", "FAk cyc", "N", "RN acc", "RN cycles",
	       "ratio", "ratiok");
}

/* A ratio against a baseline that never reached the target accuracy would flatter the baseline:
 * it is cheap because it is wrong. Print "-" instead. */
static void print_ratio(double numerator, const struct sim_row *r)
{
	if (r->reached)
		printf(" %6.2f", numerator / r->repeat.mean_cycles);
	else
		printf(" %6s", "-");
}

static void print_row(const struct bisect_sim_params *p, const struct sim_row *r)
{
	printf("%7d %5.2f | %7.3f %9.1f | %7.3f %9.1f | %3d%s %7.3f %9.1f |",
	       p->commits, p->p, r->unknown_p.accuracy, r->unknown_p.mean_cycles,
	       r->known_p.accuracy, r->known_p.mean_cycles, r->tries, r->reached ? " " : "*",
	       r->repeat.accuracy, r->repeat.mean_cycles);
	print_ratio(r->unknown_p.mean_cycles, r);
	print_ratio(r->known_p.mean_cycles, r);
	printf("\n");
	fflush(stdout);
}

static int run_cell(struct sim_options *o, int commits, double p)
{
	struct sim_row row;

	o->params.commits = commits;
	o->params.p = p;
	if (simulate_row(o, &row) < 0) {
		fprintf(stderr, "rig bisect-sim: simulation failed (commits=%d p=%.2f)\n", commits, p);
		return -1;
	}
	print_row(&o->params, &row);
	return 0;
}

int cmd_bisect_sim(int argc, char **argv)
{
	struct sim_options o;

	if (parse_sim_options(argc, argv, &o) < 0)
		return sim_usage("bad option or value");
	if (o.help) {
		fputs(sim_usage_text, stdout);
		return RIG_EXIT_PASS;
	}
	int n_list[TABLE_LEN(table_commits)];
	double p_list[TABLE_LEN(table_p)];
	int n_len = o.one_commits ? 1 : TABLE_LEN(table_commits);
	int p_len = o.one_p ? 1 : TABLE_LEN(table_p);
	for (int i = 0; i < n_len; i++)
		n_list[i] = o.one_commits ? o.params.commits : table_commits[i];
	for (int j = 0; j < p_len; j++)
		p_list[j] = o.one_p ? o.params.p : table_p[j];

	print_header(&o);
	for (int i = 0; i < n_len; i++) {
		for (int j = 0; j < p_len; j++) {
			if (run_cell(&o, n_list[i], p_list[j]) < 0)
				return RIG_EXIT_INFRA;
		}
	}
	return RIG_EXIT_PASS;
}

/* ---- rig bisect-step ---- */

/* After its --timeout, rig run gets SIGTERM: it marks the cycle in flight aborted and powers the
 * board off (seconds); only one still there after this is killed. */
#define STEP_STOP_GRACE_MS 30000

static const char step_usage_text[] =
	"usage: rig bisect-step [--timeout SECONDS] -- COMMAND [ARGS...]\n"
	"\n"
	"Run COMMAND (a rig run of the plan) for git bisect run and map its exit status:\n"
	"0 pass -> 0 good, 1 a verdict failed -> 1 bad, anything else (usage, infrastructure,\n"
	"a signal, the timeout) -> 125 skip. At its --timeout the command gets SIGTERM (rig run\n"
	"then marks the cycle in flight aborted and powers the board off), and SIGKILL 30 s later\n"
	"if it is still there.\n"
	"\n"
	"options:\n"
	"  --timeout S   stop the command after S seconds (default: no limit)\n"
	"  -h, --help    this text\n"
	"\n"
	"exit status: 0 good, 1 bad, 125 skip, 128 bad usage (git bisect run aborts).\n";

static int step_usage(const char *why)
{
	fprintf(stderr, "rig bisect-step: %s\n%s", why, step_usage_text);
	/* git bisect run must not treat our own usage error as "bad": abort instead. */
	return 128;
}

static int run_and_map(char **cmd, double timeout)
{
	struct process_spec spec = { .argv = cmd, .in = PROCESS_IO_INHERIT, .out = PROCESS_IO_INHERIT,
		.err = PROCESS_IO_INHERIT };
	struct process_result res;
	struct rig_err err = { 0 };
	enum bisect_step_code code;

	if (process_run(&spec, (long long)(timeout * 1000), STEP_STOP_GRACE_MS, 0, &res, &err) < 0) {
		fprintf(stderr, "rig bisect-step: %s\n", err.msg);
		return BISECT_STEP_SKIP;
	}
	/* 128+N (a signal ended it) is no rig exit status: skip, like every other unknown code */
	code = bisect_step_exit_code(res.exit_code, 0, res.timed_out);
	process_result_free(&res);
	fprintf(stderr, "rig bisect-step: %s -> %s\n", res.timed_out ? "timed out" : "run ended",
		code == BISECT_STEP_GOOD ? "good" : code == BISECT_STEP_BAD ? "bad" : "skip");
	return code;
}

int cmd_bisect_step(int argc, char **argv)
{
	double timeout = 0.0;
	int i = 1;

	for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(step_usage_text, stdout);
			return RIG_EXIT_PASS;
		}
		if (strcmp(argv[i], "--timeout") == 0 && i + 1 < argc) {
			if (parse_real(argv[++i], 0.0, 1e9, &timeout) < 0)
				return step_usage("bad --timeout");
		} else {
			return step_usage("unknown option");
		}
	}
	if (i + 1 >= argc)
		return step_usage("no command given");
	return run_and_map(&argv[i + 1], timeout);
}
