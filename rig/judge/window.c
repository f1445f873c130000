/* The frozen window from the rig's kprobe events, and the order verdict on it. */
#include "judge/window.h"

#include <stdio.h>
#include <string.h>

static void note_freeze(struct frozen_window *w, const char *dev)
{
	size_t used = strlen(w->order);

	snprintf(w->order + used, sizeof(w->order) - used, "%s%s", used ? "," : "", dev);
	if (w->n_frozen < MAX_TRACED_DEVS) {
		struct frozen_dev *d = &w->devs[w->n_frozen++];

		memset(d, 0, sizeof(*d));
		snprintf(d->dev, sizeof(d->dev), "%s", dev);
	}
}

static void note_thaw(struct frozen_window *w, const char *dev, uint64_t ns)
{
	for (unsigned i = 0; i < w->n_frozen; i++)
		if (strcmp(w->devs[i].dev, dev) == 0 && !w->devs[i].thawed_ns)
			w->devs[i].thawed_ns = ns;
}

void window_feed(struct frozen_window *w, const char *ev, uint64_t ns, const char *dev)
{
	if (strcmp(ev, "fs_freeze") == 0 && !w->seen) {
		w->freeze_ns = ns;
		w->seen = true;
	} else if (strcmp(ev, "fs_freeze_done") == 0 && !w->freeze_done) {
		w->freeze_done_ns = ns;
		w->freeze_done = true;
	} else if (strcmp(ev, "fs_thaw") == 0) {
		w->thaw_ns = ns;
		w->thaw_seen = true;
	} else if (strcmp(ev, "fs_thaw_done") == 0) {
		w->thaw_done_ns = ns;
		w->thaw_done = true;
	/* Only the kernel's own freeze, between filesystems_freeze() and the thaw: a userspace
	 * fsfreeze before the suspend is not part of it. */
	} else if (strcmp(ev, "freeze_super") == 0 && *dev && w->seen && !w->thaw_seen) {
		note_freeze(w, dev);
	} else if (strcmp(ev, "freeze_super_ret") == 0 && w->n_frozen &&
		   !w->devs[w->n_frozen - 1].returned) {
		w->devs[w->n_frozen - 1].returned = true;
		w->devs[w->n_frozen - 1].frozen_ns = ns;
	} else if (strcmp(ev, "thaw_super") == 0 && *dev) {
		note_thaw(w, dev, ns);
	}
}

void trace_line_dev(const char *line, char *dev, size_t size)
{
	const char *at = strstr(line, "dev=\"");
	size_t n;

	dev[0] = '\0';
	if (!at || size == 0)
		return;
	at += 5;
	n = strcspn(at, "\"");
	if (at[n] != '"')
		return;               /* cut off: no name is better than half of one */
	snprintf(dev, size, "%.*s", (int)n, at);
}

static bool is_backing(const char *p, const char *backing)
{
	if (backing && *backing)
		return strcmp(p, backing) == 0;
	return strncmp(p, "sd", 2) == 0 || strncmp(p, "nvme", 4) == 0 || strncmp(p, "vd", 2) == 0 ||
	       strncmp(p, "mmcblk", 6) == 0;
}

/* The backing devices frozen before the first loop device ("" when none). */
static void frozen_before_loop(const struct frozen_window *w, const char *backing, char *out,
			       size_t size)
{
	size_t used = 0;

	out[0] = '\0';
	for (unsigned i = 0; i < w->n_frozen && strncmp(w->devs[i].dev, "loop", 4) != 0; i++)
		if (is_backing(w->devs[i].dev, backing))
			used += (size_t)snprintf(out + used, size > used ? size - used : 0, "%s%s",
						 used ? "," : "", w->devs[i].dev);
}

static const struct frozen_dev *first_loop(const struct frozen_window *w)
{
	for (unsigned i = 0; i < w->n_frozen; i++)
		if (strncmp(w->devs[i].dev, "loop", 4) == 0)
			return &w->devs[i];
	return NULL;
}

static const struct frozen_dev *stuck_freeze(const struct frozen_window *w)
{
	for (unsigned i = 0; i < w->n_frozen; i++)
		if (!w->devs[i].returned)
			return &w->devs[i];
	return NULL;
}

/* A freeze or thaw that was still running when the board hung: "" when none. */
static void unfinished(const struct frozen_window *w, char *out, size_t size)
{
	const struct frozen_dev *d = stuck_freeze(w);

	out[0] = '\0';
	if (w->seen && !w->freeze_done)
		snprintf(out, size, "filesystems_freeze() never returned%s%s%s", d ? " (freeze_super(" : "",
			 d ? d->dev : "", d ? ") did not return)" : "");
	else if (w->thaw_seen && !w->thaw_done)
		snprintf(out, size, "filesystems_thaw() never returned");
}

enum results_verdict_result order_judge(const struct frozen_window *w, bool knob_on,
					const char *backing, bool hung, char *detail, size_t size)
{
	const char *order = *w->order ? w->order : "(none traced)";
	char before[128], stuck[128] = "";

	if (hung)
		unfinished(w, stuck, sizeof(stuck));
	frozen_before_loop(w, backing, before, sizeof(before));
	if (!knob_on || !w->seen) {
		snprintf(detail, size, "freeze order: %s%s", order,
			 !knob_on ? " (freeze_filesystems is not 1)" : " (no filesystems_freeze traced)");
		return RESULTS_VERDICT_SKIP;
	}
	if (first_loop(w) && *before) {
		snprintf(detail, size,
			 "freeze order: %s: %s (holding the loop filesystem's image) frozen before it%s%s",
			 order, before, *stuck ? "; " : "", stuck);
		return RESULTS_VERDICT_FAIL;
	}
	if (backing && *stuck) {
		snprintf(detail, size, "freeze order: %s; the board hung with a loop filesystem mounted: %s",
			 order, stuck);
		return RESULTS_VERDICT_FAIL;
	}
	if (!first_loop(w)) {
		snprintf(detail, size, "freeze order: %s (no loop filesystem frozen)", order);
		return RESULTS_VERDICT_SKIP;
	}
	snprintf(detail, size, "freeze order: %s", order);
	return RESULTS_VERDICT_PASS;
}
