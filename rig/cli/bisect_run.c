/* rig bisect: find the first bad kernel commit on a real (or QEMU) board. */
#include "cli/bisect_run.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "bisect/history.h"
#include "cli/bisect.h"
#include "config/board.h"
#include "engine/resource_lock.h"
#include "results/bisects.h"

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

struct bisect_resources {
	struct history history;
	struct plan *plan;
	struct known_issues *known;
	struct board_lock *lock;
	struct results_db *db;
	FILE *log;
};

static void release(struct bisect_resources *r)
{
	if (r->log)
		fclose(r->log);
	results_close(r->db);
	board_lock_release(r->lock);
	known_free(r->known);
	plan_free(r->plan);
	history_free(&r->history);
}

/* The board is loaded once up front: the plan must suit it and its lock is held throughout. */
static int check_board(struct bisect_session *s, struct bisect_resources *r, struct rig_err *err)
{
	struct board *board = NULL;
	int rc = cli_load_board(&s->paths, s->args->board, &board, err);

	if (rc == 0)
		rc = plan_check_board(r->plan, board, err);
	/* every candidate is deployed to the board: one that boots what it has would test the
	 * same kernel for every commit and blame one of them */
	if (rc == 0)
		rc = cli_check_deploy(board, "rig bisect", true, s->args->append != NULL, err);
	if (rc == 0)
		rc = board_lock_acquire_board(board, NULL, &r->lock, err);
	board_free(board);
	return rc;
}

static int open_outputs(struct bisect_session *s, struct bisect_resources *r, struct rig_err *err)
{
	char path[PATH_MAX + 16];

	snprintf(path, sizeof(path), "%s/bisect.log", s->dir);
	if (!(r->log = fopen(path, "w")))
		return rig_err_set(err, RIG_EXIT_INFRA, "cannot write %s", path);
	if (s->args->db)
		snprintf(path, sizeof(path), "%s", s->args->db);
	else
		cli_path(path, sizeof(path), s->paths.out, "results.db");
	return results_open(path, RESULTS_OPEN_CREATE, &r->db, err);
}

static int set_up(struct bisect_session *s, struct bisect_resources *r, struct rig_err *err)
{
	const struct bisect_args *a = s->args;
	char path[PATH_MAX], name[128];

	cli_board_name(a->board, name, sizeof(name));
	cli_plan_path(&s->paths, a->plan, path, sizeof(path));
	if (history_load(a->kernel_src, a->good, a->bad, &r->history, err) < 0 ||
	    plan_load(path, &r->plan, err) < 0 || cli_load_known(&s->paths, a->known, &r->known, err) < 0 ||
	    cli_make_stamped_dir(&s->paths, "bisects", name, err) < 0)
		return -1;
	snprintf(s->dir, sizeof(s->dir), "%s", s->paths.run);
	if (check_board(s, r, err) < 0 || open_outputs(s, r, err) < 0)
		return -1;
	s->history = &r->history;
	s->plan = r->plan;
	s->known = r->known;
	s->db = r->db;
	s->log = r->log;
	struct results_bisect_info info = { .board = name, .plan = r->plan->name,
		.good = r->history.commits[0].sha,
		.bad = r->history.commits[r->history.n - 1].sha, .confidence = a->params.confidence };

	return results_bisect_begin(s->db, &info, &s->bisect_id, err);
}

static void say_answer(struct bisect_session *s, const struct bisect_driver_result *res)
{
	const struct bisect_verdict *v = &res->verdict;
	const struct history_commit *first = &s->history->commits[v->first];
	const struct history_commit *last = &s->history->commits[v->last];

	bisect_say(s, "%d steps, %d cycles, %d builds", res->steps, res->cycles, res->builds);
	if (v->status == BISECT_FOUND)
		printf("first bad commit: %s %s (confidence %.3f)\n", first->sha, first->subject,
		       v->confidence);
	else if (v->status == BISECT_RANGE)
		printf("first bad commit is one of %.12s..%.12s (skipped commits in between cannot be told "
		       "apart; confidence %.3f)\n", first->sha, last->sha, v->confidence);
	else
		printf("inconclusive: most probable first bad commit %s %s holds only %.3f "
		       "(raise --max-cycles or check the plan reproduces the failure)\n",
		       first->sha, first->subject, v->confidence);
	if (s->log)
		fprintf(s->log, "answer: %s %s %.12s..%.12s confidence %.3f\n",
			bisect_status_name(v->status), first->sha, first->sha, last->sha, v->confidence);
}

static int finish(struct bisect_session *s, int rc, const struct bisect_driver_result *res,
		  struct rig_err *err)
{
	const struct bisect_verdict *v = &res->verdict;
	struct rig_err end_err = { 0 };
	const char *status = rc < 0 ? (stop_requested ? "aborted" : "error") : bisect_status_name(v->status);

	if (rc < 0)
		bisect_say(s, "bisect stopped: %s", err->msg);
	else
		say_answer(s, res);
	if (results_bisect_end(s->db, s->bisect_id, status,
			       rc < 0 ? NULL : s->history->commits[v->first].sha,
			       rc < 0 ? -1.0 : v->confidence, &end_err) < 0)
		fprintf(stderr, "rig: %s\n", end_err.msg);
	if (rc < 0)
		return cli_fail(err);
	return v->status == BISECT_FOUND || v->status == BISECT_RANGE ? RIG_EXIT_PASS : RIG_EXIT_FAIL;
}

int cmd_bisect(int argc, char **argv)
{
	struct bisect_args a;
	struct bisect_session s = { .args = &a, .stop = &stop_requested };
	struct bisect_resources r = { 0 };
	struct bisect_driver_result res;
	struct rig_err err = { 0 };
	struct sigaction sa = { .sa_handler = on_signal };
	char name[128];
	int rc;

	if (bisect_parse_args(argc, argv, &a, &err) < 0)
		return cli_fail(&err);
	if (a.help) {
		fputs(bisect_usage, stdout);
		return 0;
	}
	cli_paths_init(&s.paths);
	if (set_up(&s, &r, &err) < 0) {
		release(&r);
		return cli_fail(&err);
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);   /* like rig run: a closed terminal ends it cleanly */
	sigaction(SIGQUIT, &sa, NULL);
	bisect_say(&s, "rig bisect: %zu commits after good %.12s up to bad %.12s, board %s, plan %s, "
		   "confidence %.2f; directory %s", r.history.n - 1, r.history.commits[0].sha,
		   r.history.commits[r.history.n - 1].sha, a.board, r.plan->name,
		   a.params.confidence, s.dir);
	cli_board_name(a.board, name, sizeof(name));
	if (bisect_load_prior(&s, &a, name, &err) < 0) {
		rc = finish(&s, -1, &res, &err);
		release(&r);
		return rc;
	}
	rc = bisect_drive(&r.history, &a.params, &bisect_rig_ops, &s, &res, &err);
	rc = finish(&s, rc, &res, &err);
	release(&r);
	return rc;
}
