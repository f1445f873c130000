/* plan_load(): the shipped plans load and say what their brief asks, defaults fill short steps,
 * bad files fail naming file:line and key (fixtures mark that line with "# <- error"), and
 * plan_check_board() refuses what the board cannot do. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/unit/support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/plan.h"

/* 1-based line of the fixture holding the "# <- error" marker. */
static unsigned marked_line(const char *path)
{
	FILE *fp = fopen(path, "r");
	char line[512];
	unsigned n = 0;

	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp)) {
		n++;
		if (strstr(line, "# <- error")) {
			fclose(fp);
			return n;
		}
	}
	fclose(fp);
	fail_msg("%s has no \"# <- error\" marker", path);
	return 0;
}

static struct plan *load_ok(const char *relative)
{
	char *path = top_path(relative);
	struct rig_err err = { 0 };
	struct plan *plan = NULL;

	if (plan_load(path, &plan, &err) != 0)
		fail_msg("%s: %s", path, err.msg);
	assert_string_equal(plan->path, path);
	free(path);
	return plan;
}

static struct board *load_board(const char *relative)
{
	char *path = top_path(relative);
	struct rig_err err = { 0 };
	struct board *board = NULL;

	if (board_load(path, NULL, &board, &err) != 0)
		fail_msg("%s", err.msg);
	free(path);
	return board;
}

static struct board *qemu_board(void)
{
	return load_board("boards/qemu.yaml");
}

static bool has(char *const *items, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(items[i], name) == 0)
			return true;
	return false;
}

static size_t count_suspends(const struct plan *p, enum sleep_mode mode, enum wake_source wake)
{
	size_t n = 0;

	for (size_t i = 0; i < p->n_steps; i++)
		n += p->steps[i].kind == STEP_SUSPEND && p->steps[i].u.suspend.mode == mode &&
		     p->steps[i].u.suspend.wake == wake;
	return n;
}

static size_t count_kind(const struct plan *p, enum step_kind kind)
{
	size_t n = 0;

	for (size_t i = 0; i < p->n_steps; i++)
		n += p->steps[i].kind == kind;
	return n;
}

static size_t count_hibernates(const struct plan *p, bool resume)
{
	size_t n = 0;

	for (size_t i = 0; i < p->n_steps; i++)
		n += p->steps[i].kind == STEP_HIBERNATE && p->steps[i].u.hibernate.resume == resume;
	return n;
}

static void smoke_plan_is_what_make_check_needs(void **state)
{
	struct plan *p = load_ok("plans/smoke.yaml");

	(void)state;
	assert_string_equal(p->name, "smoke");
	assert_int_equal(p->cycles, 1);
	assert_int_equal(p->on_hang, ON_HANG_CONTINUE);
	assert_int_equal(p->knob.freeze_filesystems, 1);
	assert_int_equal(p->n_workloads, 1);
	assert_string_equal(p->workloads[0], "journal");
	assert_int_equal(count_kind(p, STEP_SUSPEND), 3);
	assert_int_equal(count_suspends(p, SLEEP_DEEP, WAKE_RTC) +
				 count_suspends(p, SLEEP_DEEP, WAKE_QMP), 3);
	assert_true(count_suspends(p, SLEEP_DEEP, WAKE_RTC) > 0);
	assert_true(count_suspends(p, SLEEP_DEEP, WAKE_QMP) > 0);
	assert_int_equal(count_kind(p, STEP_HIBERNATE), 1);
	assert_int_equal(count_hibernates(p, true), 1);
	assert_int_equal(p->n_steps, 4);
	plan_free(p);
}

static void nightly_plan_covers_every_step(void **state)
{
	struct plan *p = load_ok("plans/nightly.yaml");
	bool freezer = false;

	(void)state;
	assert_string_equal(p->name, "nightly");
	assert_int_equal(p->cycles, 10);
	assert_int_equal(p->n_workloads, 2);
	assert_true(has(p->workloads, p->n_workloads, "journal"));
	assert_true(has(p->workloads, p->n_workloads, "fio"));
	assert_true(count_suspends(p, SLEEP_DEEP, WAKE_RTC) > 0);
	assert_true(count_suspends(p, SLEEP_DEEP, WAKE_QMP) > 0);
	assert_true(count_suspends(p, SLEEP_S2IDLE, WAKE_SERIAL) > 0);
	assert_true(count_hibernates(p, true) > 0);
	assert_true(count_hibernates(p, false) > 0);
	assert_true(count_kind(p, STEP_POWER_CUT) > 0);
	assert_true(count_kind(p, STEP_FSFREEZE) > 0);
	for (size_t i = 0; i < p->n_steps; i++)
		freezer |= p->steps[i].kind == STEP_PM_TEST &&
			   p->steps[i].u.pm_test.level == PM_TEST_FREEZER;
	assert_true(freezer);
	assert_true(p->timeouts.hibernate > 0);
	assert_int_equal(p->timeouts.boot, 0);  /* not overridden: the board's value applies */
	plan_free(p);
}

/* The one timeout merge: what the plan overrides, else the board's value. */
static void plan_timeouts_override_the_board(void **state)
{
	struct plan *p = load_ok("plans/nightly.yaml");
	struct board *b = qemu_board();
	struct board_timeouts t;

	(void)state;
	plan_timeouts(p, b, &t);
	assert_int_equal(t.hibernate, 300);        /* the plan's */
	assert_int_equal(t.restore, 300);
	assert_int_equal(t.boot, b->timeouts.boot); /* the board's */
	assert_int_equal(t.command, b->timeouts.command);
	assert_int_equal(t.suspend, b->timeouts.suspend);
	assert_int_equal(t.resume, b->timeouts.resume);
	assert_int_equal(b->timeouts.hibernate, 240);
	board_free(b);
	plan_free(p);
}

static void short_steps_take_defaults(void **state)
{
	struct plan *p = load_ok("rig/tests/data/plans/defaults.yaml");
	const struct step *s = p->steps;

	(void)state;
	assert_int_equal(p->cycles, 1);
	assert_int_equal(p->on_hang, ON_HANG_CONTINUE);
	assert_int_equal(p->knob.freeze_filesystems, -1);
	assert_int_equal(p->knob.sync_on_suspend, -1);
	assert_int_equal(p->n_workloads, 0);
	assert_int_equal(p->n_steps, 7);
	for (size_t i = 0; i < 4; i += 3) {  /* "- suspend" and "- suspend:" */
		assert_int_equal(s[i].kind, STEP_SUSPEND);
		assert_int_equal(s[i].u.suspend.mode, SLEEP_DEEP);
		assert_int_equal(s[i].u.suspend.wake, WAKE_RTC);
		assert_int_equal(s[i].u.suspend.seconds, 5);
		assert_int_equal(s[i].u.suspend.inject, INJECT_NONE);
	}
	assert_int_equal(s[1].kind, STEP_HIBERNATE);
	assert_true(s[1].u.hibernate.resume);
	assert_int_equal(s[2].kind, STEP_POWER_CUT);
	assert_int_equal(s[2].u.power_cut.mode, SLEEP_DEEP);
	assert_int_equal(s[2].u.power_cut.after_seconds, 2);
	assert_int_equal(s[4].kind, STEP_PM_TEST);
	assert_int_equal(s[4].u.pm_test.level, PM_TEST_CORE);
	assert_int_equal(s[4].u.pm_test.mode, SLEEP_DEEP);
	assert_int_equal(s[5].kind, STEP_KNOB);
	assert_int_equal(s[5].u.knob.freeze_filesystems, -1);
	assert_int_equal(s[5].u.knob.sync_on_suspend, 0);
	assert_int_equal(s[6].kind, STEP_FSFREEZE);
	assert_string_equal(s[6].u.fsfreeze.filesystem, "sata-xfs");
	plan_free(p);
}

static void steps_remember_their_lines(void **state)
{
	char *path = top_path("rig/tests/data/plans/defaults.yaml");
	struct plan *p = load_ok("rig/tests/data/plans/defaults.yaml");
	FILE *fp = fopen(path, "r");
	char line[256];
	unsigned n = 0;
	size_t step = 0;

	(void)state;
	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp)) {
		n++;
		if (strncmp(line, "  - ", 4) == 0) {
			assert_true(step < p->n_steps);
			assert_int_equal(p->steps[step++].line, n);
		}
	}
	fclose(fp);
	assert_int_equal(step, p->n_steps);
	plan_free(p);
	free(path);
}

static void none_means_no_workloads(void **state)
{
	struct plan *p = load_ok("rig/tests/data/plans/workloads-none.yaml");

	(void)state;
	assert_int_equal(p->n_workloads, 0);
	assert_null(p->workloads);
	assert_int_equal(p->on_hang, ON_HANG_STOP);
	plan_free(p);
}

static void steps_format_for_progress_output(void **state)
{
	struct step s = { .kind = STEP_SUSPEND };
	char buf[96];

	(void)state;
	s.u.suspend = (struct step_suspend){ SLEEP_DEEP, WAKE_RTC, 5, INJECT_NONE, VIA_SYSFS };
	step_format(&s, buf, sizeof(buf));
	assert_string_equal(buf, "suspend deep wake=rtc 5s");
	s.u.suspend = (struct step_suspend){ SLEEP_S2IDLE, WAKE_QMP, 3, INJECT_HANG, VIA_SYSFS };
	step_format(&s, buf, sizeof(buf));
	assert_string_equal(buf, "suspend s2idle wake=qmp 3s inject=hang");
	s.u.suspend = (struct step_suspend){ SLEEP_DEEP, WAKE_RTC, 30, INJECT_EARLY_WAKE, VIA_SYSFS };
	step_format(&s, buf, sizeof(buf));
	assert_string_equal(buf, "suspend deep wake=rtc 30s inject=early-wake");
	s = (struct step){ .kind = STEP_HIBERNATE, .u.hibernate.resume = false };
	step_format(&s, buf, sizeof(buf));
	assert_string_equal(buf, "hibernate resume=no");
	s = (struct step){ .kind = STEP_POWER_CUT, .u.power_cut = { SLEEP_DEEP, 2 } };
	step_format(&s, buf, sizeof(buf));
	assert_string_equal(buf, "power-cut-while-suspended deep after 2s");
	s = (struct step){ .kind = STEP_PM_TEST, .u.pm_test = { PM_TEST_DEVICES, SLEEP_DISK } };
	step_format(&s, buf, sizeof(buf));
	assert_string_equal(buf, "pm_test devices disk");
	s = (struct step){ .kind = STEP_KNOB, .u.knob = { 0, -1 } };
	step_format(&s, buf, sizeof(buf));
	assert_string_equal(buf, "knob freeze_filesystems=0");
	s = (struct step){ .kind = STEP_FSFREEZE, .u.fsfreeze.filesystem = "sata-xfs" };
	step_format(&s, buf, sizeof(buf));
	assert_string_equal(buf, "fsfreeze sata-xfs");
	/* Truncation is snprintf's: the return value says how long it would have been. */
	assert_int_equal(step_format(&s, buf, 4), (int)strlen("fsfreeze sata-xfs"));
	assert_string_equal(buf, "fsf");
}

static void names_match_the_file_format(void **state)
{
	(void)state;
	assert_string_equal(step_kind_name(STEP_SUSPEND), "suspend");
	assert_string_equal(step_kind_name(STEP_HIBERNATE), "hibernate");
	assert_string_equal(step_kind_name(STEP_POWER_CUT), "power-cut-while-suspended");
	assert_string_equal(step_kind_name(STEP_PM_TEST), "pm_test");
	assert_string_equal(step_kind_name(STEP_KNOB), "knob");
	assert_string_equal(step_kind_name(STEP_FSFREEZE), "fsfreeze");
	assert_string_equal(step_kind_name((enum step_kind)99), "?");
	assert_string_equal(sleep_mode_name(SLEEP_SHALLOW), "shallow");
	assert_string_equal(wake_source_name(WAKE_SERIAL), "serial");
	assert_string_equal(pm_test_level_name(PM_TEST_PROCESSORS), "processors");
}

static void plans_fit(struct board *board, const char *const *plans, size_t n)
{
	struct rig_err err = { 0 };

	for (size_t i = 0; i < n; i++) {
		struct plan *p = load_ok(plans[i]);

		if (plan_check_board(p, board, &err) != 0)
			fail_msg("%s: %s", plans[i], err.msg);
		plan_free(p);
	}
	board_free(board);
}

static void shipped_plans_fit_the_qemu_board(void **state)
{
	const char *const plans[] = { "plans/smoke.yaml", "plans/nightly.yaml", "plans/timeline.yaml" };

	(void)state;
	plans_fit(qemu_board(), plans, sizeof(plans) / sizeof(plans[0]));
}

/* The per-device timeline is opt-in: the plans make check and make run use leave it off. */
static void timeline_is_opt_in(void **state)
{
	struct plan *smoke = load_ok("plans/smoke.yaml"), *nightly = load_ok("plans/nightly.yaml");
	struct plan *timeline = load_ok("plans/timeline.yaml");

	(void)state;
	assert_false(smoke->timeline);
	assert_false(nightly->timeline);
	assert_true(timeline->timeline);
	plan_free(smoke);
	plan_free(nightly);
	plan_free(timeline);
}

static void debian_plans_fit_the_debian_board(void **state)
{
	const char *const plans[] = { "plans/nightly.yaml", "plans/nightly-debian.yaml",
				"tests/e2e-debian/plans/journald.yaml",
				"tests/e2e-debian/plans/journald-knob0.yaml" };
	struct board *board = load_board("boards/qemu-debian.yaml");

	(void)state;
	assert_string_equal(board->init, "systemd");
	plans_fit(board, plans, sizeof(plans) / sizeof(plans[0]));
}

static void journald_needs_a_systemd_board(void **state)
{
	struct board *board = qemu_board();
	struct plan *p = load_ok("plans/nightly-debian.yaml");
	struct rig_err err = { 0 };
	char step[64];

	(void)state;
	assert_string_equal(board->init, "busybox");
	assert_int_equal(plan_check_board(p, board, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	assert_non_null(strstr(err.msg, "journald needs a board with init: systemd"));
	assert_int_equal(p->steps[0].u.suspend.via, VIA_SYSTEMCTL);
	assert_int_equal(p->steps[3].u.suspend.via, VIA_SUSPEND_THEN_HIBERNATE);
	assert_int_equal(p->steps[5].u.hibernate.via, VIA_SYSTEMCTL);
	step_format(&p->steps[4], step, sizeof(step));
	assert_string_equal(step, "suspend deep wake=rtc 5s via=hybrid-sleep");
	assert_string_equal(sleep_via_verb(VIA_SYSTEMCTL, false), "suspend");
	assert_string_equal(sleep_via_verb(VIA_SYSTEMCTL, true), "hibernate");
	assert_string_equal(sleep_via_verb(VIA_HYBRID_SLEEP, false), "hybrid-sleep");
	assert_null(sleep_via_verb(VIA_SYSFS, false));
	plan_free(p);
	board_free(board);
}

/* The virtual bench's plans fit its board; a discarded hibernation image does not: a GPIO board
 * without a deploy: section boots what it has, its kernel command line is not rig's to change. */
static void bench_plans_fit_the_bench_board(void **state)
{
	const char *const plans[] = { "vbench/plans/smoke.yaml", "vbench/plans/sleepy.yaml",
				      "vbench/plans/power-cut-knob0.yaml" };
	struct board *board;
	struct rig_err err = { 0 };
	struct plan *p;

	(void)state;
	plans_fit(load_board("boards/qemu-bench.yaml"), plans, sizeof(plans) / sizeof(plans[0]));
	board = load_board("boards/qemu-bench.yaml");
	p = load_ok("rig/tests/data/plans/discard-image.yaml");
	assert_int_equal(plan_check_board(p, board, &err), -1);
	assert_non_null(strstr(err.msg, ":4: steps[1].hibernate.resume: \"no\" needs a board whose "
			       "kernel command line rig sets (deploy qemu, tftp or command; this "
			       "board's deploy is none)"));
	plan_free(p);
	board_free(board);
}

static void check_refuses_on(const char *board_file, const char *fixture, const char *key,
			     const char *what)
{
	char relative[256], want[512];
	struct board *board = load_board(board_file);
	struct rig_err err = { 0 };
	struct plan *p;

	snprintf(relative, sizeof(relative), "rig/tests/data/plans/%s", fixture);
	p = load_ok(relative);
	assert_int_equal(plan_check_board(p, board, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	snprintf(want, sizeof(want), "%s:%u: %s: ", p->path, marked_line(p->path), key);
	if (strncmp(err.msg, want, strlen(want)) != 0 || !strstr(err.msg, what))
		fail_msg("got  \"%s\"\nwant \"%s...%s...\"", err.msg, want, what);
	plan_free(p);
	board_free(board);
}

static void check_refuses(const char *fixture, const char *key, const char *what)
{
	check_refuses_on("boards/qemu.yaml", fixture, key, what);
}

static void check_refuses_systemctl_without_systemd(void **state)
{
	(void)state;
	check_refuses("systemctl-on-busybox.yaml", "steps[1].suspend.via", "needs a board with init: systemd");
}

static void check_refuses_rtc_for_suspend_then_hibernate(void **state)
{
	(void)state;
	check_refuses_on("boards/qemu-debian.yaml", "sth-rtc.yaml", "steps[0].suspend.wake",
			 "owns the RTC alarm");
}

static void check_refuses_undeclared_wake_source(void **state)
{
	(void)state;
	check_refuses("button-wake.yaml", "steps[1].suspend.wake", "wake source \"button\"");
}

static void check_refuses_unknown_filesystem(void **state)
{
	(void)state;
	check_refuses("unknown-filesystem.yaml", "steps[0].fsfreeze.filesystem",
		      "no such filesystem");
}

/* inject: early-wake is the wake-time verdict's negative control: a deep RTC sleep on a QEMU
 * board, with an alarm long enough to be woken well before it. */
static void check_refuses_early_wake_it_cannot_inject(void **state)
{
	struct board *board = load_board("boards/qemu.yaml");
	struct rig_err err = { 0 };
	struct plan *p = load_ok("rig/tests/data/plans/early-wake.yaml");

	(void)state;
	assert_int_equal(plan_check_board(p, board, &err), 0);   /* its positive control */
	plan_free(p);
	board_free(board);
	check_refuses("early-wake-qmp.yaml", "steps[1].suspend.inject", "needs mode: deep and wake: rtc");
	check_refuses("early-wake-short.yaml", "steps[0].suspend.inject",
		      "needs seconds of at least 10 (the wake comes 2 s into the sleep)");
	check_refuses_on("boards/examples/laptop-x86.yaml", "early-wake.yaml",
			 "steps[0].suspend.inject", "needs a qemu board");
}

/* Hibernation modes (issue 18 part 4): what a board lists, and the options of a hybrid sleep. */
static void check_refuses_hibernation_modes_it_cannot_do(void **state)
{
	(void)state;
	check_refuses_on("boards/qemu-debian.yaml", "hibernate-mode-undeclared.yaml",
			 "steps[1].hibernate.mode", "does not declare hibernation mode \"platform\" "
			 "(sleep.hibernate_modes)");
	check_refuses("hibernate-hybrid-rtc.yaml", "steps[0].hibernate.wake",
		      "the rig wakes a hybrid sleep");
	check_refuses("hibernate-hybrid-serial.yaml", "steps[1].hibernate.wake",
		      "serial input does not wake S3");
	check_refuses("hibernate-cut-not-hybrid.yaml", "steps[1].hibernate.power_cut",
		      "needs mode: suspend");
	check_refuses("hibernate-inject-same-way.yaml", "steps[1].hibernate.inject",
		      "\"power-cut\" goes with power_cut: no");
	check_refuses("hibernate-discard-in-place.yaml", "steps[0].hibernate.resume",
		      "mode suspend and test_resume come back without one");
	check_refuses_on("boards/qemu-debian.yaml", "hibernate-systemctl-mode.yaml",
			 "steps[1].hibernate.mode", "via systemctl: the board's sleep.conf");
	check_refuses_on("boards/examples/laptop-x86.yaml", "hibernate-inject-real-board.yaml",
			 "steps[0].hibernate.inject", "needs a qemu board");
}

static void hibernation_modes_load_and_fit_the_qemu_board(void **state)
{
	const char *const plans[] = { "plans/hibernate-modes.yaml",
				      "tests/e2e/plans/hibernate-modes.yaml",
				      "tests/e2e/plans/hibernate-platform-refused.yaml" };
	struct plan *p = load_ok("tests/e2e/plans/hibernate-modes.yaml");
	char step[96];

	(void)state;
	plans_fit(qemu_board(), plans, sizeof(plans) / sizeof(plans[0]));
	assert_int_equal(p->steps[0].u.hibernate.mode, HIB_MODE_SHUTDOWN);
	step_format(&p->steps[0], step, sizeof(step));
	assert_string_equal(step, "hibernate resume=yes");
	for (size_t i = 0; i < p->n_steps; i++) {
		const struct step_hibernate *h = &p->steps[i].u.hibernate;

		step_format(&p->steps[i], step, sizeof(step));
		if (h->mode == HIB_MODE_SUSPEND && h->power_cut)
			assert_non_null(strstr(step, "mode=suspend 3s power-cut"));
		else if (h->mode == HIB_MODE_SUSPEND)
			assert_non_null(strstr(step, "mode=suspend 3s wake=qmp"));
		else if (h->mode != HIB_MODE_SHUTDOWN)
			assert_non_null(strstr(step, hibernate_mode_name(h->mode)));
	}
	plan_free(p);
}

static void missing_file_is_a_usage_error(void **state)
{
	struct rig_err err = { 0 };
	struct plan *p = (struct plan *)&err;  /* must be reset to NULL */

	(void)state;
	assert_int_equal(plan_load("/nonexistent/plan.yaml", &p, &err), -1);
	assert_null(p);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	assert_non_null(strstr(err.msg, "/nonexistent/plan.yaml: cannot open"));
	plan_free(NULL);
}

/* ---- bad files: each must fail at its marked line, naming the key ---- */

struct bad_case {
	const char *file;   /* under rig/tests/data/plans */
	const char *key;
	const char *what;
};

static const struct bad_case bad_cases[] = {
	{ "unknown-key.yaml", "cycels", "unknown key" },
	{ "wrong-type.yaml", "cycles", "expected an unsigned integer, got \"many\"" },
	{ "zero-cycles.yaml", "cycles", "must be at least 1" },
	{ "missing-name.yaml", "name", "required key missing" },
	{ "missing-steps.yaml", "steps", "required key missing" },
	{ "empty-steps.yaml", "steps", "needs at least one step" },
	{ "bad-on-hang.yaml", "on_hang", "expected one of continue, stop, got \"panic\"" },
	{ "bad-step.yaml", "steps[1]", "unknown step \"sleep\"" },
	{ "bad-mode.yaml", "steps[1].suspend.mode", "expected one of deep, s2idle, shallow" },
	{ "bad-step-option.yaml", "steps[0].suspend.sec", "unknown key" },
	{ "pm-test-no-level.yaml", "steps[1].pm_test.level", "required key missing" },
	{ "two-key-step.yaml", "steps[0]", "one key" },
	{ "empty-knob-step.yaml", "steps[0].knob", "needs freeze_filesystems or sync_on_suspend" },
	{ "bad-knob-value.yaml", "knob.freeze_filesystems", "expected 0 or 1, got \"2\"" },
	{ "bad-workload.yaml", "workloads[1]", "got \"dd\"" },
	{ "none-with-workload.yaml", "workloads", "cannot be combined" },
	{ "scalar-options.yaml", "steps[0].suspend", "expected a mapping, got \"deep\"" },
	{ "bad-timeout.yaml", "timeouts.resmue", "unknown key" },
	{ "huge-seconds.yaml", "steps[0].suspend.seconds", "must be at most 86400" },
	{ "bad-via.yaml", "steps[0].hibernate.via", "expected one of sysfs, systemctl, got \"hybrid-sleep\"" },
	{ "bad-timeline.yaml", "timeline", "expected a boolean" },
	{ "hibernate-bad-mode.yaml", "steps[0].hibernate.mode",
	  "expected one of shutdown, platform, reboot, suspend, test_resume, got \"hybrid\"" },
};

static void bad_plan_fails_at_its_line(void **state)
{
	const struct bad_case *c = *state;
	char relative[256], want[512];
	struct rig_err err = { 0 };
	struct plan *p = NULL;
	char *path;

	snprintf(relative, sizeof(relative), "rig/tests/data/plans/%s", c->file);
	path = top_path(relative);
	assert_int_equal(plan_load(path, &p, &err), -1);
	assert_null(p);
	assert_int_equal(err.class, RIG_EXIT_USAGE);
	/* The prefix (file:line: key) must match exactly; what follows must contain `what`. */
	snprintf(want, sizeof(want), "%s:%u: %s: ", path, marked_line(path), c->key);
	if (strncmp(err.msg, want, strlen(want)) != 0 || !strstr(err.msg, c->what))
		fail_msg("got  \"%s\"\nwant \"%s...%s...\"", err.msg, want, c->what);
	free(path);
}

int main(void)
{
	const struct CMUnitTest fixed[] = {
		cmocka_unit_test(smoke_plan_is_what_make_check_needs),
		cmocka_unit_test(nightly_plan_covers_every_step),
		cmocka_unit_test(plan_timeouts_override_the_board),
		cmocka_unit_test(short_steps_take_defaults),
		cmocka_unit_test(steps_remember_their_lines),
		cmocka_unit_test(none_means_no_workloads),
		cmocka_unit_test(steps_format_for_progress_output),
		cmocka_unit_test(names_match_the_file_format),
		cmocka_unit_test(shipped_plans_fit_the_qemu_board),
		cmocka_unit_test(check_refuses_hibernation_modes_it_cannot_do),
		cmocka_unit_test(hibernation_modes_load_and_fit_the_qemu_board),
		cmocka_unit_test(timeline_is_opt_in),
		cmocka_unit_test(debian_plans_fit_the_debian_board),
		cmocka_unit_test(journald_needs_a_systemd_board),
		cmocka_unit_test(bench_plans_fit_the_bench_board),
		cmocka_unit_test(check_refuses_systemctl_without_systemd),
		cmocka_unit_test(check_refuses_rtc_for_suspend_then_hibernate),
		cmocka_unit_test(check_refuses_undeclared_wake_source),
		cmocka_unit_test(check_refuses_unknown_filesystem),
		cmocka_unit_test(check_refuses_early_wake_it_cannot_inject),
		cmocka_unit_test(missing_file_is_a_usage_error),
	};
	enum { N_FIXED = sizeof(fixed) / sizeof(fixed[0]),
	       N_BAD = sizeof(bad_cases) / sizeof(bad_cases[0]) };
	struct CMUnitTest tests[N_FIXED + N_BAD];

	memcpy(tests, fixed, sizeof(fixed));
	for (size_t i = 0; i < N_BAD; i++)
		tests[N_FIXED + i] = (struct CMUnitTest){
			.name = bad_cases[i].file,
			.test_func = bad_plan_fails_at_its_line,
			.initial_state = (void *)&bad_cases[i],
		};
	return cmocka_run_group_tests_name("plan", tests, NULL, NULL);
}
