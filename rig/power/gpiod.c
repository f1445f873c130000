/* The gpiod backend: a relay on the supply, an opto across the power button and one on reset,
 * each on a GPIO line.  Lines revert when their holder exits, so when `rig powerd` answers on
 * the board's socket every action is delegated to it; otherwise rig drives the lines itself
 * and warns that they revert when it exits. */
#include "power/gpiod.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "power/backend.h"
#include "power/gpiod_seq.h"
#include "power/power_daemon.h"
#include "power/power_proto.h"

/* Longer than the longest action the daemon performs (a cycle with a forced-off press). */
#define GPIOD_CALL_TIMEOUT_MS 60000

struct gpiod_power {
	bool via_daemon;
	int watch_fd;          /* via the daemon: open while it lives */
	bool gone;             /* the daemon went away; reported once */
	struct gpiod_lines lines;
};

static struct gpiod_power *priv(struct power *power)
{
	return power->priv;
}

static const struct board_gpiod *cfg(const struct power *power)
{
	return power->board->power.gpiod;
}

static int open_lines(struct power *power, const struct gpio_io *io, struct rig_err *err)
{
	struct gpiod_power *gp = calloc(1, sizeof(*gp));

	if (!gp)
		return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
	if (gpiod_lines_take(&gp->lines, io, cfg(power), err) < 0) {
		free(gp);
		return -1;
	}
	power->priv = gp;
	return 0;
}

static int gpiod_open(struct power *power, struct rig_err *err)
{
	struct gpiod_power *gp;
	int probe;

	if (!cfg(power))
		return rig_err_set(err, RIG_EXIT_USAGE, "board %s: power.backend is gpiod but "
				   "power.gpiod is missing",
				   power->board->name ? power->board->name : "?");
	probe = cfg(power)->socket ? power_daemon_probe(cfg(power)->socket, err) : 0;
	if (probe < 0)
		return -1;   /* a daemon that refuses us (or a non-daemon) there: its lines are held */
	if (probe == 1) {
		gp = calloc(1, sizeof(*gp));
		if (!gp)
			return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
		gp->via_daemon = true;
		if (power_daemon_watch(cfg(power)->socket, &gp->watch_fd, err) < 0) {
			free(gp);
			return -1;
		}
		power->priv = gp;
		return 0;
	}
	fprintf(stderr, "rig: warning: no rig powerd answers on %s; driving the GPIO lines "
		"directly: they revert when rig exits\n",
		cfg(power)->socket ? cfg(power)->socket : "(no power.gpiod.socket)");
	return open_lines(power, &gpio_io_libgpiod, err);
}

int gpiod_power_open_direct(const struct board *board, const struct gpio_io *io,
			    struct power **out, struct rig_err *err)
{
	struct power *power;

	*out = NULL;
	if (!board->power.gpiod)
		return rig_err_set(err, RIG_EXIT_USAGE, "board %s: power.gpiod is missing",
				   board->name ? board->name : "?");
	power = power_alloc(&power_gpiod_ops, board, NULL, err);
	if (!power)
		return -1;
	if (open_lines(power, io, err) < 0) {
		power_close(power);
		return -1;
	}
	*out = power;
	return 0;
}

static void gpiod_close(struct power *power)
{
	struct gpiod_power *gp = priv(power);

	if (!gp)
		return;
	if (!gp->via_daemon)
		gpiod_lines_release(&gp->lines);
	else
		close(gp->watch_fd);
	free(gp);
}

/* Send req to the daemon; payload (may be NULL) receives what followed "ok". */
static int call_daemon(struct power *power, enum power_verb verb, unsigned ms, char *payload,
		       size_t size, struct rig_err *err)
{
	struct power_request req = { .verb = verb, .ms = ms };
	char line[POWER_PROTO_LINE_MAX], reply[POWER_PROTO_LINE_MAX], ignored[8];

	if (power_request_format(&req, line, sizeof(line)) < 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "cannot encode power request");
	if (power_daemon_call(cfg(power)->socket, line, reply, sizeof(reply),
			      GPIOD_CALL_TIMEOUT_MS, err) < 0)
		return -1;
	return payload ? power_reply_parse(reply, payload, size, err)
		       : power_reply_parse(reply, ignored, sizeof(ignored), err);
}

static int gpiod_on(struct power *power, struct rig_err *err)
{
	if (priv(power)->via_daemon)
		return call_daemon(power, POWER_VERB_ON, 0, NULL, 0, err);
	return gpiod_seq_on(&priv(power)->lines, err);
}

static int gpiod_off(struct power *power, struct rig_err *err)
{
	if (priv(power)->via_daemon)
		return call_daemon(power, POWER_VERB_OFF, 0, NULL, 0, err);
	return gpiod_seq_off(&priv(power)->lines, err);
}

static int gpiod_cycle(struct power *power, struct rig_err *err)
{
	if (priv(power)->via_daemon)
		return call_daemon(power, POWER_VERB_CYCLE, 0, NULL, 0, err);
	return gpiod_seq_cycle(&priv(power)->lines, err);
}

static int gpiod_press(struct power *power, unsigned ms, struct rig_err *err)
{
	if (priv(power)->via_daemon)
		return call_daemon(power, POWER_VERB_PRESS, ms, NULL, 0, err);
	return gpiod_seq_press(&priv(power)->lines, ms, err);
}

static int gpiod_reset(struct power *power, struct rig_err *err)
{
	if (priv(power)->via_daemon)
		return call_daemon(power, POWER_VERB_RESET, 0, NULL, 0, err);
	return gpiod_seq_reset(&priv(power)->lines, err);
}

static int gpiod_status(struct power *power, enum power_state *state, struct rig_err *err)
{
	char word[64];

	if (!priv(power)->via_daemon)
		return gpiod_seq_status(&priv(power)->lines, state, err);
	if (call_daemon(power, POWER_VERB_STATUS, 0, word, sizeof(word), err) < 0)
		return -1;
	if (power_state_parse(word, state) < 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "rig powerd: unknown state '%s'", word);
	return 0;
}

/* How a line of the board rests now that nobody drives it. */
static void describe_idle(const struct board_gpio_line *line, const char *what,
			  const char *asserted, const char *released, char *buf, size_t size)
{
	struct rig_err ignored;
	size_t used = strlen(buf);
	int value;

	if (!line->chip)
		return;
	if (gpio_io_libgpiod.read_input(&gpio_io_libgpiod, line->chip, line->offset,
					gpio_line_flags(line), &value, &ignored) < 0)
		snprintf(buf + used, size - used, "; %s: unreadable (%s)", what, ignored.msg);
	else
		snprintf(buf + used, size - used, "; %s now %s", what, value ? asserted : released);
}

static int gpiod_check(struct power *power, struct rig_err *err)
{
	struct gpiod_power *gp = priv(power);
	char state[768] = "";

	if (!gp->via_daemon || (!gp->gone && !power_daemon_gone(gp->watch_fd)))
		return 0;
	gp->gone = true;
	describe_idle(&cfg(power)->power, "relay", "closed: the board is powered",
		      "open: the board is unpowered", state, sizeof(state));
	describe_idle(&cfg(power)->button, "button", "pressed", "released", state, sizeof(state));
	describe_idle(&cfg(power)->sense, "power-good", "high: the board is up",
		      "low: the board is down", state, sizeof(state));
	return rig_err_set(err, RIG_EXIT_INFRA, "rig powerd on %s went away mid-run (killed?): "
			   "the GPIO lines it held are released to their idle levels%s; start "
			   "rig powerd again before the next run", cfg(power)->socket, state);
}

const struct power_ops power_gpiod_ops = {
	.name = "gpiod",
	.open = gpiod_open,
	.on = gpiod_on,
	.off = gpiod_off,
	.cycle = gpiod_cycle,
	.press = gpiod_press,
	.reset = gpiod_reset,
	.status = gpiod_status,
	.check = gpiod_check,
	.close = gpiod_close,
};
