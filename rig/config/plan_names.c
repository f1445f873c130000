/* Names of plan values and the one-line form of a step used in progress output. */
#include "config/plan.h"

#include <stdio.h>

#include "config/plan_schema.h"

static const char *name_in(const char *const *values, size_t n_values, int index)
{
	return index >= 0 && (size_t)index < n_values && values[index] ? values[index] : "?";
}

const char *step_kind_name(enum step_kind kind)
{
	return name_in(plan_step_names, STEP_FSFREEZE + 1, (int)kind);
}

const char *sleep_mode_name(enum sleep_mode mode)
{
	return name_in(plan_sleep_modes, SLEEP_DISK + 1, (int)mode);
}

const char *wake_source_name(enum wake_source wake)
{
	return name_in(plan_wake_sources, WAKE_SERIAL + 1, (int)wake);
}

const char *pm_test_level_name(enum pm_test_level level)
{
	return name_in(plan_pm_test_levels, PM_TEST_CORE + 1, (int)level);
}

const char *hibernate_mode_name(enum hibernate_mode mode)
{
	return name_in(plan_hibernate_modes, HIB_MODE_TEST_RESUME + 1, (int)mode);
}

const char *sleep_via_name(enum sleep_via via)
{
	return name_in(plan_suspend_vias, VIA_SUSPEND_THEN_HIBERNATE + 1, (int)via);
}

const char *sleep_via_verb(enum sleep_via via, bool hibernate)
{
	if (via == VIA_SYSFS)
		return NULL;
	if (hibernate)
		return "hibernate";
	return via == VIA_SYSTEMCTL ? "suspend" : sleep_via_name(via);
}

static int format_knob(const struct plan_knob *knob, char *buf, size_t size)
{
	if (knob->freeze_filesystems >= 0 && knob->sync_on_suspend >= 0)
		return snprintf(buf, size, "knob freeze_filesystems=%d sync_on_suspend=%d",
				knob->freeze_filesystems, knob->sync_on_suspend);
	if (knob->freeze_filesystems >= 0)
		return snprintf(buf, size, "knob freeze_filesystems=%d", knob->freeze_filesystems);
	return snprintf(buf, size, "knob sync_on_suspend=%d", knob->sync_on_suspend);
}

/* "hibernate resume=yes" as before modes existed; other modes add theirs (a hybrid sleep its S3
 * time and how it ends: "hibernate mode=suspend 3s wake=qmp", "... 3s power-cut"). */
static int format_hibernate(const struct step_hibernate *h, char *buf, size_t size)
{
	const char *inject = h->inject == HIB_INJECT_POWER_CUT ? " inject=power-cut"
			     : h->inject == HIB_INJECT_EARLY_WAKE ? " inject=early-wake" : "";
	char mode[64] = "";

	if (h->mode == HIB_MODE_SUSPEND)
		snprintf(mode, sizeof(mode), " mode=suspend %us %s%s", h->seconds,
			 h->power_cut ? "power-cut" : "wake=", h->power_cut ? "" : wake_source_name(h->wake));
	else if (h->mode != HIB_MODE_SHUTDOWN)
		snprintf(mode, sizeof(mode), " mode=%s", hibernate_mode_name(h->mode));
	return snprintf(buf, size, "hibernate resume=%s%s%s%s", h->resume ? "yes" : "no", mode,
			inject, h->via != VIA_SYSFS ? " via=systemctl" : "");
}

int step_format(const struct step *step, char *buf, size_t size)
{
	const char *kind = step_kind_name(step->kind);

	switch (step->kind) {
	case STEP_SUSPEND:
		return snprintf(buf, size, "%s %s wake=%s %us%s%s%s", kind,
				sleep_mode_name(step->u.suspend.mode),
				wake_source_name(step->u.suspend.wake), step->u.suspend.seconds,
				step->u.suspend.inject == INJECT_HANG ? " inject=hang"
				: step->u.suspend.inject == INJECT_EARLY_WAKE ? " inject=early-wake" : "",
				step->u.suspend.via != VIA_SYSFS ? " via=" : "",
				step->u.suspend.via != VIA_SYSFS ? sleep_via_name(step->u.suspend.via) : "");
	case STEP_HIBERNATE:
		return format_hibernate(&step->u.hibernate, buf, size);
	case STEP_POWER_CUT:
		return snprintf(buf, size, "%s %s after %us", kind,
				sleep_mode_name(step->u.power_cut.mode),
				step->u.power_cut.after_seconds);
	case STEP_PM_TEST:
		return snprintf(buf, size, "%s %s %s", kind,
				pm_test_level_name(step->u.pm_test.level),
				sleep_mode_name(step->u.pm_test.mode));
	case STEP_KNOB:
		return format_knob(&step->u.knob, buf, size);
	case STEP_FSFREEZE:
		return snprintf(buf, size, "%s %s", kind, step->u.fsfreeze.filesystem);
	}
	return snprintf(buf, size, "%s", kind);
}
