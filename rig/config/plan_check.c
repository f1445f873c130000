/* A plan against the board it runs on: plan_check_board() (can this board do what this plan
 * asks? caught before the first boot rather than as an infrastructure failure half way through
 * a nightly run) and plan_timeouts() (the plan's timeout overrides over the board's). */
#include "config/plan.h"

#include <stdio.h>
#include <string.h>

#include "deploy/deploy.h"

static unsigned pick(unsigned plan_value, unsigned board_value)
{
	return plan_value ? plan_value : board_value;
}

void plan_timeouts(const struct plan *plan, const struct board *board, struct board_timeouts *out)
{
	const struct board_timeouts *b = &board->timeouts, *p = &plan->timeouts;

	out->boot = pick(p->boot, b->boot);
	out->command = pick(p->command, b->command);
	out->suspend = pick(p->suspend, b->suspend);
	out->resume = pick(p->resume, b->resume);
	out->hibernate = pick(p->hibernate, b->hibernate);
	out->restore = pick(p->restore, b->restore);
}

struct step_ctx {
	const struct plan *plan;
	const struct board *board;
	const struct step *step;
	size_t index;
	struct rig_err *err;
};

static bool listed(char *const *items, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(items[i], name) == 0)
			return true;
	return false;
}

static int step_error(const struct step_ctx *c, const char *key, const char *what)
{
	return rig_err_set(c->err, RIG_EXIT_USAGE, "%s:%u: steps[%zu].%s.%s: %s (board %s, %s)",
			   c->plan->path, c->step->line, c->index, step_kind_name(c->step->kind), key,
			   what, c->board->name, c->board->path ? c->board->path : "?");
}

static int need_sleep_state(const struct step_ctx *c, const char *key, const char *state)
{
	char what[96];

	if (listed(c->board->sleep_states, c->board->n_sleep_states, state))
		return 0;
	snprintf(what, sizeof(what), "the board does not declare sleep state \"%s\"", state);
	return step_error(c, key, what);
}

static int need_wake_source(const struct step_ctx *c, const char *wake)
{
	char what[96];

	if (listed(c->board->wake_sources, c->board->n_wake_sources, wake))
		return 0;
	snprintf(what, sizeof(what), "the board does not declare wake source \"%s\"", wake);
	return step_error(c, "wake", what);
}

/* A gpiod board without a supply relay is forced off by a long press on its button. */
static bool can_cut_power(const struct board *b)
{
	return b->power.qemu ||
	       (b->power.gpiod && (b->power.gpiod->power.chip || b->power.gpiod->button.chip)) ||
	       (b->power.command && (b->power.command->off || b->power.command->cycle));
}

static bool has_filesystem(const struct board *b, const char *name)
{
	for (size_t i = 0; i < b->n_filesystems; i++)
		if (strcmp(b->filesystems[i].name, name) == 0)
			return true;
	return false;
}

static bool has_systemd(const struct board *b)
{
	return b->init && strcmp(b->init, "systemd") == 0;
}

static int need_systemd(const struct step_ctx *c, enum sleep_via via)
{
	if (via == VIA_SYSFS || has_systemd(c->board))
		return 0;
	return step_error(c, "via", "sleep through systemctl needs a board with init: systemd");
}

/* early-wake wakes the board with QMP system_wakeup, which wakes S3 only, well before an RTC
 * alarm: the alarm must leave the timing a margin over the wake EARLY_WAKE_S into the sleep. */
static int check_early_wake(const struct step_ctx *c, const struct step_suspend *s)
{
	if (!c->board->power.qemu)
		return step_error(c, "inject", "\"early-wake\" needs a qemu board (QMP system_wakeup)");
	if (s->wake != WAKE_RTC || s->mode != SLEEP_DEEP)
		return step_error(c, "inject", "\"early-wake\" wakes a deep sleep before its RTC alarm: "
				  "needs mode: deep and wake: rtc");
	if (s->seconds < 5 * EARLY_WAKE_S) {
		char what[128];

		snprintf(what, sizeof(what), "\"early-wake\" needs seconds of at least %u (the wake "
			 "comes %u s into the sleep)", 5 * EARLY_WAKE_S, EARLY_WAKE_S);
		return step_error(c, "inject", what);
	}
	return 0;
}

static int check_suspend(const struct step_ctx *c)
{
	const struct step_suspend *s = &c->step->u.suspend;

	if (need_sleep_state(c, "mode", sleep_mode_name(s->mode)) ||
	    need_wake_source(c, wake_source_name(s->wake)) || need_systemd(c, s->via))
		return -1;
	if (s->via == VIA_HYBRID_SLEEP && need_sleep_state(c, "via", "disk"))
		return -1;
	/* systemd arms the RTC itself for the hibernation after HibernateDelaySec=: one alarm */
	if (s->via == VIA_SUSPEND_THEN_HIBERNATE && s->wake == WAKE_RTC)
		return step_error(c, "wake", "suspend-then-hibernate owns the RTC alarm: wake with qmp, serial or button");
	if (s->inject == INJECT_HANG && !c->board->power.qemu)
		return step_error(c, "inject", "\"hang\" needs a qemu board (it stops the VM)");
	if (s->inject == INJECT_EARLY_WAKE)
		return check_early_wake(c, s);
	return 0;
}

/* A board lists the hibernation modes that work on it (sleep.hibernate_modes); one that lists
 * none does what rig did before modes existed, shutdown. */
static int need_hibernate_mode(const struct step_ctx *c, enum hibernate_mode mode)
{
	const char *name = hibernate_mode_name(mode);
	char what[128];

	if (listed(c->board->hibernate_modes, c->board->n_hibernate_modes, name) ||
	    (mode == HIB_MODE_SHUTDOWN && c->board->n_hibernate_modes == 0))
		return 0;
	snprintf(what, sizeof(what), "the board does not declare hibernation mode \"%s\" "
		 "(sleep.hibernate_modes)", name);
	return step_error(c, "mode", what);
}

/* The options of a hybrid sleep (mode suspend): its S3 half is woken by the rig (an RTC alarm
 * armed before the image write would expire during it) or ended by a power cut. */
static int check_hybrid(const struct step_ctx *c, const struct step_hibernate *h)
{
	if (h->mode != HIB_MODE_SUSPEND) {
		if (h->power_cut || h->inject != HIB_INJECT_NONE)
			return step_error(c, h->power_cut ? "power_cut" : "inject",
					  "needs mode: suspend (a hybrid sleep's S3 half)");
		return 0;
	}
	if (need_sleep_state(c, "mode", "deep"))
		return -1;
	if (h->power_cut || h->inject == HIB_INJECT_POWER_CUT) {
		if (!can_cut_power(c->board))
			return step_error(c, "power_cut", "the board's power backend cannot cut power");
	}
	if (!h->power_cut || h->inject == HIB_INJECT_EARLY_WAKE) {
		if (h->wake == WAKE_RTC)
			return step_error(c, "wake", "the rig wakes a hybrid sleep: qmp or button "
					  "(an RTC alarm armed before the image write expires during it)");
		/* its S3 half is deep sleep (rig-dut sets mem_sleep): serial input wakes s2idle */
		if (h->wake == WAKE_SERIAL)
			return step_error(c, "wake", "serial input does not wake S3, a hybrid sleep's "
					  "half: qmp or button");
		if (need_wake_source(c, wake_source_name(h->wake)))
			return -1;
	}
	if (h->inject != HIB_INJECT_NONE && !c->board->power.qemu)
		return step_error(c, "inject", "needs a qemu board (negative controls of the "
				  "hibernate-mode verdict)");
	if ((h->inject == HIB_INJECT_POWER_CUT && h->power_cut) ||
	    (h->inject == HIB_INJECT_EARLY_WAKE && !h->power_cut))
		return step_error(c, "inject", "\"power-cut\" goes with power_cut: no, \"early-wake\" "
				  "with power_cut: yes (each makes the sleep end the other way)");
	return 0;
}

static int check_hibernate(const struct step_ctx *c)
{
	const struct step_hibernate *h = &c->step->u.hibernate;

	/* The image is discarded by booting with noresume: only a board whose deploy sets the
	 * command line can add it; any other would restore the image instead. */
	if (!h->resume && !deploy_can_set_cmdline(c->board))
		return step_error(c, "resume", "\"no\" needs a board whose kernel command line "
				  "rig sets (deploy qemu, tftp or command; this board's deploy "
				  "is none): it boots once with noresume to discard the image");
	if (need_sleep_state(c, "resume", "disk") || need_systemd(c, h->via))
		return -1;
	/* systemd's HibernateMode= (sleep.conf) picks the mode of `systemctl hibernate` */
	if (h->via != VIA_SYSFS && h->mode != HIB_MODE_SHUTDOWN)
		return step_error(c, "mode", "via systemctl: the board's sleep.conf (HibernateMode=) "
				  "chooses the mode; leave mode at shutdown");
	if (need_hibernate_mode(c, h->mode))
		return -1;
	if (!h->resume && (h->mode == HIB_MODE_SUSPEND || h->mode == HIB_MODE_TEST_RESUME))
		return step_error(c, "resume", "\"no\" discards an image at the next boot: mode "
				  "suspend and test_resume come back without one");
	return check_hybrid(c, h);
}

static int check_step(const struct step_ctx *c)
{
	const struct step *s = c->step;

	switch (s->kind) {
	case STEP_SUSPEND:
		return check_suspend(c);
	case STEP_HIBERNATE:
		return check_hibernate(c);
	case STEP_POWER_CUT:
		if (!can_cut_power(c->board))
			return step_error(c, "mode", "the board's power backend cannot cut power");
		return need_sleep_state(c, "mode", sleep_mode_name(s->u.power_cut.mode));
	case STEP_PM_TEST:
		return need_sleep_state(c, "mode", sleep_mode_name(s->u.pm_test.mode));
	case STEP_FSFREEZE:
		if (!has_filesystem(c->board, s->u.fsfreeze.filesystem))
			return step_error(c, "filesystem", "no such filesystem on the board");
		return 0;
	case STEP_KNOB:
		return 0;
	}
	return 0;
}

int plan_check_board(const struct plan *plan, const struct board *board, struct rig_err *err)
{
	struct step_ctx ctx = { .plan = plan, .board = board, .err = err };

	for (size_t i = 0; i < plan->n_workloads; i++)
		if (strcmp(plan->workloads[i], "journald") == 0 && !has_systemd(board))
			return rig_err_set(err, RIG_EXIT_USAGE,
					   "%s: workloads: journald needs a board with init: systemd "
					   "(board %s, %s)", plan->path, board->name,
					   board->path ? board->path : "?");

	for (size_t i = 0; i < plan->n_steps; i++) {
		ctx.step = &plan->steps[i];
		ctx.index = i;
		if (check_step(&ctx))
			return -1;
	}
	return 0;
}
