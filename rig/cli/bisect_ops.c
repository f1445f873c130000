/* rig bisect's build and test operations: kernel/build.sh (or --build-cmd) and the cycle engine. */
#include "cli/bisect_run.h"

#include "util/clock.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"
#include "results/bisects.h"
#include "results/outcomes.h"
#include "util/process.h"

/* The builder prints progress on stderr (into the log) and its answer, a directory, last. */
#define BUILD_OUTPUT_MAX ((size_t)1 << 20)

void bisect_say(struct bisect_session *s, const char *fmt, ...)
{
	va_list ap;

	if (!s->args->quiet) {
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		putchar('\n');
		fflush(stdout);
	}
	if (s->log) {
		va_start(ap, fmt);
		vfprintf(s->log, fmt, ap);
		va_end(ap);
		fputc('\n', s->log);
		fflush(s->log);
	}
}

struct build_env {
	char src[PATH_MAX + 16], ref[64], out[PATH_MAX + 8];
	char *vars[6];
};

static void build_env_init(struct build_env *e, const struct bisect_session *s, const char *sha)
{
	char abs_src[PATH_MAX];
	const char *src = realpath(s->args->kernel_src, abs_src) ? abs_src : s->args->kernel_src;

	snprintf(e->src, sizeof(e->src), "KERNEL_SRC=%s", src);
	snprintf(e->ref, sizeof(e->ref), "KERNEL_REF=%s", sha);
	snprintf(e->out, sizeof(e->out), "OUT=%s", s->paths.out);
	e->vars[0] = e->src;
	e->vars[1] = e->ref;
	e->vars[2] = e->out;
	e->vars[3] = "KERNEL_LINK=bisect-kernel";
	e->vars[4] = s->args->keep_trees ? "KERNEL_PRUNE=0" : "KERNEL_PRUNE=1";
	e->vars[5] = NULL;
}

/* The builder's answer must be a directory with a kernel the board can boot. */
static int check_artefact(const char *stdout_text, char *artefact, size_t size)
{
	char kernel[PATH_MAX + 16];

	if (process_last_line(stdout_text, artefact, size) < 0)
		return -1;
	snprintf(kernel, sizeof(kernel), "%s/bzImage", artefact);
	return access(kernel, R_OK);
}

static int build_commit(void *ctx, const struct history_commit *c, char *artefact, size_t size,
			struct rig_err *err)
{
	struct bisect_session *s = ctx;
	char cmd[PATH_MAX + 32], log[PATH_MAX + 64];
	struct build_env env;
	struct process_result res;
	int code;
	double start = monotonic_seconds();

	if (s->args->build_cmd)
		snprintf(cmd, sizeof(cmd), "%s", s->args->build_cmd);
	else
		cli_path(cmd, sizeof(cmd), s->paths.top, "kernel/build.sh");
	snprintf(log, sizeof(log), "%s/build-%.12s.log", s->dir, c->sha);
	build_env_init(&env, s, c->sha);
	char *argv[] = { cmd, NULL };
	struct process_spec spec = { .argv = argv, .env_add = env.vars, .in = PROCESS_IO_INHERIT,
		.out = PROCESS_IO_CAPTURE, .err = PROCESS_IO_APPEND, .err_path = log };

	bisect_say(s, "building %.12s %s (log %s)", c->sha, c->subject, log);
	if (process_run(&spec, 0, 0, BUILD_OUTPUT_MAX, &res, err) < 0) {
		struct rig_err why = *err;

		return rig_err_set(err, RIG_EXIT_USAGE, "build command: %s (see %s)", why.msg, log);
	}
	code = res.exit_code;
	if (code == 0 && check_artefact(res.out, artefact, size) == 0) {
		bisect_say(s, "  built in %.0f s: %s", monotonic_seconds() - start, artefact);
		process_result_free(&res);
		return 0;
	}
	process_result_free(&res);
	if (code == 126 || code == 127)
		return rig_err_set(err, RIG_EXIT_USAGE, "build command %s could not run (exit %d): see %s",
				   cmd, code, log);
	bisect_say(s, "  build failed (exit %d, no bootable kernel): the commit is skipped; see %s",
		   code, log);
	return 1;
}

/* This step's run directory: <bisect dir>/step-NN-<sha12>, and the board loaded with it. */
static int load_step_board(struct bisect_session *s, const struct history_commit *c,
			   const char *artefact, struct cli_paths *paths, struct board **board,
			   struct rig_err *err)
{
	*paths = s->paths;
	if ((size_t)snprintf(paths->run, sizeof(paths->run), "%s/step-%02d-%.12s", s->dir,
			     s->steps_started, c->sha) >= sizeof(paths->run))
		return rig_err_set(err, RIG_EXIT_USAGE, "run directory path too long");
	if (mkdir(paths->run, 0755) < 0 && errno != EEXIST)
		return rig_err_set(err, RIG_EXIT_INFRA, "mkdir %s: %s", paths->run, strerror(errno));
	if (cli_load_board(paths, s->args->board, board, err) < 0)
		return -1;
	return cli_override_boot(*board, artefact, s->args->append, err);
}

static int test_commit(void *ctx, const struct history_commit *c, const char *artefact,
		       char *outcomes, size_t size, struct rig_err *err)
{
	struct bisect_session *s = ctx;
	struct cli_paths paths;
	struct board *board = NULL;
	struct engine_totals totals = { 0 };
	char meta[PATH_MAX + 16];
	int code;

	outcomes[0] = '\0';
	if (load_step_board(s, c, artefact, &paths, &board, err) < 0) {
		board_free(board);
		return -1;
	}
	s->steps_started++;
	snprintf(meta, sizeof(meta), "%s/meta.json", artefact);
	struct engine_options opts = { .run_dir = paths.run, .kernel_meta_path = meta,
		.cycles = s->args->cycles_per_step, .progress = s->args->quiet ? NULL : stdout,
		.known = s->known, .stop = s->stop };

	bisect_say(s, "testing %.12s: plan %s (run directory %s)", c->sha, s->plan->name, paths.run);
	code = engine_run(board, s->plan, s->db, &opts, &totals, err);
	board_free(board);
	if (*s->stop)
		return rig_err_set(err, RIG_EXIT_INFRA, "interrupted");
	if (code == RIG_EXIT_USAGE)
		return -1;
	if (code == RIG_EXIT_INFRA)
		bisect_say(s, "  infrastructure error: %s", err->msg);
	if (totals.run_id > 0 &&
	    results_run_outcomes(s->db, totals.run_id, s->args->count_known, outcomes, size, err) < 0)
		return -1;
	return 0;
}

static int count_failures(const char *outcomes)
{
	int n = 0;

	for (const char *o = outcomes; *o; o++)
		n += *o == OUTCOME_FAIL || *o == OUTCOME_HANG;
	return n;
}

static void say_step(struct bisect_session *s, const struct bisect_step_report *r)
{
	char top[256] = "";
	size_t len = 0;

	for (int i = 0; i < r->n_top && len < sizeof(top); i++)
		len += (size_t)snprintf(top + len, sizeof(top) - len, "%s%.12s %.3f", i ? ", " : "",
					s->history->commits[r->top[i]].sha, r->top_p[i]);
	bisect_say(s, "step %d: %.12s (%d of %zu) %s%s%s: %d failed of %zu; %d cycles in all, "
		   "p ~ %.2f; most probable culprits: %s", r->step, r->c->sha, r->commit,
		   s->history->n - 1, r->outcomes, r->note && *r->outcomes ? " " : "",
		   r->note ? r->note : "", count_failures(r->outcomes), strlen(r->outcomes),
		   r->cycles_total, r->fail_rate, top);
}

static int record_step(void *ctx, const struct bisect_step_report *r, struct rig_err *err)
{
	struct bisect_session *s = ctx;
	const char *top_commits[DRIVER_TOP];
	char verdict[DRIVER_MAX_OUTCOMES + 64];

	say_step(s, r);
	for (int i = 0; i < r->n_top; i++)
		top_commits[i] = s->history->commits[r->top[i]].sha;
	snprintf(verdict, sizeof(verdict), "%s%s%s", r->outcomes, r->note && *r->outcomes ? " " : "",
		 r->note ? r->note : "");
	struct results_bisect_step step = { .idx = r->step, .commit = r->c->sha,
		.cycles = (int)strlen(r->outcomes), .fails = count_failures(r->outcomes),
		.verdict = verdict, .n_top = (size_t)r->n_top, .top_commits = top_commits,
		.top_probs = r->top_p };

	return results_bisect_add_step(s->db, s->bisect_id, &step, err);
}

const struct bisect_driver_ops bisect_rig_ops = {
	.build = build_commit,
	.test = test_commit,
	.step_done = record_step,
};
