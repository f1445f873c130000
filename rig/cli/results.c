#include "cli/results.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>

#include "results/db.h"
#include "results/format.h"
#include "util/number.h"
#include "cli/context.h"
#include "cli/stale.h"
#include "results/query.h"
#include "results/slowest.h"

#define DEFAULT_LAST 20
#define DEFAULT_TOP 5

struct results_args {
	const char *db_path;
	bool json;
	long long run_id;        /* 0 = list runs */
	int last;
	const char *board;
	bool repair;
	bool slowest;
	const char *kernel;
	int top;                 /* --slowest-devices: per phase; 0 = all */
	bool help;
};

static const char usage_text[] =
	"usage: rig results [--db FILE] [--json] [--run ID] [--last N] [--board NAME]\n"
	"       rig results [--db FILE] --repair\n"
	"       rig results [--db FILE] [--json] --slowest-devices [--board NAME] [--kernel VERSION]\n"
	"                   [--top N]\n"
	"\n"
	"Show runs stored in the results database. It is opened read-only: showing never changes\n"
	"it, and works on a database in a directory you cannot write.\n"
	"\n"
	"  --db FILE     results database (default $OUT/results.db, OUT defaulting to ./out)\n"
	"  --json        print JSON instead of a text table\n"
	"  --run ID      show one run with its cycles, verdicts, measurements and time budget\n"
	"  --last N      show the N most recent runs (default 20; 0 = all)\n"
	"  --board NAME  only runs of this board\n"
	"  --repair      end as aborted every run left 'running' by a rig that is gone (killed\n"
	"                with SIGKILL, crashed): a run of this host whose board lock is free. Runs\n"
	"                of other hosts, and of boards locked now, are named and left. Writes.\n"
	"  --slowest-devices  per board, kernel and device PM phase, the devices whose callbacks\n"
	"                took longest (mean, max) over every cycle with a per-device timeline (plans\n"
	"                with `timeline: true`): cycles it was kept in of those traced, nights, the\n"
	"                mean on its latest night (the trend), failed callbacks, its worst cycle\n"
	"  --kernel VERSION  with --slowest-devices: only this kernel\n"
	"  --top N       with --slowest-devices: the N slowest per phase (default 5; 0 = all)\n"
	"  -h, --help    this text\n"
	"\n"
	"Exit status: 0 shown, 2 usage error or no database, 3 database error.\n";

static int parse_option(int opt, struct results_args *a, struct rig_err *err)
{
	long long n;

	switch (opt) {
	case 'd': a->db_path = optarg; return 0;
	case 'j': a->json = true; return 0;
	case 'b': a->board = optarg; return 0;
	case 'R': a->repair = true; return 0;
	case 'S': a->slowest = true; return 0;
	case 'k': a->kernel = optarg; return 0;
	case 't':
		if (parse_number(optarg, 0, INT_MAX, &n))
			return rig_err_set(err, RIG_EXIT_USAGE, "--top: '%s' is not a count", optarg);
		a->top = (int)n;
		return 0;
	case 'h': a->help = true; return 0;
	case 'r':
		if (parse_number(optarg, 1, LLONG_MAX, &a->run_id))
			return rig_err_set(err, RIG_EXIT_USAGE, "--run: '%s' is not a run id", optarg);
		return 0;
	case 'l':
		if (parse_number(optarg, 0, INT_MAX, &n))
			return rig_err_set(err, RIG_EXIT_USAGE, "--last: '%s' is not a count", optarg);
		a->last = (int)n;
		return 0;
	default:
		return rig_err_set(err, RIG_EXIT_USAGE, "unhandled option; try 'rig results --help'");
	}
}

static char default_db[PATH_MAX] = RESULTS_DB_DEFAULT_PATH;

static int parse_args(int argc, char **argv, struct results_args *a, struct rig_err *err)
{
	static const struct option options[] = {
		{ "db", required_argument, NULL, 'd' },   { "json", no_argument, NULL, 'j' },
		{ "run", required_argument, NULL, 'r' },  { "last", required_argument, NULL, 'l' },
		{ "board", required_argument, NULL, 'b' }, { "help", no_argument, NULL, 'h' },
		{ "repair", no_argument, NULL, 'R' },
		{ "slowest-devices", no_argument, NULL, 'S' }, { "kernel", required_argument, NULL, 'k' },
		{ "top", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	*a = (struct results_args){ .db_path = default_db, .last = DEFAULT_LAST, .top = DEFAULT_TOP };
	optind = 0;  /* getopt keeps state between calls; 0 also resets GNU's internal state */
	opterr = 0;  /* we word the error ourselves */
	while ((opt = getopt_long(argc, argv, "+h", options, NULL)) != -1) {
		if (opt == '?')
			return rig_err_set(err, RIG_EXIT_USAGE, "bad option or missing value: '%s'; "
					   "try 'rig results --help'", argv[optind - 1]);
		if (parse_option(opt, a, err))
			return -1;
	}
	if (optind < argc)
		return rig_err_set(err, RIG_EXIT_USAGE, "unexpected argument '%s'", argv[optind]);
	if (a->slowest && (a->run_id || a->repair))
		return rig_err_set(err, RIG_EXIT_USAGE, "--slowest-devices does not go with --run or --repair");
	if (!a->slowest && a->kernel)
		return rig_err_set(err, RIG_EXIT_USAGE, "--kernel goes with --slowest-devices");
	return 0;
}

static int print_json(FILE *out, const char *key, json_t *value, struct rig_err *err)
{
	json_t *doc = json_pack("{sO}", key, value);
	int ret = 0;

	if (!doc || json_dumpf(doc, out, JSON_INDENT(2) | JSON_SORT_KEYS) || fputc('\n', out) == EOF)
		ret = rig_err_set(err, RIG_EXIT_INFRA, "cannot write JSON output");
	json_decref(doc);
	return ret;
}

static int show(struct results_db *db, const struct results_args *a, FILE *out,
		struct rig_err *err)
{
	struct results_run_filter filter = { .board = a->board, .last = a->last };
	json_t *data;
	int ret;

	if (a->slowest) {
		struct results_slow_filter sf = { .board = a->board, .kernel = a->kernel,
						  .per_phase = a->top };

		return results_print_slowest(db, &sf, a->json, out, err);
	}
	if (a->run_id ? results_query_run(db, a->run_id, &data, err)
		      : results_query_runs(db, &filter, &data, err))
		return -1;
	if (a->json)
		ret = print_json(out, a->run_id ? "run" : "runs", data, err);
	else if ((a->run_id ? results_format_run(out, data) : results_format_runs(out, data)))
		ret = rig_err_set(err, RIG_EXIT_INFRA, "cannot write output");
	else
		ret = 0;
	json_decref(data);
	return ret;
}

static int repair(struct results_db *db, FILE *out, struct rig_err *err)
{
	int fixed;

	return cli_stale_repair(db, out, &fixed, err);
}

int cmd_results_to(int argc, char **argv, FILE *out, FILE *errout)
{
	struct rig_err err = { 0 };
	struct results_args args;
	struct results_db *db = NULL;
	int ret;

	ret = parse_args(argc, argv, &args, &err);
	if (ret == 0 && args.help)
		return fputs(usage_text, out) == EOF ? RIG_EXIT_INFRA : RIG_EXIT_PASS;
	if (ret == 0 && args.db_path == default_db) {
		/* The default follows $OUT like rig run's, so both find the same database. */
		struct cli_paths paths;

		cli_paths_init(&paths);
		cli_path(default_db, sizeof(default_db), paths.out, "results.db");
	}
	if (ret == 0)
		ret = results_open(args.db_path, args.repair ? RESULTS_OPEN_EXISTING : RESULTS_OPEN_READ,
				   &db, &err);
	if (ret == 0)
		ret = args.repair ? repair(db, out, &err) : show(db, &args, out, &err);
	results_close(db);
	if (ret == 0)
		return fflush(out) == 0 ? RIG_EXIT_PASS : RIG_EXIT_INFRA;
	fprintf(errout, "rig results: %s\n", err.msg);
	return err.class;
}

int cmd_results(int argc, char **argv)
{
	return cmd_results_to(argc, argv, stdout, stderr);
}
