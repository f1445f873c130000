/* The hibernate-mode verdict (judge/hibernate_mode.h). */
#include "judge/hibernate_mode.h"

#include <stdio.h>
#include <string.h>

#include "util/kv.h"

void hib_path_feed(struct hib_path *p, const struct judge_event *ev, size_t n, double since)
{
	for (size_t i = 0; i < n; i++) {
		const struct kevent *e = &ev[i].ev;

		if (ev[i].host_ts < since)
			continue;
		/* what the hibernating kernel did; once a fresh kernel boots, its lines are the
		 * restore's (it loads the image too, but not in place) */
		if (e->kind == KEV_KERNEL_BOOT)
			p->booted = true;
		if (p->booted)
			continue;
		if (e->kind == KEV_IMAGE_SAVED)
			p->image_saved = true;
		else if (e->kind == KEV_IMAGE_LOADED)
			p->image_loaded = true;
		/* platform mode also enters S4's preparation while it takes the snapshot: only S4
		 * after the image is written is the firmware's power-off */
		else if (e->kind == KEV_ACPI_SLEEP && e->num == 4 && p->image_saved)
			p->s4_after_save = true;
		else if (e->kind == KEV_RESTART)
			p->restart = true;
		else if (e->kind == KEV_POWER_DOWN)
			p->power_down = true;
	}
}

void hib_path_reply(struct hib_path *p, const char *line)
{
	char error[48] = "";

	kv_get(line, "mode", p->kernel_mode, sizeof(p->kernel_mode));
	kv_get(line, "offered", p->offered, sizeof(p->offered));
	p->refused = kv_get(line, "error", error, sizeof(error)) &&
		     strcmp(error, "mode-not-offered") == 0;
}

const char *hib_went(const struct hib_path *p)
{
	if (p->refused || p->left == HIB_LEFT_NOT)
		return "stayed";
	if (p->left == HIB_LEFT_S3)
		return "s3";
	if (p->s4_after_save)
		return "s4";
	if (p->restart)
		return "reboot";
	return p->power_down ? "power-off" : "off";
}

const char *hib_came_back(const struct hib_path *p)
{
	if (p->refused)
		return "refused";
	if (p->back == HIB_BACK_FRESH_BOOT)
		return "fresh-boot";
	if (p->left == HIB_LEFT_NOT)
		return p->image_saved && p->image_loaded ? "in-place" : "returned";
	if (p->left == HIB_LEFT_S3 && !p->cut && !p->booted)
		return "ram";
	return "restored";
}

/* How a mode that powers off goes down, and whether it did. */
static bool went_as_asked(const struct hib_path *p, const char *went, const char **how)
{
	switch (p->asked) {
	case HIB_MODE_PLATFORM:
		*how = "ACPI S4 after the image";
		return strcmp(went, "s4") == 0;
	case HIB_MODE_REBOOT:
		*how = "a reset by the kernel";
		return strcmp(went, "reboot") == 0;
	case HIB_MODE_SUSPEND:
		*how = "S3 after the image";
		return strcmp(went, "s3") == 0;
	case HIB_MODE_TEST_RESUME:
		*how = "no power-off";
		return strcmp(went, "stayed") == 0;
	case HIB_MODE_SHUTDOWN:
		break;
	}
	*how = "a power-off (not S4, not a reset)";
	return strcmp(went, "power-off") == 0 || strcmp(went, "off") == 0;
}

static const char *back_asked(const struct hib_path *p, const char **how)
{
	if (p->discard_asked) {
		*how = "the image discarded by a noresume boot";
		return "fresh-boot";
	}
	if (p->asked == HIB_MODE_TEST_RESUME) {
		*how = "the image read back and restored in place";
		return "in-place";
	}
	if (p->asked == HIB_MODE_SUSPEND && !p->cut_asked) {
		*how = "woken by the rig, back from RAM without a restore";
		return "ram";
	}
	*how = p->cut_asked ? "the power cut in S3, the image restored at the next boot"
			    : "the image restored at power-on";
	return "restored";
}

bool hib_path_matches(const struct hib_path *p, char *expected, size_t size)
{
	const char *down, *up;
	bool went = went_as_asked(p, hib_went(p), &down);
	bool back = strcmp(hib_came_back(p), back_asked(p, &up)) == 0;

	snprintf(expected, size, "%s, %s", down, up);
	/* a power cut must be the rig's doing only where the plan asked for it */
	return went && back && p->cut == p->cut_asked;
}

static int refused(const struct judge_context *c, struct judgement *j, const struct hib_path *p,
		   struct rig_err *err)
{
	char detail[256];

	snprintf(detail, sizeof(detail), "the kernel does not offer hibernation mode %s "
		 "(/sys/power/disk offers: %s): refused on the board, no fallback to its own "
		 "mode (%s)", hibernate_mode_name(p->asked), p->offered[0] ? p->offered : "unknown",
		 p->kernel_mode[0] ? p->kernel_mode : "none");
	return judge_add(c, j, "hibernate-mode", NULL, RESULTS_VERDICT_FAIL, detail,
			 (const char *const[]){ detail }, 1, err);
}

int judge_hibernate_mode(const struct judge_context *c, struct judgement *j,
			 const struct hib_path *p, struct rig_err *err)
{
	char expected[160], detail[512];
	bool ok;

	if (p->refused)
		return refused(c, j, p, err);
	ok = hib_path_matches(p, expected, sizeof(expected));
	snprintf(detail, sizeof(detail), "mode %s (kernel: %s): expected %s; happened: went %s%s, "
		 "came back %s", hibernate_mode_name(p->asked),
		 p->kernel_mode[0] ? p->kernel_mode : "unknown", expected, hib_went(p),
		 p->cut ? ", power cut by the rig" : "", hib_came_back(p));
	return judge_add(c, j, "hibernate-mode", NULL,
			 ok ? RESULTS_VERDICT_PASS : RESULTS_VERDICT_FAIL, detail,
			 ok ? NULL : (const char *const[]){ detail }, ok ? 0 : 1, err);
}

enum judge_hibernation hib_transition(const struct hib_path *p)
{
	if (p->back == HIB_BACK_FRESH_BOOT)
		return JUDGE_HIB_NOT_RESTORED;
	if (p->left == HIB_LEFT_NOT && p->asked != HIB_MODE_TEST_RESUME)
		return JUDGE_HIB_STAYED;
	return JUDGE_HIB_RESTORED;
}

int judge_hibernation(const struct judge_context *c, struct judgement *j, const struct ev_sleep *s,
		      const struct hib_path *p, struct rig_err *err)
{
	if (!p->discard_asked && judge_hibernate(c, j, s, hib_transition(p), err) < 0)
		return -1;
	return judge_hibernate_mode(c, j, p, err);
}

void hib_path_record(const struct hib_path *p, struct results_hibernation *out)
{
	char expected[160];

	*out = (struct results_hibernation){
		.power_cut_asked = p->cut_asked, .power_cut = p->cut,
		.matched = !p->refused && hib_path_matches(p, expected, sizeof(expected)),
	};
	snprintf(out->asked, sizeof(out->asked), "%s", hibernate_mode_name(p->asked));
	snprintf(out->kernel_mode, sizeof(out->kernel_mode), "%s", p->kernel_mode);
	snprintf(out->went, sizeof(out->went), "%s", hib_went(p));
	snprintf(out->came_back, sizeof(out->came_back), "%s", hib_came_back(p));
}
