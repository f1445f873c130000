#include "cli/known.h"

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/context.h"
#include "config/known.h"
#include "results/read.h"
#include "util/err.h"
#include "util/number.h"

static const char known_usage[] =
	"usage: rig known [--db FILE] [--known FILE] [--nights N]\n"
	"\n"
	"For every known issue: when it was last seen in the results, on how many nights since the\n"
	"lab ran, and whether it looks fixed. An entry not seen for N nights with runs (default 7;\n"
	"twice that for intermittent entries) is reported as POSSIBLY FIXED: check, then retire it.\n"
	"\n"
	"  --db FILE      results database (default out/results.db)\n"
	"  --known FILE   known issues (default known-issues/known-issues.yaml)\n"
	"  --nights N     quiet nights before 'possibly fixed' (default 7)\n"
	"  -h, --help     this text\n";

struct known_args {
	const char *db, *known;
	unsigned nights;
	bool help;
};

static int parse(int argc, char **argv, struct known_args *a, struct rig_err *err)
{
	static const struct option options[] = {
		{ "db", required_argument, NULL, 'd' }, { "known", required_argument, NULL, 'k' },
		{ "nights", required_argument, NULL, 'n' }, { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	memset(a, 0, sizeof(*a));
	a->nights = KNOWN_QUIET_NIGHTS_DEFAULT;
	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+h", options, NULL)) != -1) {
		switch (opt) {
		case 'd': a->db = optarg; break;
		case 'k': a->known = optarg; break;
		case 'h': a->help = true; break;
		case 'n':
			if (parse_uint(optarg, 1, KNOWN_NIGHTS_MAX, &a->nights) < 0)
				return rig_err_set(err, RIG_EXIT_USAGE, "--nights: '%s' is not 1..%u",
						   optarg, KNOWN_NIGHTS_MAX);
			break;
		default:
			return rig_err_set(err, RIG_EXIT_USAGE, "known: unknown option '%s'", argv[optind - 1]);
		}
	}
	return 0;
}

int cmd_known(int argc, char **argv)
{
	struct known_args a;
	struct rig_err err = { 0 };
	struct cli_paths paths;
	struct known_issues *known = NULL;
	char db_path[PATH_MAX], known_path[PATH_MAX];
	struct results_db *db = NULL;
	int code = RIG_EXIT_PASS;

	if (parse(argc, argv, &a, &err) < 0)
		return cli_fail(&err);
	if (a.help) {
		fputs(known_usage, stdout);
		return RIG_EXIT_PASS;
	}
	cli_paths_init(&paths);
	if (a.db)
		snprintf(db_path, sizeof(db_path), "%s", a.db);
	else
		cli_path(db_path, sizeof(db_path), paths.out, "results.db");
	if (a.known)
		snprintf(known_path, sizeof(known_path), "%s", a.known);
	else
		cli_path(known_path, sizeof(known_path), paths.top, "known-issues/known-issues.yaml");
	if (known_load(known_path, &known, &err) < 0)
		return cli_fail(&err);
	if (results_open(db_path, RESULTS_OPEN_READ, &db, &err) < 0) {
		known_free(known);
		return cli_fail(&err);
	}
	printf("%-36s %-12s %-7s %s\n", "known issue", "last seen", "quiet", "status");
	for (size_t i = 0; i < known->n; i++) {
		const struct known_issue *k = &known->items[i];
		unsigned limit = known_quiet_nights(k, a.nights);
		char last[32];
		int quiet = 0;

		if (results_known_history(db, k->id, last, sizeof(last), &quiet, &err) < 0) {
			code = cli_fail(&err);
			break;
		}
		if (!last[0])
			snprintf(last, sizeof(last), "never");
		printf("%-36s %-12s %-7d %s\n", k->id, last, quiet,
		       strcmp(last, "never") == 0 ? "not seen yet"
		       : (unsigned)quiet >= limit ? "POSSIBLY FIXED"
						  : "active");
	}
	results_close(db);
	known_free(known);
	return code;
}
