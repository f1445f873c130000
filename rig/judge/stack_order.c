/* The order verdict on the stack graph: freeze from the top down, thaw everything. */
#include "judge/stack_order.h"

#include <stdio.h>
#include <string.h>

#include "judge/knob.h"
#include "judge/stack.h"

/* Appends "; "-separated text to out. */
static void add(char *out, size_t size, const char *text)
{
	size_t used = strlen(out);

	if (used < size)
		snprintf(out + used, size - used, "%s%s", used ? "; " : "", text);
}

/* A freeze or thaw that was still running when the board hung: "" when none. */
static void unfinished(const struct frozen_window *w, char *out, size_t size)
{
	const struct frozen_dev *d = NULL;

	for (unsigned i = 0; i < w->n_frozen && !d; i++)
		if (!w->devs[i].returned)
			d = &w->devs[i];
	out[0] = '\0';
	if (w->seen && !w->freeze_done)
		snprintf(out, size, "filesystems_freeze() never returned%s%s%s", d ? " (freeze_super(" : "",
			 d ? d->dev : "", d ? ") did not return)" : "");
	else if (w->thaw_seen && !w->thaw_done)
		snprintf(out, size, "filesystems_thaw() never returned");
}

/* Every pair upper-above-lower that the kernel both froze: out of order ones into bad. Returns
 * how many pairs were judged. */
static unsigned judge_pairs(const struct frozen_window *w, const struct board *b,
			    const struct stack_graph *g, char *bad, size_t size)
{
	unsigned judged = 0;
	char one[160];

	for (size_t u = 0; u < g->n; u++) {
		const struct frozen_dev *du = knob_traced_dev(w, &b->filesystems[u]);

		for (size_t l = 0; du && l < g->n; l++) {
			const struct frozen_dev *dl = knob_traced_dev(w, &b->filesystems[l]);

			if (!g->beneath[u][l] || !dl || dl == du)
				continue;
			judged++;
			if (dl < du) {    /* devs[] is in the order freeze_super() was entered */
				snprintf(one, sizeof(one), "%s (holding %s) frozen before %s", dl->dev,
					 b->filesystems[u].name, du->dev);
				add(bad, size, one);
			}
		}
	}
	return judged;
}

/* After a finished thaw: the board's frozen filesystems that thaw_super() never saw. */
static void never_thawed(const struct frozen_window *w, const struct board *b, char *out,
			 size_t size)
{
	char one[96];

	out[0] = '\0';
	if (!w->thaw_done)
		return;
	for (size_t i = 0; i < b->n_filesystems; i++) {
		const struct frozen_dev *d = knob_traced_dev(w, &b->filesystems[i]);

		if (d && !d->thawed_ns) {
			snprintf(one, sizeof(one), "%s (%s) frozen, never thawed", b->filesystems[i].name,
				 d->dev);
			add(out, size, one);
		}
	}
}

static bool any_edge(const struct stack_graph *g)
{
	for (size_t u = 0; u < g->n; u++)
		for (size_t l = 0; l < g->n; l++)
			if (g->beneath[u][l])
				return true;
	return false;
}

enum results_verdict_result stack_order_judge(const struct frozen_window *w, const struct board *b,
					      bool knob_on, bool hung, char *detail, size_t size)
{
	const char *order = *w->order ? w->order : "(none traced)";
	char bad[320] = "", stuck[128] = "", thaw[256];
	struct stack_graph g;
	unsigned judged;

	if (!knob_on || !w->seen) {
		snprintf(detail, size, "freeze order: %s%s", order,
			 !knob_on ? " (freeze_filesystems is not 1)" : " (no filesystems_freeze traced)");
		return RESULTS_VERDICT_SKIP;
	}
	stack_graph_of(b, &g);
	if (hung)
		unfinished(w, stuck, sizeof(stuck));
	judged = judge_pairs(w, b, &g, bad, sizeof(bad));
	never_thawed(w, b, thaw, sizeof(thaw));
	if (*bad || *thaw) {
		snprintf(detail, size, "freeze order: %s: %s%s%s%s%s", order, bad,
			 *bad && *thaw ? "; " : "", thaw, *stuck ? "; " : "", stuck);
		return RESULTS_VERDICT_FAIL;
	}
	if (*stuck && any_edge(&g)) {
		snprintf(detail, size, "freeze order: %s; the board hung with stacked filesystems "
			 "mounted: %s", order, stuck);
		return RESULTS_VERDICT_FAIL;
	}
	if (!judged) {
		snprintf(detail, size, "freeze order: %s (no stacked filesystem frozen)", order);
		return RESULTS_VERDICT_SKIP;
	}
	snprintf(detail, size, "freeze order: %s (%u stacked pair%s frozen top down%s)", order, judged,
		 judged == 1 ? "" : "s", w->thaw_done ? ", all thawed" : "");
	return RESULTS_VERDICT_PASS;
}
