/* The knob-semantics verdict: what the kernel froze against what freeze_filesystems promised. */
#include "judge/knob.h"

#include <stdio.h>
#include <string.h>

#include "config/known.h"

/* Filesystems with FS_POWER_FREEZE: frozen at every suspend whatever the knob says. Their
 * superblocks are anonymous, so the traced s_id is the type's name. */
static const struct {
	const char *s_id;
	const char *since;
} always_frozen[] = {
	{ "efivarfs", "6.18" },
};

/* From 6.18 on suspend and hibernation call filesystems_freeze() whatever the knob (with the
 * knob at 0 it freezes the FS_POWER_FREEZE filesystems only); before, only with the knob at 1. */
#define CALLED_AT_KNOB0_SINCE "6.18"

static bool at_least(const char *version, const char *since)
{
	return version && known_has_version(version) && known_version_cmp(version, since) >= 0;
}

bool knob_always_frozen(const char *s_id, const char *kernel_version)
{
	for (size_t i = 0; i < sizeof(always_frozen) / sizeof(always_frozen[0]); i++)
		if (strcmp(s_id, always_frozen[i].s_id) == 0 &&
		    at_least(kernel_version, always_frozen[i].since))
			return true;
	return false;
}

const struct frozen_dev *knob_traced_dev(const struct frozen_window *w,
					 const struct board_filesystem *fs)
{
	bool is_image = strncmp(fs->device, "/dev/", 5) != 0;
	const char *base = strrchr(fs->device, '/');

	base = base ? base + 1 : fs->device;
	for (unsigned i = 0; i < w->n_frozen; i++) {
		if (is_image ? strncmp(w->devs[i].dev, "loop", 4) == 0
			     : strcmp(w->devs[i].dev, base) == 0)
			return &w->devs[i];
	}
	return NULL;
}

/* Appends s to the comma-separated list out. */
static void list_add(char *out, size_t size, const char *s)
{
	size_t used = strlen(out);

	if (used < size)
		snprintf(out + used, size - used, "%s%s", used ? "," : "", s);
}

static enum results_verdict_result knob_off(const struct frozen_window *w, const char *kernel,
					    char *detail, size_t size)
{
	char wrong[256] = "", always[128] = "";

	if (!w->seen) {
		if (at_least(kernel, CALLED_AT_KNOB0_SINCE)) {
			snprintf(detail, size,
				 "freeze_filesystems=0, kernel %s: no filesystems_freeze() traced, though "
				 "since " CALLED_AT_KNOB0_SINCE " every suspend calls it: no evidence", kernel);
			return RESULTS_VERDICT_SKIP;
		}
		snprintf(detail, size,
			 "freeze_filesystems=0, kernel %s: filesystems_freeze() not called, nothing frozen",
			 kernel);
		return RESULTS_VERDICT_PASS;
	}
	for (unsigned i = 0; i < w->n_frozen; i++) {
		if (knob_always_frozen(w->devs[i].dev, kernel))
			list_add(always, sizeof(always), w->devs[i].dev);
		else
			list_add(wrong, sizeof(wrong), w->devs[i].dev);
	}
	if (*wrong) {
		snprintf(detail, size,
			 "freeze_filesystems=0, kernel %s: the kernel froze %s (the knob says none; "
			 "always frozen: %s)", kernel, wrong, *always ? always : "none of them");
		return RESULTS_VERDICT_FAIL;
	}
	snprintf(detail, size, "freeze_filesystems=0, kernel %s: filesystems_freeze() froze %s%s%s",
		 kernel, *always ? "only " : "nothing", always,
		 *always ? " (always frozen: FS_POWER_FREEZE)" : "");
	return RESULTS_VERDICT_PASS;
}

static enum results_verdict_result knob_on(const struct frozen_window *w, const char *kernel,
					   const struct board *b, char *detail, size_t size)
{
	char missing[256] = "";

	if (!w->seen) {
		snprintf(detail, size,
			 "freeze_filesystems=1, kernel %s: no filesystems_freeze() traced: no evidence",
			 kernel);
		return RESULTS_VERDICT_SKIP;
	}
	for (size_t i = 0; i < b->n_filesystems; i++)
		if (!knob_traced_dev(w, &b->filesystems[i]))
			list_add(missing, sizeof(missing), b->filesystems[i].name);
	if (*missing) {
		snprintf(detail, size,
			 "freeze_filesystems=1, kernel %s: the kernel did not freeze %s (froze: %s)",
			 kernel, missing, *w->order ? w->order : "nothing");
		return RESULTS_VERDICT_FAIL;
	}
	snprintf(detail, size, "freeze_filesystems=1, kernel %s: all %zu filesystems frozen: %s",
		 kernel, b->n_filesystems, w->order);
	return RESULTS_VERDICT_PASS;
}

enum results_verdict_result knob_judge(const struct frozen_window *w, int knob,
				       const char *kernel_version, const struct board *b,
				       char *detail, size_t size)
{
	const char *kernel = kernel_version && *kernel_version ? kernel_version : "unknown";

	if (knob == 0)
		return knob_off(w, kernel, detail, size);
	if (knob == 1)
		return knob_on(w, kernel, b, detail, size);
	snprintf(detail, size, "kernel %s has no freeze_filesystems knob: nothing promised", kernel);
	return RESULTS_VERDICT_SKIP;
}
