/* The command backend: every action runs a shell command from the board file (a lab PDU client,
 * a relay script, ipmitool ...).  Status reads the command's first word of output ("on", "off",
 * "suspended", ...); when it prints none of those, exit code 0 means on and 1 means off. */
#include "power/backend.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "power/shell.h"

#define COMMAND_DEFAULT_TIMEOUT_S 60

static const struct board_command *cmds(const struct power *power)
{
	return power->board->power.command;
}

static int command_open(struct power *power, struct rig_err *err)
{
	if (!cmds(power))
		return rig_err_set(err, RIG_EXIT_USAGE, "board %s: power.backend is command but "
				   "power.command is missing",
				   power->board->name ? power->board->name : "?");
	return 0;
}

static void command_close(struct power *power)
{
	(void)power;
}

static unsigned timeout_ms(const struct power *power)
{
	unsigned s = power->board->timeouts.command;

	return (s ? s : COMMAND_DEFAULT_TIMEOUT_S) * 1000;
}

/* First line of text, without trailing blanks, for error messages. */
static void first_line(const char *text, char *buf, size_t size)
{
	size_t n = strcspn(text, "\n");

	if (n >= size)
		n = size - 1;
	memcpy(buf, text, n);
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		n--;
	buf[n] = '\0';
}

static int run(struct power *power, const char *action, const char *cmd,
	       struct shell_result *res, struct rig_err *err)
{
	if (!cmd)
		return rig_err_set(err, RIG_EXIT_USAGE, "board %s: no power.command.%s",
				   power->board->name ? power->board->name : "?", action);
	return shell_run(cmd, timeout_ms(power), res, err);
}

/* Run and require success; stderr's first line explains a failure. */
static int run_ok(struct power *power, const char *action, const char *cmd, struct rig_err *err)
{
	struct shell_result res;
	char why[512];

	if (run(power, action, cmd, &res, err) < 0)
		return -1;
	if (res.exit_code == 0)
		return 0;
	first_line(res.err[0] ? res.err : res.out, why, sizeof(why));
	return rig_err_set(err, RIG_EXIT_INFRA, "power %s: '%s' exited %d%s%s", action, cmd,
			   res.exit_code, why[0] ? ": " : "", why);
}

static int command_on(struct power *power, struct rig_err *err)
{
	return run_ok(power, "on", cmds(power)->on, err);
}

static int command_off(struct power *power, struct rig_err *err)
{
	return run_ok(power, "off", cmds(power)->off, err);
}

static int command_cycle(struct power *power, struct rig_err *err)
{
	if (cmds(power)->cycle)
		return run_ok(power, "cycle", cmds(power)->cycle, err);
	if (command_off(power, err) < 0)
		return -1;
	return command_on(power, err);
}

static int command_press(struct power *power, unsigned ms, struct rig_err *err)
{
	(void)ms;  /* the command decides how long it presses */
	return run_ok(power, "press", cmds(power)->press, err);
}

static int command_reset(struct power *power, struct rig_err *err)
{
	return run_ok(power, "reset", cmds(power)->reset, err);
}

static int parse_status(const struct shell_result *res, enum power_state *state)
{
	char word[32];

	if (sscanf(res->out, "%31s", word) == 1) {
		for (char *p = word; *p; p++)
			*p = (char)tolower((unsigned char)*p);
		if (power_state_parse(word, state) == 0)
			return 0;
	}
	if (res->exit_code == 0 || res->exit_code == 1) {
		*state = res->exit_code == 0 ? POWER_RUNNING : POWER_OFF;
		return 0;
	}
	return -1;
}

static int command_status(struct power *power, enum power_state *state, struct rig_err *err)
{
	const char *cmd = cmds(power)->status;
	struct shell_result res;
	char why[512];

	if (run(power, "status", cmd, &res, err) < 0)
		return -1;
	if (parse_status(&res, state) == 0)
		return 0;
	first_line(res.err[0] ? res.err : res.out, why, sizeof(why));
	return rig_err_set(err, RIG_EXIT_INFRA, "power status: '%s' exited %d%s%s", cmd,
			   res.exit_code, why[0] ? ": " : "", why);
}

const struct power_ops power_command_ops = {
	.name = "command",
	.open = command_open,
	.on = command_on,
	.off = command_off,
	.cycle = command_cycle,
	.press = command_press,
	.reset = command_reset,
	.status = command_status,
	.close = command_close,
};
