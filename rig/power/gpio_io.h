/* The few GPIO calls the gpiod backend makes, behind ops so its logic runs against a fake in
 * tests (real lines need hardware or gpio-sim).  Values are logical: 1 = asserted. */
#ifndef RIG_POWER_GPIO_IO_H
#define RIG_POWER_GPIO_IO_H

#include "config/board.h"
#include "util/err.h"

#define GPIO_FLAG_ACTIVE_LOW 1u   /* the line is asserted by driving it low */

struct gpio_line;

struct gpio_io {
	/* Sample a line as input (it is released again). */
	int (*read_input)(const struct gpio_io *io, const char *chip, unsigned offset,
			  unsigned flags, int *value, struct rig_err *err);
	/* Take a line as output, driven to value at once. */
	int (*request_output)(const struct gpio_io *io, const char *chip, unsigned offset,
			      unsigned flags, int value, struct gpio_line **line,
			      struct rig_err *err);
	int (*set)(const struct gpio_io *io, struct gpio_line *line, int value,
		   struct rig_err *err);
	int (*get)(const struct gpio_io *io, struct gpio_line *line, int *value,
		   struct rig_err *err);
	void (*release)(const struct gpio_io *io, struct gpio_line *line);
	void (*sleep_ms)(const struct gpio_io *io, unsigned ms);
};

/* The request flags a board line needs. */
unsigned gpio_line_flags(const struct board_gpio_line *line);
/* sleep_ms for the real backends: the whole time, signals or not. */
void gpio_io_sleep_ms(const struct gpio_io *io, unsigned ms);

/* libgpiod 1.6 or 2.x, whichever pkg-config offered at build time (gpio_libgpiod_v1.c,
 * gpio_libgpiod_v2.c); lines are requested as consumer "rig[PID]". */
extern const struct gpio_io gpio_io_libgpiod;
/* The libgpiod version rig runs with ("1.6.3", "2.2.1"). */
const char *gpio_library_version(void);

#endif
