/* The plan file's schema (plans/README.md): field tables and the step kinds' names. */
#ifndef RIG_CONFIG_PLAN_SCHEMA_H
#define RIG_CONFIG_PLAN_SCHEMA_H

#include "config/plan.h"
#include "config/yaml_schema.h"

extern const struct yschema plan_schema;

/* NULL-terminated value lists, in enum order (plan_names.c names values with them). */
extern const char *const plan_suspend_modes[];   /* deep, s2idle, shallow */
extern const char *const plan_sleep_modes[];     /* ... and disk */
extern const char *const plan_wake_sources[];
extern const char *const plan_pm_test_levels[];
extern const char *const plan_step_names[];      /* indexed by enum step_kind */
extern const char *const plan_suspend_vias[];    /* sysfs, systemctl, hybrid-sleep, ... */
extern const char *const plan_hibernate_modes[]; /* shutdown, platform, reboot, ... */

#endif
