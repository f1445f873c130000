#include "cli/dashboard.h"

#include "util/clock.h"

#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dashboards/render.h"
#include "dashboards/synth.h"
#include "util/number.h"
#include "results/db.h"

#define DEFAULT_CYCLES 20
#define DEFAULT_BOARDS 10

struct dashboard_args {
	struct dash_options render;
	bool out_given;
	long long synthetic_runs;     /* 0 = render --db */
	long long cycles, boards;
	bool keep;
	bool help;
};

static const char usage_text[] =
	"usage: rig dashboard [--db FILE] [--out DIR] [--nights N]\n"
	"       rig dashboard --synthetic-runs N [--cycles M] [--boards B] [--out DIR] [--keep]\n"
	"\n"
	"Write the pass/fail dashboard as a static site (index.html, boards/, runs/).\n"
	"\n"
	"  --db FILE             results database (default " RESULTS_DB_DEFAULT_PATH ")\n"
	"  --out DIR             output directory (default " DASH_DEFAULT_OUT ")\n"
	"  --nights N            night columns on the index (default 14; 0 = all)\n"
	"  --synthetic-runs N    benchmark: fill a temporary database with N runs and time the\n"
	"                        render (site in a temporary directory unless --out is given)\n"
	"  --cycles M            cycles per synthetic run (default 20)\n"
	"  --boards B            boards of the synthetic history (default 10)\n"
	"  --keep                keep the temporary database and site of a benchmark\n"
	"  -h, --help            this text\n"
	"\n"
	"Exit status: 0 written, 2 usage error or no database, 3 database or write error.\n";

static int parse_count(const char *opt, long long min, long long *value, struct rig_err *err)
{
	if (parse_number(optarg, min, INT_MAX, value))
		return rig_err_set(err, RIG_EXIT_USAGE, "--%s: '%s' is not a count", opt, optarg);
	return 0;
}

static int parse_option(int opt, struct dashboard_args *a, struct rig_err *err)
{
	long long n;

	switch (opt) {
	case 'd': a->render.db_path = optarg; return 0;
	case 'o': a->render.out_dir = optarg; a->out_given = true; return 0;
	case 'k': a->keep = true; return 0;
	case 'h': a->help = true; return 0;
	case 'n':
		if (parse_count("nights", 0, &n, err))
			return -1;
		a->render.nights = (int)n;
		return 0;
	case 's': return parse_count("synthetic-runs", 1, &a->synthetic_runs, err);
	case 'c': return parse_count("cycles", 0, &a->cycles, err);
	case 'b': return parse_count("boards", 1, &a->boards, err);
	default:
		return rig_err_set(err, RIG_EXIT_USAGE, "unhandled option; try 'rig dashboard --help'");
	}
}

static int parse_args(int argc, char **argv, struct dashboard_args *a, struct rig_err *err)
{
	static const struct option options[] = {
		{ "db", required_argument, NULL, 'd' },     { "out", required_argument, NULL, 'o' },
		{ "nights", required_argument, NULL, 'n' }, { "keep", no_argument, NULL, 'k' },
		{ "synthetic-runs", required_argument, NULL, 's' },
		{ "cycles", required_argument, NULL, 'c' }, { "boards", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },         { NULL, 0, NULL, 0 },
	};
	int opt;

	*a = (struct dashboard_args){
		.render = { .db_path = RESULTS_DB_DEFAULT_PATH, .out_dir = DASH_DEFAULT_OUT,
			    .nights = DASH_DEFAULT_NIGHTS },
		.cycles = DEFAULT_CYCLES, .boards = DEFAULT_BOARDS,
	};
	optind = 0;  /* getopt keeps state between calls; 0 also resets GNU's internal state */
	opterr = 0;  /* we word the error ourselves */
	while ((opt = getopt_long(argc, argv, "+h", options, NULL)) != -1) {
		if (opt == '?')
			return rig_err_set(err, RIG_EXIT_USAGE, "bad option or missing value: '%s'; "
					   "try 'rig dashboard --help'", argv[optind - 1]);
		if (parse_option(opt, a, err))
			return -1;
	}
	if (optind < argc)
		return rig_err_set(err, RIG_EXIT_USAGE, "unexpected argument '%s'", argv[optind]);
	return 0;
}

static int render(const struct dash_options *opt, FILE *out, struct rig_err *err)
{
	struct dash_stats stats;

	if (dash_render(opt, &stats, err))
		return -1;
	if (fprintf(out, "dashboard: %zu boards, %zu runs, %zu cycles in %.2f s -> %s/index.html\n",
		    stats.boards, stats.runs, stats.cycles, stats.seconds, opt->out_dir) < 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "cannot write output");
	return 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

/* Benchmark: fill a temporary database, time the render, remove both unless asked to keep. */
static int benchmark(struct dashboard_args *a, FILE *out, struct rig_err *err)
{
	struct dash_synth spec = { .runs = (int)a->synthetic_runs, .cycles = (int)a->cycles,
				   .boards = (int)a->boards };
	char dir[] = "/tmp/rig-dashboard-bench.XXXXXX", db[64], site[64];
	double start;
	int ret;

	if (!mkdtemp(dir))
		return rig_err_set(err, RIG_EXIT_INFRA, "dashboard: mkdtemp: %s", strerror(errno));
	snprintf(db, sizeof(db), "%s/results.db", dir);
	snprintf(site, sizeof(site), "%s/site", dir);
	a->render.db_path = db;
	if (!a->out_given)
		a->render.out_dir = site;
	start = monotonic_seconds();
	ret = dash_synth_fill(db, &spec, err);
	if (!ret && fprintf(out, "synthetic history: %d runs x %d cycles, %d boards, filled in "
			    "%.2f s\n", spec.runs, spec.cycles, spec.boards,
			    monotonic_seconds() - start) < 0)
		ret = rig_err_set(err, RIG_EXIT_INFRA, "cannot write output");
	if (!ret)
		ret = render(&a->render, out, err);
	if (a->keep)
		fprintf(out, "kept %s\n", dir);
	else if (nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0 && !ret)
		ret = rig_err_set(err, RIG_EXIT_INFRA, "dashboard: cannot remove %s", dir);
	return ret;
}

int cmd_dashboard_to(int argc, char **argv, FILE *out, FILE *errout)
{
	struct rig_err err = { 0 };
	struct dashboard_args args;
	int ret;

	ret = parse_args(argc, argv, &args, &err);
	if (ret == 0 && args.help)
		return fputs(usage_text, out) == EOF ? RIG_EXIT_INFRA : RIG_EXIT_PASS;
	if (ret == 0)
		ret = args.synthetic_runs ? benchmark(&args, out, &err)
					  : render(&args.render, out, &err);
	if (ret == 0)
		return RIG_EXIT_PASS;
	fprintf(errout, "rig dashboard: %s\n", err.msg);
	return err.class == RIG_EXIT_PASS ? RIG_EXIT_INFRA : (int)err.class;
}

int cmd_dashboard(int argc, char **argv)
{
	return cmd_dashboard_to(argc, argv, stdout, stderr);
}
