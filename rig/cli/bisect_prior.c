/* rig bisect's prior evidence about p: the bad kernel's own cycles, given on the command line or
 * read from the results database (the nightly runs that found the regression). */
#include "cli/bisect_run.h"

#include <stdlib.h>
#include <string.h>

#include "results/outcomes.h"

static enum results_knob knob_of(int value)
{
	return value < 0 ? RESULTS_KNOB_UNKNOWN : value ? RESULTS_KNOB_ON : RESULTS_KNOB_OFF;
}

/* The plan's cycle-making steps as the engine stores them: step_format() text, and the knobs in
 * force when each runs (the plan's own, then its knob steps in order). */
struct prior_steps {
	struct results_history_step *steps;
	char (*descs)[128];
	size_t n;
};

static int plan_steps(const struct plan *plan, struct prior_steps *out, struct rig_err *err)
{
	struct plan_knob knob = plan->knob;

	out->n = 0;
	out->steps = calloc(plan->n_steps ? plan->n_steps : 1, sizeof(*out->steps));
	out->descs = calloc(plan->n_steps ? plan->n_steps : 1, sizeof(*out->descs));
	if (!out->steps || !out->descs)
		return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
	for (size_t i = 0; i < plan->n_steps; i++) {
		const struct step *st = &plan->steps[i];

		if (st->kind == STEP_KNOB) {
			if (st->u.knob.freeze_filesystems >= 0)
				knob.freeze_filesystems = st->u.knob.freeze_filesystems;
			if (st->u.knob.sync_on_suspend >= 0)
				knob.sync_on_suspend = st->u.knob.sync_on_suspend;
			continue;
		}
		if (st->kind == STEP_FSFREEZE)
			continue;
		step_format(st, out->descs[out->n], sizeof(out->descs[out->n]));
		out->steps[out->n] = (struct results_history_step){ .desc = out->descs[out->n],
			.knob_freeze_filesystems = knob_of(knob.freeze_filesystems),
			.knob_sync_on_suspend = knob_of(knob.sync_on_suspend) };
		out->n++;
	}
	return 0;
}

static void say_found(struct bisect_session *s, const struct results_history *h, const char *sha)
{
	char runs[160] = "";
	size_t len = 0;
	int listed = h->n_runs < RESULTS_HISTORY_RUNS ? h->n_runs : RESULTS_HISTORY_RUNS;

	for (int i = 0; i < listed && len < sizeof(runs); i++)
		len += (size_t)snprintf(runs + len, sizeof(runs) - len, "%s%lld", i ? ", " : "",
					(long long)h->runs[i]);
	if (h->n_runs > listed && len < sizeof(runs))
		snprintf(runs + len, sizeof(runs) - len, " and %d more", h->n_runs - listed);
	bisect_say(s, "history: %d of %d cycles of %s (%.12s) from runs %s: fed to the estimate of p "
		   "(--bad-history F/C to override, --no-history to ignore)", h->fails, h->cycles,
		   h->kernel_version[0] ? h->kernel_version : "the bad kernel", sha, runs);
}

int bisect_load_prior(struct bisect_session *s, struct bisect_args *a, const char *board,
		      struct rig_err *err)
{
	const char *sha = s->history->commits[s->history->n - 1].sha;
	struct prior_steps ps = { 0 };
	struct results_history h;
	int rc;

	if (a->history_given) {
		bisect_say(s, "history: %d of %d cycles of the bad commit, as --bad-history gave them",
			   a->params.history_fails, a->params.history_cycles);
		return 0;
	}
	if (a->no_history) {
		bisect_say(s, "history: not read (--no-history): p is estimated from this search alone");
		return 0;
	}
	rc = plan_steps(s->plan, &ps, err);
	if (rc == 0) {
		struct results_history_query q = { .board = board, .kernel_sha = sha, .steps = ps.steps,
			.n_steps = ps.n, .known_fails = a->count_known };

		rc = results_bad_history(s->db, &q, &h, err);
	}
	free(ps.steps);
	free(ps.descs);
	if (rc < 0)
		return -1;
	if (h.cycles == 0) {
		bisect_say(s, "history: no earlier cycles of %.12s on board %s at this plan's steps in "
			   "the results database: p is estimated from this search alone", sha, board);
		return 0;
	}
	say_found(s, &h, sha);
	a->params.history_fails = h.fails;
	a->params.history_cycles = h.cycles;
	return 0;
}
