#include "cli/bisect_run.h"

#include "util/number.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

const char bisect_usage[] =
	"usage: rig bisect --board BOARD --plan PLAN --kernel-src TREE --good REV --bad REV [options]\n"
	"\n"
	"Find the first bad kernel commit between REV good and REV bad, even when the failure is\n"
	"intermittent: each candidate is built (kernel/build.sh with KERNEL_SRC=TREE KERNEL_REF=sha),\n"
	"booted on the board and put through the plan's cycles; every cycle's pass, fail or hang\n"
	"updates a posterior over the culprit, and the next candidate is the one whose outcome\n"
	"tells the most. Build failures and infrastructure errors skip a commit, never blame it.\n"
	"\n"
	"options:\n"
	"  --board BOARD          board name (boards/NAME.yaml) or board file\n"
	"  --plan PLAN            plan name (plans/NAME.yaml) or plan file: the cycles of one step\n"
	"  --kernel-src TREE      git tree (work tree or bare) holding both revisions\n"
	"  --good REV, --bad REV  a known good and a known bad commit (good an ancestor of bad)\n"
	"  --confidence C         stop when one commit holds posterior mass C (default 0.95)\n"
	"  --max-cycles N         give up as inconclusive after N cycles (default 300)\n"
	"  --cycles-per-step N    cycles per boot of a candidate (default: the plan's cycles)\n"
	"  --false-alarm-rate Q   per-cycle failure rate of good commits (default 0.01)\n"
	"  --fail-rate P          per-cycle failure rate of bad commits, if known (default: estimated\n"
	"                         from the bad commit, refined as the search goes)\n"
	"  --endpoint-fails N     failures of the bad commit to see before searching (default 1)\n"
	"  --bad-history F/C      the bad commit already failed F of C cycles (the runs that found\n"
	"                         the regression): fed to the estimate of p first, not counted in\n"
	"                         --max-cycles; 30 such cycles save ~20 % of the search. Default:\n"
	"                         the bad commit's cycles in --db on this board at the plan's steps\n"
	"                         and knobs (kernels built from the same commit, no series)\n"
	"  --no-history           do not read that history from the database\n"
	"  --count-known          failures matching a known issue count as failures (to bisect one)\n"
	"  --append ARGS          extra kernel command line for every boot\n"
	"  --build-cmd PROGRAM    builder run with KERNEL_SRC, KERNEL_REF, KERNEL_LINK, KERNEL_PRUNE in\n"
	"                         its environment; its last stdout line is a directory holding bzImage\n"
	"                         and meta.json (default kernel/build.sh)\n"
	"  --keep-trees           keep per-commit build trees (made with a series; default: pruned)\n"
	"  --db FILE              results database (default out/results.db)\n"
	"  --known FILE           known issues (default known-issues/known-issues.yaml; 'none')\n"
	"  -q, --quiet            only the answer on stdout (the log is still written)\n"
	"  -h, --help             this text\n"
	"\n"
	"Writes out/bisects/BOARD/STAMP/: bisect.log (every step: commit, outcomes, posterior top 3),\n"
	"build-SHA.log per candidate and one run directory per step; the steps and the answer go to\n"
	"the bisects and bisect_steps tables too.\n"
	"\n"
	"exit status: 0 an answer at the confidence asked (one commit, or a range of commits that\n"
	"skips make indistinguishable), 1 inconclusive, 2 bad usage, 3 infrastructure failure.\n";

static int parse_double(const char *opt, const char *s, double lo, double hi, double *out,
			struct rig_err *err)
{
	if (parse_real(s, lo, hi, out) < 0)
		return rig_err_set(err, RIG_EXIT_USAGE, "--%s: '%s' is not in [%g, %g]", opt, s, lo, hi);
	return 0;
}

static int parse_count(const char *opt, const char *s, long lo, long hi, int *out,
		       struct rig_err *err)
{
	long long v;

	if (parse_number(s, lo, hi, &v) < 0)
		return rig_err_set(err, RIG_EXIT_USAGE, "--%s: '%s' is not %ld..%ld", opt, s, lo, hi);
	*out = (int)v;
	return 0;
}

/* F/C: F failures in C cycles, 0 <= F <= C. */
static int parse_history(const char *s, struct bisect_driver_params *p, struct rig_err *err)
{
	const char *slash = strchr(s, '/');
	char fails[32];
	long long f, c;

	if (!slash || (size_t)(slash - s) >= sizeof(fails))
		return rig_err_set(err, RIG_EXIT_USAGE, "--bad-history: '%s' is not FAILS/CYCLES", s);
	memcpy(fails, s, (size_t)(slash - s));
	fails[slash - s] = '\0';
	if (parse_number(fails, 0, 100000, &f) < 0 || parse_number(slash + 1, 0, 100000, &c) < 0 ||
	    f > c)
		return rig_err_set(err, RIG_EXIT_USAGE, "--bad-history: '%s' is not FAILS/CYCLES with "
				   "0 <= FAILS <= CYCLES <= 100000", s);
	p->history_fails = (int)f;
	p->history_cycles = (int)c;
	return 0;
}

static const struct option options[] = {
	{ "board", required_argument, NULL, 'b' }, { "plan", required_argument, NULL, 'p' },
	{ "kernel-src", required_argument, NULL, 'S' }, { "good", required_argument, NULL, 'g' },
	{ "bad", required_argument, NULL, 'B' }, { "confidence", required_argument, NULL, 'c' },
	{ "max-cycles", required_argument, NULL, 'm' },
	{ "cycles-per-step", required_argument, NULL, 'n' },
	{ "false-alarm-rate", required_argument, NULL, 'Q' },
	{ "fail-rate", required_argument, NULL, 'P' },
	{ "endpoint-fails", required_argument, NULL, 'e' },
	{ "bad-history", required_argument, NULL, 'H' },
	{ "no-history", no_argument, NULL, 'N' },
	{ "count-known", no_argument, NULL, 'k' }, { "append", required_argument, NULL, 'A' },
	{ "build-cmd", required_argument, NULL, 'C' }, { "keep-trees", no_argument, NULL, 'T' },
	{ "db", required_argument, NULL, 'd' }, { "known", required_argument, NULL, 'K' },
	{ "quiet", no_argument, NULL, 'q' }, { "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int numeric_option(struct bisect_args *a, int opt, const char *arg, struct rig_err *err)
{
	struct bisect_driver_params *p = &a->params;
	int cycles = 0;

	switch (opt) {
	case 'c': return parse_double("confidence", arg, 0.51, 0.9999, &p->confidence, err);
	case 'm': return parse_count("max-cycles", arg, 1, 100000, &p->max_cycles, err);
	case 'Q': return parse_double("false-alarm-rate", arg, 0.0, 0.49, &p->q, err);
	case 'P': return parse_double("fail-rate", arg, 0.001, 1.0, &p->fail_rate, err);
	case 'e': return parse_count("endpoint-fails", arg, 1, 1000, &p->endpoint_fails, err);
	case 'H':
		a->history_given = true;
		return parse_history(arg, p, err);
	case 'n':
		if (parse_count("cycles-per-step", arg, 1, DRIVER_MAX_OUTCOMES - 1, &cycles, err) < 0)
			return -1;
		a->cycles_per_step = (unsigned)cycles;
		return 0;
	}
	return rig_err_set(err, RIG_EXIT_USAGE, "bisect: unknown option (see rig bisect --help)");
}

static int apply_option(struct bisect_args *a, int opt, struct rig_err *err)
{
	switch (opt) {
	case 'b': a->board = optarg; return 0;
	case 'p': a->plan = optarg; return 0;
	case 'S': a->kernel_src = optarg; return 0;
	case 'g': a->good = optarg; return 0;
	case 'B': a->bad = optarg; return 0;
	case 'A': a->append = optarg; return 0;
	case 'C': a->build_cmd = optarg; return 0;
	case 'd': a->db = optarg; return 0;
	case 'K': a->known = optarg; return 0;
	case 'k': a->count_known = true; return 0;
	case 'N': a->no_history = true; return 0;
	case 'T': a->keep_trees = true; return 0;
	case 'q': a->quiet = true; return 0;
	case 'h': a->help = true; return 0;
	}
	return numeric_option(a, opt, optarg, err);
}

int bisect_parse_args(int argc, char **argv, struct bisect_args *a, struct rig_err *err)
{
	int opt;

	memset(a, 0, sizeof(*a));
	a->params = (struct bisect_driver_params){ .confidence = 0.95, .q = 0.01, .max_cycles = 300,
		.endpoint_fails = 1, .unusable_tries = 2 };
	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+qh", options, NULL)) != -1) {
		if (opt == '?')
			return rig_err_set(err, RIG_EXIT_USAGE, "bisect: unknown option or missing value "
					   "'%s' (see rig bisect --help)", argv[optind - 1]);
		if (apply_option(a, opt, err) < 0)
			return -1;
	}
	if (optind < argc)
		return rig_err_set(err, RIG_EXIT_USAGE, "bisect: unexpected argument '%s'", argv[optind]);
	if (a->history_given && a->no_history)
		return rig_err_set(err, RIG_EXIT_USAGE, "bisect: --bad-history and --no-history "
				   "contradict each other");
	if (!a->help && (!a->board || !a->plan || !a->kernel_src || !a->good || !a->bad))
		return rig_err_set(err, RIG_EXIT_USAGE, "bisect: --board, --plan, --kernel-src, --good "
				   "and --bad are required (see rig bisect --help)");
	return 0;
}
