/* Field tables for plans/NAME.yaml and the decoding of its step list, a tagged union. */
#include "config/plan_schema.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIELD(k, kind_, type, member, ...) \
	{ .key = (k), .kind = (kind_), .offset = offsetof(type, member), __VA_ARGS__ }

_Static_assert(sizeof(enum sleep_mode) == sizeof(int), "YF_ENUM writes an int");
_Static_assert(sizeof(enum wake_source) == sizeof(int), "YF_ENUM writes an int");
_Static_assert(sizeof(enum step_inject) == sizeof(int), "YF_ENUM writes an int");
_Static_assert(sizeof(enum pm_test_level) == sizeof(int), "YF_ENUM writes an int");
_Static_assert(sizeof(enum plan_on_hang) == sizeof(int), "YF_ENUM writes an int");
_Static_assert(sizeof(enum sleep_via) == sizeof(int), "YF_ENUM writes an int");
_Static_assert(sizeof(enum hibernate_mode) == sizeof(int), "YF_ENUM writes an int");
_Static_assert(sizeof(enum hibernate_inject) == sizeof(int), "YF_ENUM writes an int");

const char *const plan_suspend_modes[] = { "deep", "s2idle", "shallow", NULL };
const char *const plan_sleep_modes[] = { "deep", "s2idle", "shallow", "disk", NULL };
const char *const plan_wake_sources[] = { "rtc", "qmp", "button", "serial", NULL };
const char *const plan_pm_test_levels[] = { "freezer", "devices", "platform", "processors",
					    "core", NULL };
const char *const plan_step_names[] = {
	[STEP_SUSPEND] = "suspend",     [STEP_HIBERNATE] = "hibernate",
	[STEP_POWER_CUT] = "power-cut-while-suspended",
	[STEP_PM_TEST] = "pm_test",     [STEP_KNOB] = "knob",
	[STEP_FSFREEZE] = "fsfreeze",   NULL,
};
static const char *const injects[] = { "none", "hang", "early-wake", NULL };
static const char *const on_hang_values[] = { "continue", "stop", NULL };
static const char *const workload_names[] = { "journal", "journal-write", "meta", "fio", "journald",
					       "none", NULL };
const char *const plan_suspend_vias[] = { "sysfs", "systemctl", "hybrid-sleep",
					  "suspend-then-hibernate", NULL };
static const char *const hibernate_vias[] = { "sysfs", "systemctl", NULL };
const char *const plan_hibernate_modes[] = { "shutdown", "platform", "reboot", "suspend",
					     "test_resume", NULL };
static const char *const hibernate_injects[] = { "none", "power-cut", "early-wake", NULL };

#define MAX_SECONDS 86400

static const struct yfield suspend_fields[] = {
	FIELD("mode", YF_ENUM, struct step_suspend, mode, .values = plan_suspend_modes,
	      .dflt = SLEEP_DEEP),
	FIELD("wake", YF_ENUM, struct step_suspend, wake, .values = plan_wake_sources,
	      .dflt = WAKE_RTC),
	FIELD("seconds", YF_UINT, struct step_suspend, seconds, .dflt = 5, .min = 1,
	      .max = MAX_SECONDS),
	FIELD("inject", YF_ENUM, struct step_suspend, inject, .values = injects,
	      .dflt = INJECT_NONE),
	FIELD("via", YF_ENUM, struct step_suspend, via, .values = plan_suspend_vias,
	      .dflt = VIA_SYSFS),
};
static const struct yfield hibernate_fields[] = {
	FIELD("resume", YF_BOOL, struct step_hibernate, resume, .dflt = true),
	FIELD("via", YF_ENUM, struct step_hibernate, via, .values = hibernate_vias,
	      .dflt = VIA_SYSFS),
	FIELD("mode", YF_ENUM, struct step_hibernate, mode, .values = plan_hibernate_modes,
	      .dflt = HIB_MODE_SHUTDOWN),
	FIELD("power_cut", YF_BOOL, struct step_hibernate, power_cut, .dflt = false),
	FIELD("wake", YF_ENUM, struct step_hibernate, wake, .values = plan_wake_sources,
	      .dflt = WAKE_QMP),
	FIELD("seconds", YF_UINT, struct step_hibernate, seconds, .dflt = 3, .min = 1,
	      .max = MAX_SECONDS),
	FIELD("inject", YF_ENUM, struct step_hibernate, inject, .values = hibernate_injects,
	      .dflt = HIB_INJECT_NONE),
};
static const struct yfield power_cut_fields[] = {
	FIELD("mode", YF_ENUM, struct step_power_cut, mode, .values = plan_suspend_modes,
	      .dflt = SLEEP_DEEP),
	FIELD("after_seconds", YF_UINT, struct step_power_cut, after_seconds, .dflt = 2,
	      .max = MAX_SECONDS),
};
static const struct yfield pm_test_fields[] = {
	FIELD("level", YF_ENUM, struct step_pm_test, level, .values = plan_pm_test_levels,
	      .required = true),
	FIELD("mode", YF_ENUM, struct step_pm_test, mode, .values = plan_sleep_modes,
	      .dflt = SLEEP_DEEP),
};
static const struct yfield knob_fields[] = {
	FIELD("freeze_filesystems", YF_SWITCH, struct plan_knob, freeze_filesystems),
	FIELD("sync_on_suspend", YF_SWITCH, struct plan_knob, sync_on_suspend),
};
static const struct yfield fsfreeze_fields[] = {
	FIELD("filesystem", YF_STRING, struct step_fsfreeze, filesystem, .required = true),
};

static const struct yschema step_schemas[] = {
	[STEP_SUSPEND] = YSCHEMA(suspend_fields, struct step_suspend),
	[STEP_HIBERNATE] = YSCHEMA(hibernate_fields, struct step_hibernate),
	[STEP_POWER_CUT] = YSCHEMA(power_cut_fields, struct step_power_cut),
	[STEP_PM_TEST] = YSCHEMA(pm_test_fields, struct step_pm_test),
	[STEP_KNOB] = YSCHEMA(knob_fields, struct plan_knob),
	[STEP_FSFREEZE] = YSCHEMA(fsfreeze_fields, struct step_fsfreeze),
};
_Static_assert(sizeof(step_schemas) / sizeof(step_schemas[0]) == STEP_FSFREEZE + 1,
	       "one schema per step kind");

static const struct yschema knob_schema = YSCHEMA(knob_fields, struct plan_knob);

#define PLAN_TIMEOUT(member) \
	FIELD(#member, YF_UINT, struct board_timeouts, member, .min = 1, .max = MAX_SECONDS)
static const struct yfield timeout_fields[] = {
	PLAN_TIMEOUT(boot),   PLAN_TIMEOUT(command),   PLAN_TIMEOUT(suspend),
	PLAN_TIMEOUT(resume), PLAN_TIMEOUT(hibernate), PLAN_TIMEOUT(restore),
};
static const struct yschema timeout_schema = YSCHEMA(timeout_fields, struct board_timeouts);

/* ---- steps ------------------------------------------------------------------------------ */

static int knob_needs_a_value(struct ydecoder *dec, const struct step *step)
{
	if (step->u.knob.freeze_filesystems >= 0 || step->u.knob.sync_on_suspend >= 0)
		return 0;
	return ydecoder_error(dec, step->line, "needs freeze_filesystems or sync_on_suspend");
}

static int decode_step_options(struct ydecoder *dec, const yaml_node_t *options,
			       struct step *step)
{
	size_t saved = ypath_push_key(&dec->path, plan_step_names[step->kind]);
	unsigned saved_owner = dec->owner_line;
	int rc;

	dec->owner_line = step->line;
	rc = yschema_decode(dec, options, &step_schemas[step->kind], &step->u);
	if (rc == 0 && step->kind == STEP_KNOB)
		rc = knob_needs_a_value(dec, step);
	dec->owner_line = saved_owner;
	ypath_pop(&dec->path, saved);
	return rc;
}

static int not_a_step(struct ydecoder *dec, const yaml_node_t *item)
{
	char got[96];

	ydoc_describe(item, got, sizeof(got));
	return ydecoder_error(dec, ydoc_line(item),
			      "expected a step such as \"- suspend: {mode: deep}\" or a bare step "
			      "name, got %s", got);
}

static int decode_step(struct ydecoder *dec, const yaml_node_t *item, struct step *step)
{
	const yaml_node_t *options = NULL;
	const char *name = ydoc_scalar(item);
	char known[160];
	int kind;

	step->line = ydoc_line(item);
	if (item->type == YAML_MAPPING_NODE) {
		long keys = item->data.mapping.pairs.top - item->data.mapping.pairs.start;

		if (keys != 1)
			return ydecoder_error(dec, step->line,
					      "a step is a mapping with one key, its name; got %ld keys",
					      keys);
		name = ydoc_scalar(ydoc_node(dec->doc, item->data.mapping.pairs.start->key));
		options = ydoc_node(dec->doc, item->data.mapping.pairs.start->value);
	}
	if (!name || ydoc_is_null(item))
		return not_a_step(dec, item);
	kind = yvalues_index(plan_step_names, name);
	if (kind < 0) {
		yvalues_join(plan_step_names, known, sizeof(known));
		return ydecoder_error(dec, step->line, "unknown step \"%s\" (known steps: %s)", name,
				      known);
	}
	step->kind = (enum step_kind)kind;
	return decode_step_options(dec, options, step);
}

static void release_steps(void *obj)
{
	struct plan *plan = obj;

	for (size_t i = 0; i < plan->n_steps; i++)
		yschema_release(&step_schemas[plan->steps[i].kind], &plan->steps[i].u);
	free(plan->steps);
	plan->steps = NULL;
	plan->n_steps = 0;
}

static int decode_steps(struct ydecoder *dec, const yaml_node_t *value, void *obj)
{
	struct plan *plan = obj;
	size_t n;

	if (!value)
		return 0;
	if (value->type != YAML_SEQUENCE_NODE)
		return ydecoder_error(dec, ydoc_line(value), "expected a list of steps");
	n = (size_t)(value->data.sequence.items.top - value->data.sequence.items.start);
	if (n == 0)
		return ydecoder_error(dec, ydoc_line(value), "needs at least one step");
	plan->steps = calloc(n, sizeof(*plan->steps));
	if (!plan->steps)
		return rig_err_set(dec->err, RIG_EXIT_INFRA, "%s: out of memory", dec->doc->file);
	plan->n_steps = n;  /* zeroed steps own nothing: releasing a half-decoded list is safe */
	for (size_t i = 0; i < n; i++) {
		size_t saved = ypath_push_index(&dec->path, i);
		int rc = decode_step(dec, ydoc_node(dec->doc, value->data.sequence.items.start[i]),
				     &plan->steps[i]);

		ypath_pop(&dec->path, saved);
		if (rc)
			return rc;
	}
	return 0;
}

/* ---- the plan --------------------------------------------------------------------------- */

static const struct yfield plan_fields[] = {
	FIELD("name", YF_STRING, struct plan, name, .required = true),
	FIELD("description", YF_STRING, struct plan, description),
	FIELD("cycles", YF_UINT, struct plan, cycles, .dflt = 1, .min = 1, .max = 1000000),
	FIELD("on_hang", YF_ENUM, struct plan, on_hang, .values = on_hang_values,
	      .dflt = ON_HANG_CONTINUE),
	FIELD("knob", YF_MAPPING, struct plan, knob, .schema = &knob_schema),
	{ .key = "workloads", .kind = YF_STRING_LIST, .offset = offsetof(struct plan, workloads),
	  .count_offset = offsetof(struct plan, n_workloads), .values = workload_names },
	FIELD("timeline", YF_BOOL, struct plan, timeline, .dflt = 0),
	FIELD("timeouts", YF_MAPPING, struct plan, timeouts, .schema = &timeout_schema),
	{ .key = "steps", .kind = YF_CUSTOM, .required = true, .decode = decode_steps,
	  .release = release_steps },
};
const struct yschema plan_schema = YSCHEMA(plan_fields, struct plan);
