#include "power/gpiod_seq.h"

#include <stdbool.h>
#include <string.h>

#include "util/clock.h"

unsigned gpio_line_flags(const struct board_gpio_line *line)
{
	return line->active_low ? GPIO_FLAG_ACTIVE_LOW : 0;
}

void gpio_io_sleep_ms(const struct gpio_io *io, unsigned ms)
{
	(void)io;
	clock_sleep_ms(ms);
}

static unsigned press_ms(const struct board_gpiod *cfg)
{
	return cfg->press_ms ? cfg->press_ms : GPIOD_DEFAULT_PRESS_MS;
}

static unsigned long_press_ms(const struct board_gpiod *cfg)
{
	return cfg->long_press_ms ? cfg->long_press_ms : GPIOD_DEFAULT_LONG_PRESS_MS;
}

static int take_output(const struct gpio_io *io, const struct board_gpio_line *cfg, int value,
		       struct gpio_line **line, struct rig_err *err)
{
	*line = NULL;
	if (!cfg->chip)
		return 0;
	return io->request_output(io, cfg->chip, cfg->offset, gpio_line_flags(cfg), value, line,
				  err);
}

int gpiod_lines_take(struct gpiod_lines *lines, const struct gpio_io *io,
		     const struct board_gpiod *cfg, struct rig_err *err)
{
	int powered = 0;

	memset(lines, 0, sizeof(*lines));
	lines->io = io;
	lines->cfg = cfg;
	if (cfg->power.chip && io->read_input(io, cfg->power.chip, cfg->power.offset,
					      gpio_line_flags(&cfg->power), &powered, err) < 0)
		return -1;
	if (take_output(io, &cfg->power, powered, &lines->power, err) < 0 ||
	    take_output(io, &cfg->button, 0, &lines->button, err) < 0 ||
	    take_output(io, &cfg->reset, 0, &lines->reset, err) < 0) {
		gpiod_lines_release(lines);
		return -1;
	}
	return 0;
}

void gpiod_lines_release(struct gpiod_lines *lines)
{
	struct gpio_line **all[] = { &lines->power, &lines->button, &lines->reset };

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		if (*all[i])
			lines->io->release(lines->io, *all[i]);
		*all[i] = NULL;
	}
}

static int need(const struct gpio_line *line, const char *what, struct rig_err *err)
{
	if (line)
		return 0;
	return rig_err_set(err, RIG_EXIT_USAGE, "board has no power.gpiod.%s line", what);
}

/* Assert for ms, then release even if asserting failed half-way. */
static int pulse(struct gpiod_lines *lines, struct gpio_line *line, unsigned ms,
		 struct rig_err *err)
{
	const struct gpio_io *io = lines->io;
	int rc = io->set(io, line, 1, err);

	if (rc == 0)
		io->sleep_ms(io, ms);
	if (io->set(io, line, 0, rc == 0 ? err : NULL) < 0)
		rc = -1;
	return rc;
}

static bool has_sense(const struct gpiod_lines *lines)
{
	return lines->cfg->sense.chip != NULL;
}

static int read_sense(struct gpiod_lines *lines, int *up, struct rig_err *err)
{
	const struct board_gpio_line *sense = &lines->cfg->sense;

	return lines->io->read_input(lines->io, sense->chip, sense->offset, gpio_line_flags(sense),
				     up, err);
}

/* Poll the power-good line for up to ms: 1 = up, 0 = still down, -1 = error. */
static int wait_power_good(struct gpiod_lines *lines, unsigned ms, struct rig_err *err)
{
	for (unsigned waited = 0;; waited += GPIOD_SENSE_POLL_MS) {
		int up;

		if (read_sense(lines, &up, err) < 0)
			return -1;
		if (up || waited >= ms)
			return up;
		lines->io->sleep_ms(lines->io, GPIOD_SENSE_POLL_MS);
	}
}

static unsigned power_good_ms(const struct board_gpiod *cfg)
{
	return cfg->power_good_ms ? cfg->power_good_ms : GPIOD_DEFAULT_POWER_GOOD_MS;
}

/* Close the relay.  With a power-good line the board must then come up: one that does not
 * start on power alone (a laptop, or a board the relay already fed, off after a hibernation)
 * gets a press on its button. */
int gpiod_seq_on(struct gpiod_lines *lines, struct rig_err *err)
{
	bool just_closed = false;
	int relay = 0, up;

	if (!has_sense(lines) && need(lines->power, "power", err) < 0)
		return -1;
	if (lines->power && lines->io->get(lines->io, lines->power, &relay, err) < 0)
		return -1;
	if (lines->power && !relay) {
		if (lines->io->set(lines->io, lines->power, 1, err) < 0)
			return -1;
		just_closed = true;
	}
	if (!has_sense(lines))
		return 0;
	up = wait_power_good(lines, just_closed ? power_good_ms(lines->cfg) : 0, err);
	if (up != 0)
		return up < 0 ? -1 : 0;
	if (!lines->button)
		return rig_err_set(err, RIG_EXIT_INFRA, "the board did not come up: power-good stayed "
				   "low %u ms after the relay closed, and it has no button to press",
				   power_good_ms(lines->cfg));
	if (gpiod_seq_press(lines, 0, err) < 0)
		return -1;
	up = wait_power_good(lines, power_good_ms(lines->cfg), err);
	if (up == 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "the board did not come up: power-good stayed "
				   "low %u ms after a press on its power button",
				   power_good_ms(lines->cfg));
	return up < 0 ? -1 : 0;
}

int gpiod_seq_off(struct gpiod_lines *lines, struct rig_err *err)
{
	if (lines->power)
		return lines->io->set(lines->io, lines->power, 0, err);
	if (need(lines->button, "power or button", err) < 0)
		return -1;
	return pulse(lines, lines->button, long_press_ms(lines->cfg), err);
}

int gpiod_seq_cycle(struct gpiod_lines *lines, struct rig_err *err)
{
	if (gpiod_seq_off(lines, err) < 0)
		return -1;
	lines->io->sleep_ms(lines->io, GPIOD_CYCLE_OFF_MS);
	if (lines->power)
		return gpiod_seq_on(lines, err);
	return gpiod_seq_press(lines, 0, err);
}

int gpiod_seq_press(struct gpiod_lines *lines, unsigned ms, struct rig_err *err)
{
	if (need(lines->button, "button", err) < 0)
		return -1;
	return pulse(lines, lines->button, ms ? ms : press_ms(lines->cfg), err);
}

int gpiod_seq_reset(struct gpiod_lines *lines, struct rig_err *err)
{
	if (need(lines->reset, "reset", err) < 0)
		return -1;
	return pulse(lines, lines->reset, press_ms(lines->cfg), err);
}

int gpiod_seq_status(struct gpiod_lines *lines, enum power_state *state, struct rig_err *err)
{
	int value;

	if (has_sense(lines)) {
		if (read_sense(lines, &value, err) < 0)
			return -1;
		*state = value ? POWER_RUNNING : POWER_OFF;
		return 0;
	}
	if (!lines->power) {
		*state = POWER_UNKNOWN;
		return 0;
	}
	if (lines->io->get(lines->io, lines->power, &value, err) < 0)
		return -1;
	*state = value ? POWER_RUNNING : POWER_OFF;
	return 0;
}
