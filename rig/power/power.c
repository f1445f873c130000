/* The backend registry and the calls every caller goes through. */
#include "power/backend.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static const struct power_ops *const backends[] = {
	&power_qemu_ops,
	&power_gpiod_ops,
	&power_command_ops,
};

static const char *const state_names[] = {
	[POWER_OFF] = "off",
	[POWER_RUNNING] = "on",
	[POWER_SUSPENDED] = "suspended",
	[POWER_PAUSED] = "paused",
	[POWER_UNKNOWN] = "unknown",
};

const char *power_state_name(enum power_state state)
{
	if ((unsigned)state >= sizeof(state_names) / sizeof(state_names[0]))
		return "unknown";
	return state_names[state];
}

int power_state_parse(const char *word, enum power_state *state)
{
	if (strcmp(word, "running") == 0) {
		*state = POWER_RUNNING;
		return 0;
	}
	for (size_t i = 0; i < sizeof(state_names) / sizeof(state_names[0]); i++) {
		if (strcmp(word, state_names[i]) == 0) {
			*state = (enum power_state)i;
			return 0;
		}
	}
	return -1;
}

static const struct power_ops *find_backend(const char *name)
{
	for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]); i++)
		if (strcmp(backends[i]->name, name) == 0)
			return backends[i];
	return NULL;
}

struct power *power_alloc(const struct power_ops *ops, const struct board *board,
			  const char *run_dir, struct rig_err *err)
{
	struct power *power = calloc(1, sizeof(*power));

	if (!power) {
		rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
		return NULL;
	}
	power->ops = ops;
	power->board = board;
	if (run_dir && !(power->run_dir = strdup(run_dir))) {
		free(power);
		rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
		return NULL;
	}
	return power;
}

int power_open(const struct board *board, const char *run_dir, struct power **out,
	       struct rig_err *err)
{
	const struct power_ops *ops;
	struct power *power;

	*out = NULL;
	if (!board->power.backend)
		return rig_err_set(err, RIG_EXIT_USAGE, "board %s: no power.backend",
				   board->name ? board->name : "?");
	ops = find_backend(board->power.backend);
	if (!ops)
		return rig_err_set(err, RIG_EXIT_USAGE,
				   "board %s: unknown power backend '%s' (qemu, gpiod, command)",
				   board->name ? board->name : "?", board->power.backend);
	power = power_alloc(ops, board, run_dir, err);
	if (!power)
		return -1;
	if (ops->open(power, err) < 0) {
		free(power->run_dir);
		free(power);
		return -1;
	}
	*out = power;
	return 0;
}

void power_close(struct power *power)
{
	if (!power)
		return;
	power->ops->close(power);
	free(power->run_dir);
	free(power);
}

const char *power_backend_name(const struct power *power)
{
	return power->ops->name;
}

static int unsupported(const struct power *power, const char *what, struct rig_err *err)
{
	return rig_err_set(err, RIG_EXIT_USAGE, "power backend %s cannot %s", power->ops->name,
			   what);
}

int power_on(struct power *power, struct rig_err *err)
{
	return power->ops->on(power, err);
}

int power_resume_cpus(struct power *power, struct rig_err *err)
{
	return power->ops->resume_cpus ? power->ops->resume_cpus(power, err) : 0;
}

int power_off(struct power *power, struct rig_err *err)
{
	return power->ops->off(power, err);
}

int power_cycle(struct power *power, struct rig_err *err)
{
	return power->ops->cycle(power, err);
}

int power_press(struct power *power, unsigned ms, struct rig_err *err)
{
	return power->ops->press(power, ms, err);
}

int power_reset(struct power *power, struct rig_err *err)
{
	return power->ops->reset(power, err);
}

int power_status(struct power *power, enum power_state *state, struct rig_err *err)
{
	*state = POWER_UNKNOWN;
	return power->ops->status(power, state, err);
}

int power_wakeup(struct power *power, struct rig_err *err)
{
	if (!power->ops->wakeup)
		return unsupported(power, "wake a suspended board", err);
	return power->ops->wakeup(power, err);
}

int power_inject_hang(struct power *power, struct rig_err *err)
{
	if (!power->ops->inject_hang)
		return unsupported(power, "inject a hang", err);
	return power->ops->inject_hang(power, err);
}

int power_sysrq(struct power *power, char key, struct rig_err *err)
{
	if (!power->ops->sysrq)
		return unsupported(power, "send SysRq", err);
	return power->ops->sysrq(power, key, err);
}

int power_wait_event(struct power *power, const char *event, double since, unsigned timeout_ms,
		     struct rig_err *err)
{
	if (!power->ops->wait_event)
		return unsupported(power, "report power events", err);
	return power->ops->wait_event(power, event, since, timeout_ms, err);
}

int power_check(struct power *power, struct rig_err *err)
{
	return power->ops->check ? power->ops->check(power, err) : 0;
}

int power_disk_ops(struct power *power, unsigned long long *ops, struct rig_err *err)
{
	if (!power->ops->disk_ops)
		return 0;
	return power->ops->disk_ops(power, ops, err) < 0 ? -1 : 1;
}

int power_has_events(const struct power *power)
{
	return power->ops->wait_event != NULL;
}

int power_runs_on_host(const struct power *power)
{
	return power->ops->host_pid != NULL;
}

long power_host_pid(struct power *power)
{
	return power->ops->host_pid ? power->ops->host_pid(power) : 0;
}
