#include "cli/lava.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli/context.h"
#include "cli/lava_internal.h"
#include "config/board.h"
#include "config/plan.h"
#include "lava/cases.h"
#include "lava/import.h"
#include "lava/render.h"
#include "results/db.h"
#include "util/number.h"

static const char usage_text[] =
	"usage: rig lava render --board B --plan P --out DIR [--kernel URL] [--initrd URL]\n"
	"                       [--night YYYY-MM-DD] [--jobs DIR]\n"
	"       rig lava submit --server URL --board B --plan P [--token-file F] [--kernel URL]\n"
	"                       [--initrd URL] [--night YYYY-MM-DD] [--jobs DIR] [--out DIR]\n"
	"                       [--no-wait] [--timeout S] [--poll S] [--db FILE]\n"
	"       rig lava import --db FILE (--log DISPATCHER_LOG | --rest FILE.json) [--board B]\n"
	"                       [--job-id N] [--server URL] [--known FILE]\n"
	"       rig lava import --db FILE --server URL (--job N [--follow] | --since DATE\n"
	"                       [--device D]) [--token-file F] [--board B] [--page-size N]\n"
	"                       [--known FILE]\n"
	"\n"
	"render  write DIR/<board>-<plan>.yaml, a LAVA job running the plan on the board\n"
	"        (templates and test definitions from jobs/; kernel and initramfs default to\n"
	"        file:// URLs of out/kernel/bzImage and out/image/initramfs.cpio)\n"
	"submit  render the job and submit it to the server's REST API; wait until it has\n"
	"        finished (progress on stderr; --timeout S, default 7200; --poll S, default 5),\n"
	"        then with --db import it. --no-wait: print the job id and return\n"
	"import  store a LAVA job as a run (source lava) in the results database: the evidence\n"
	"        its test definitions recorded on the board's console, judged by the rig's own\n"
	"        judge against the board's file (boards/B.yaml) with the known issues applied\n"
	"        (--known FILE, default known-issues/known-issues.yaml; 'none'), exactly as rig run\n"
	"        judges; a job of older test definitions is stored from its test results. From\n"
	"        a dispatcher log (output.yaml of lava-run, or a job log), a REST export\n"
	"        of /api/v0.2/jobs/<id>/tests/, or the server itself: --job N, or --since DATE\n"
	"        (YYYY-MM-DD or an ISO time, UTC) for every job finished after it (--device D:\n"
	"        only those that ran on D). --follow waits for job N to finish, as submit does.\n"
	"        Every page of the API's answers is read. A job is\n"
	"        stored once (server and job id are its key): importing it again stores nothing\n"
	"        and exits as the first import did. Each job is stored whole or not at all.\n"
	"\n"
	"The server's token: --token-file F, else $RIG_LAVA_TOKEN_FILE, else $RIG_LAVA_TOKEN\n"
	"(the server: --server, else $RIG_LAVA_SERVER). jobs/lava-lab.sh writes both for its lab.\n"
	"\n"
	"Exit status: render 0 written, 2 usage/configuration error; submit without --db 0 the\n"
	"job completed, 1 LAVA ended it incomplete, 3 canceled or still running at --timeout;\n"
	"import (and submit --db) 0 every verdict passed, 1 a verdict failed or a cycle hung,\n"
	"2 usage error, 3 no cycle ran, server or database error (--since: the worst job).\n";

static int parse_args(int argc, char **argv, struct lava_args *a, struct rig_err *err)
{
	static const struct option opts[] = {
		{"board", required_argument, NULL, 'b'}, {"plan", required_argument, NULL, 'p'},
		{"out", required_argument, NULL, 'o'}, {"kernel", required_argument, NULL, 'k'},
		{"initrd", required_argument, NULL, 'i'}, {"night", required_argument, NULL, 'n'},
		{"jobs", required_argument, NULL, 'J'}, {"db", required_argument, NULL, 'd'},
		{"log", required_argument, NULL, 'l'}, {"rest", required_argument, NULL, 'r'},
		{"job-id", required_argument, NULL, 'j'}, {"help", no_argument, NULL, 'h'},
		{"server", required_argument, NULL, 'S'}, {"token-file", required_argument, NULL, 'T'},
		{"job", required_argument, NULL, 'N'}, {"since", required_argument, NULL, 's'},
		{"device", required_argument, NULL, 'D'}, {"page-size", required_argument, NULL, 'P'},
		{"timeout", required_argument, NULL, 't'}, {"poll", required_argument, NULL, 'q'},
		{"no-wait", no_argument, NULL, 'W'}, {"follow", no_argument, NULL, 'F'},
		{"known", required_argument, NULL, 'K'},
		{NULL, 0, NULL, 0},
	};
	int opt;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'b': a->board = optarg; break;
		case 'p': a->plan = optarg; break;
		case 'o': a->out_dir = optarg; break;
		case 'k': a->kernel = optarg; break;
		case 'i': a->initrd = optarg; break;
		case 'n': a->night = optarg; break;
		case 'J': a->jobs = optarg; break;
		case 'd': a->db = optarg; break;
		case 'l': a->log = optarg; break;
		case 'r': a->rest = optarg; break;
		case 'j': a->job_id = optarg; break;
		case 'h': a->help = 1; break;
		case 'S': a->server = optarg; break;
		case 'T': a->token_file = optarg; break;
		case 'N': a->job = optarg; break;
		case 's': a->since = optarg; break;
		case 'D': a->device = optarg; break;
		case 'P': a->page_size = optarg; break;
		case 't': a->timeout = optarg; break;
		case 'q': a->poll = optarg; break;
		case 'W': a->no_wait = 1; break;
		case 'F': a->follow = 1; break;
		case 'K': a->known = optarg; break;
		default:
			return rig_err_set(err, RIG_EXIT_USAGE, "lava %s: unknown option '%s'; try 'rig lava --help'",
					   argv[0], argv[optind - 1]);
		}
	}
	if (optind < argc)
		return rig_err_set(err, RIG_EXIT_USAGE, "lava %s: unexpected argument '%s'", argv[0],
				   argv[optind]);
	return 0;
}

static int valid_night(const char *night)
{
	struct tm tm = {0};
	const char *end = strptime(night, "%Y-%m-%d", &tm);

	return end && !*end && strlen(night) == 10;
}

static void today(char *buf, size_t size)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(buf, size, "%Y-%m-%d", &tm);
}

static int file_url(char *buf, size_t size, const char *dir, const char *rel)
{
	char path[PATH_MAX];

	cli_path(path, sizeof(path), dir, rel);
	return snprintf(buf, size, "file://%s", path) >= (int)size ? -1 : 0;
}

struct render_inputs {
	struct board *board;
	struct plan *plan;
	struct lava_kernel_facts kernel_facts;
	char night[16], jobs[PATH_MAX], kernel[PATH_MAX + 8],
		initrd[PATH_MAX + 8], env[PATH_MAX + 8];
};

static int load_inputs(const struct lava_args *a, struct cli_paths *paths, struct render_inputs *in,
		       struct rig_err *err)
{
	char path[PATH_MAX];

	if (!a->board || !a->plan)
		return rig_err_set(err, RIG_EXIT_USAGE, "lava: --board and --plan are required");
	if (a->night && !valid_night(a->night))
		return rig_err_set(err, RIG_EXIT_USAGE, "--night: '%s' is not YYYY-MM-DD", a->night);
	snprintf(in->night, sizeof(in->night), "%s", a->night ? a->night : "");
	if (!a->night)
		today(in->night, sizeof(in->night));
	snprintf(paths->run, sizeof(paths->run), "%s", "{run}");
	cli_plan_path(paths, a->plan, path, sizeof(path));
	if (plan_load(path, &in->plan, err) || cli_load_board(paths, a->board, &in->board, err))
		return -1;
	cli_path(path, sizeof(path), paths->out, "kernel/meta.json");
	if (lava_kernel_meta(path, &in->kernel_facts, err))
		return -1;
	if (a->jobs)
		snprintf(in->jobs, sizeof(in->jobs), "%s", a->jobs);
	else
		cli_path(in->jobs, sizeof(in->jobs), paths->top, "jobs");
	snprintf(in->kernel, sizeof(in->kernel), "%s", a->kernel ? a->kernel : "");
	snprintf(in->initrd, sizeof(in->initrd), "%s", a->initrd ? a->initrd : "");
	if ((!a->kernel && file_url(in->kernel, sizeof(in->kernel), paths->out, "kernel/bzImage")) ||
	    (!a->initrd && file_url(in->initrd, sizeof(in->initrd), paths->out, "image/initramfs.cpio")))
		return rig_err_set(err, RIG_EXIT_USAGE, "output directory path too long");
	if (file_url(in->env, sizeof(in->env), in->jobs, "image/rig-lava-env.sh"))
		return rig_err_set(err, RIG_EXIT_USAGE, "jobs directory path too long");
	return 0;
}

static int write_job(const char *out_dir, const char *board, const char *plan, const char *yaml,
		     FILE *out, struct rig_err *err)
{
	char path[PATH_MAX];
	FILE *f;

	if (mkdir(out_dir, 0755) && errno != EEXIST)
		return rig_err_set(err, RIG_EXIT_USAGE, "%s: %s", out_dir, strerror(errno));
	if (snprintf(path, sizeof(path), "%s/%s-%s.yaml", out_dir, board, plan) >= (int)sizeof(path))
		return rig_err_set(err, RIG_EXIT_USAGE, "%s: path too long", out_dir);
	if (!(f = fopen(path, "w")))
		return rig_err_set(err, RIG_EXIT_USAGE, "%s: %s", path, strerror(errno));
	if (fputs(yaml, f) == EOF) {
		fclose(f);
		return rig_err_set(err, RIG_EXIT_INFRA, "%s: write failed", path);
	}
	if (fclose(f))
		return rig_err_set(err, RIG_EXIT_INFRA, "%s: %s", path, strerror(errno));
	fprintf(out, "%s\n", path);
	return 0;
}

static int render_text(const struct lava_args *a, struct render_inputs *in, char **yaml,
		       struct rig_err *err)
{
	struct cli_paths paths;
	struct lava_render_opts opts = {0};

	cli_paths_init(&paths);
	if (load_inputs(a, &paths, in, err))
		return -1;
	opts.jobs_dir = in->jobs;
	opts.kernel_url = in->kernel;
	opts.initrd_url = in->initrd;
	opts.env_url = in->env;
	opts.night = in->night;
	opts.kernel_version = in->kernel_facts.version;
	opts.kernel_sha = in->kernel_facts.sha;
	opts.s_id_offset = in->kernel_facts.s_id_offset;
	return lava_render_job(in->board, in->plan, &opts, yaml, err);
}

int lava_cli_render(const struct lava_args *a, char **yaml, char *name, size_t name_size,
		    struct rig_err *err)
{
	struct render_inputs in = {0};
	int rc = render_text(a, &in, yaml, err);

	if (!rc)
		snprintf(name, name_size, "%s-%s", in.board->name, in.plan->name);
	board_free(in.board);
	plan_free(in.plan);
	return rc;
}

static int do_render(const struct lava_args *a, FILE *out, struct rig_err *err)
{
	struct render_inputs in = {0};
	char *yaml = NULL;
	int rc;

	if (!a->out_dir)
		return rig_err_set(err, RIG_EXIT_USAGE, "lava render: --board, --plan and --out are required");
	rc = render_text(a, &in, &yaml, err);
	if (!rc)
		rc = write_job(a->out_dir, in.board->name, in.plan->name, yaml, out, err);
	free(yaml);
	board_free(in.board);
	plan_free(in.plan);
	return rc ? (int)err->class : RIG_EXIT_PASS;
}

/* The board's file and the known issues, to judge a job's evidence with: the board named by
 * --board, else by the job (its board.NAME case, or the board its definition names). A board
 * whose file is not here is only an error when there is evidence to judge
 * (lava/import_evidence.c says so). */
static int judging_inputs(const struct lava_args *a, const struct lava_cases *cases,
			  const struct lava_import_info *info, struct board **board,
			  struct known_issues **known, struct rig_err *err)
{
	struct cli_paths paths;
	const char *name = a->board ? a->board : info->board;
	struct rig_err ignored;

	for (size_t i = 0; !name && i < cases->n; i++)
		if (!strncmp(cases->v[i].name, "board.", 6) && strstr(cases->v[i].suite, "rig-setup"))
			name = cases->v[i].name + 6;
	cli_paths_init(&paths);
	if (name && cli_load_board(&paths, name, board, &ignored) < 0)
		*board = NULL;
	return cli_load_known(&paths, a->known, known, err);
}

int lava_cli_store(const struct lava_args *a, const struct lava_cases *cases,
		   const struct lava_import_info *info, FILE *out, int *code, struct rig_err *err)
{
	struct results_db *db = NULL;
	struct lava_import_info with_board = *info;
	struct lava_import_outcome got;
	struct board *board = NULL;
	struct known_issues *known = NULL;
	const char *job_id = info->lava_job_id;
	int rc = judging_inputs(a, cases, info, &board, &known, err);

	if (a->board)
		with_board.board = a->board;
	with_board.board_def = board;
	with_board.known = known;
	if (!rc)
		rc = results_open(a->db, RESULTS_OPEN_CREATE, &db, err);
	if (!rc)
		rc = lava_import_once(db, cases, &with_board, &got, err);
	results_close(db);
	board_free(board);
	known_free(known);
	if (rc)
		return -1;
	*code = got.exit_code;
	if (got.already)
		fprintf(out, "LAVA job %s: already stored as run %lld (%s); nothing imported\n", job_id,
			(long long)got.run_id, got.exit_code == RIG_EXIT_PASS ? "pass" :
			got.exit_code == RIG_EXIT_FAIL ? "fail" : "no cycle ran");
	else
		fprintf(out, "run %lld: %s%s%s (%s)\n", (long long)got.run_id,
			cases->n_console ? "its evidence judged" : "its test cases stored",
			job_id ? ", LAVA job " : "", job_id ? job_id : "",
			got.exit_code == RIG_EXIT_PASS ? "pass" :
			got.exit_code == RIG_EXIT_FAIL ? "fail" : "no cycle ran");
	return 0;
}

static int do_import(const struct lava_args *a, FILE *out, struct rig_err *err)
{
	struct lava_cases cases = {0};
	int code = RIG_EXIT_PASS, rc;
	long long id;

	if ((a->job || a->since) && !a->log && !a->rest)
		return lava_cmd_import_server(a, out, err);
	if (!a->db || !a->log == !a->rest)
		return rig_err_set(err, RIG_EXIT_USAGE, "lava import: --db and one of --log, --rest or "
				   "--server with --job or --since are required");
	if (a->job_id && parse_number(a->job_id, 0, LLONG_MAX, &id))
		return rig_err_set(err, RIG_EXIT_USAGE, "--job-id: '%s' is not a job id", a->job_id);
	rc = a->log ? lava_cases_from_log(a->log, &cases, err) : lava_cases_from_rest(a->rest, &cases, err);
	if (!rc) {
		struct lava_import_info info = {
			.lava_job_id = a->job_id, .lava_server = a->server,
			.log_path = a->log ? a->log : a->rest,
		};

		rc = lava_cli_store(a, &cases, &info, out, &code, err);
	}
	lava_cases_free(&cases);
	return rc ? (int)err->class : code;
}

int cmd_lava_to(int argc, char **argv, FILE *out, FILE *errout)
{
	struct lava_args a = {0};
	struct rig_err err = {0};
	const char *sub = argc > 1 ? argv[1] : NULL;
	int code;

	if (!sub || !strcmp(sub, "-h") || !strcmp(sub, "--help")) {
		fputs(usage_text, sub ? out : errout);
		return sub ? RIG_EXIT_PASS : RIG_EXIT_USAGE;
	}
	if (parse_args(argc - 1, argv + 1, &a, &err)) {
		fprintf(errout, "rig: %s\n", err.msg);
		return err.class;
	}
	if (a.help) {
		fputs(usage_text, out);
		return RIG_EXIT_PASS;
	}
	if (!strcmp(sub, "render"))
		code = do_render(&a, out, &err);
	else if (!strcmp(sub, "import"))
		code = do_import(&a, out, &err);
	else if (!strcmp(sub, "submit"))
		code = lava_cmd_submit(&a, out, &err);
	else
		code = rig_err_set(&err, RIG_EXIT_USAGE, "lava: unknown subcommand '%s' (render, submit, import)", sub);
	if (code < 0)
		code = (int)err.class;
	if (err.msg[0] && code != RIG_EXIT_PASS && code != RIG_EXIT_FAIL)
		fprintf(errout, "rig: %s\n", err.msg);
	return code;
}

int cmd_lava(int argc, char **argv)
{
	return cmd_lava_to(argc, argv, stdout, stderr);
}
