/* What the GPIO lines of a board do for each power action, independent of how lines are
 * driven (struct gpio_io). */
#ifndef RIG_POWER_GPIOD_SEQ_H
#define RIG_POWER_GPIOD_SEQ_H

#include "config/board.h"
#include "power/gpio_io.h"
#include "power/power.h"

/* How long the supply stays cut during a cycle, so the board's capacitors drain. */
#define GPIOD_CYCLE_OFF_MS 2000
#define GPIOD_DEFAULT_PRESS_MS 200
#define GPIOD_DEFAULT_LONG_PRESS_MS 6000
#define GPIOD_DEFAULT_POWER_GOOD_MS 3000
#define GPIOD_SENSE_POLL_MS 100

struct gpiod_lines {
	const struct gpio_io *io;
	const struct board_gpiod *cfg;
	struct gpio_line *power, *button, *reset;   /* NULL when the board has no such line */
};

/* Take every configured line.  The supply relay keeps the level it has now (sampled as input),
 * so taking the lines never switches the board; button and reset start released. */
int gpiod_lines_take(struct gpiod_lines *lines, const struct gpio_io *io,
		     const struct board_gpiod *cfg, struct rig_err *err);
void gpiod_lines_release(struct gpiod_lines *lines);

/* Relay closed; with a power-good (sense) line, a press on the button when the board does not
 * come up by itself within power_good_ms. */
int gpiod_seq_on(struct gpiod_lines *lines, struct rig_err *err);
/* Relay off, or a long button press (forced off) when there is no relay. */
int gpiod_seq_off(struct gpiod_lines *lines, struct rig_err *err);
int gpiod_seq_cycle(struct gpiod_lines *lines, struct rig_err *err);
/* Button for ms (0 = press_ms), then released, whatever happened. */
int gpiod_seq_press(struct gpiod_lines *lines, unsigned ms, struct rig_err *err);
int gpiod_seq_reset(struct gpiod_lines *lines, struct rig_err *err);
/* From the power-good line when there is one, else from the relay: on or off; unknown with
 * neither. */
int gpiod_seq_status(struct gpiod_lines *lines, enum power_state *state, struct rig_err *err);

#endif
