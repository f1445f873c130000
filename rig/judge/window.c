/* The frozen window from the rig's kprobe events (the order verdict on it: judge/stack_order.c). */
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
