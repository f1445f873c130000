/* struct gpio_io on libgpiod v1.6.  A requested line stays ours until released or until the
 * process exits, when the kernel reverts it: hence `rig powerd`. */
#include "power/gpio_io.h"
#include "util/clock.h"

#include <errno.h>
#include <gpiod.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define GPIO_CONSUMER "rig"

struct gpio_line {
	struct gpiod_chip *chip;
	struct gpiod_line *line;
};

static int request_flags(unsigned flags)
{
	return (flags & GPIO_FLAG_ACTIVE_LOW) ? GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW : 0;
}

static int lookup(const char *chip, unsigned offset, struct gpio_line *out, struct rig_err *err)
{
	out->chip = gpiod_chip_open_lookup(chip);
	if (!out->chip)
		return rig_err_set(err, RIG_EXIT_INFRA, "GPIO chip %s: %s", chip, strerror(errno));
	out->line = gpiod_chip_get_line(out->chip, offset);
	if (!out->line) {
		rig_err_set(err, RIG_EXIT_INFRA, "GPIO %s line %u: %s", chip, offset,
			    strerror(errno));
		gpiod_chip_close(out->chip);
		return -1;
	}
	return 0;
}

static int lib_read_input(const struct gpio_io *io, const char *chip, unsigned offset,
			  unsigned flags, int *value, struct rig_err *err)
{
	struct gpio_line l;
	int rc = 0;

	(void)io;
	if (lookup(chip, offset, &l, err) < 0)
		return -1;
	if (gpiod_line_request_input_flags(l.line, GPIO_CONSUMER, request_flags(flags)) < 0)
		rc = rig_err_set(err, RIG_EXIT_INFRA, "GPIO %s line %u: request: %s", chip, offset,
				 strerror(errno));
	else if ((*value = gpiod_line_get_value(l.line)) < 0)
		rc = rig_err_set(err, RIG_EXIT_INFRA, "GPIO %s line %u: read: %s", chip, offset,
				 strerror(errno));
	gpiod_line_release(l.line);
	gpiod_chip_close(l.chip);
	return rc;
}

static int lib_request_output(const struct gpio_io *io, const char *chip, unsigned offset,
			      unsigned flags, int value, struct gpio_line **line,
			      struct rig_err *err)
{
	struct gpio_line *l = calloc(1, sizeof(*l));

	(void)io;
	if (!l)
		return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
	if (lookup(chip, offset, l, err) < 0) {
		free(l);
		return -1;
	}
	if (gpiod_line_request_output_flags(l->line, GPIO_CONSUMER, request_flags(flags),
					    value) < 0) {
		rig_err_set(err, RIG_EXIT_INFRA, "GPIO %s line %u: request output: %s", chip,
			    offset, strerror(errno));
		gpiod_chip_close(l->chip);
		free(l);
		return -1;
	}
	*line = l;
	return 0;
}

static int lib_set(const struct gpio_io *io, struct gpio_line *line, int value,
		   struct rig_err *err)
{
	(void)io;
	if (gpiod_line_set_value(line->line, value) < 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "GPIO line %u: set: %s",
				   gpiod_line_offset(line->line), strerror(errno));
	return 0;
}

static int lib_get(const struct gpio_io *io, struct gpio_line *line, int *value,
		   struct rig_err *err)
{
	(void)io;
	*value = gpiod_line_get_value(line->line);
	if (*value < 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "GPIO line %u: read: %s",
				   gpiod_line_offset(line->line), strerror(errno));
	return 0;
}

static void lib_release(const struct gpio_io *io, struct gpio_line *line)
{
	(void)io;
	if (!line)
		return;
	gpiod_line_release(line->line);
	gpiod_chip_close(line->chip);
	free(line);
}

static void lib_sleep_ms(const struct gpio_io *io, unsigned ms)
{
	(void)io;
	clock_sleep_ms(ms);
}

const struct gpio_io gpio_io_libgpiod = {
	.read_input = lib_read_input,
	.request_output = lib_request_output,
	.set = lib_set,
	.get = lib_get,
	.release = lib_release,
	.sleep_ms = lib_sleep_ms,
};
