/* struct gpio_io on libgpiod 1.6 (Debian bookworm); gpio_libgpiod_v2.c is the same on 2.x, and
 * the Makefile compiles the one that matches pkg-config's libgpiod.  A requested line stays ours
 * until released or until the process exits, when the kernel reverts it: hence `rig powerd`. */
#include "power/gpio_io.h"

#include <errno.h>
#include <gpiod.h>
#include <stdlib.h>
#include <string.h>

#include "power/gpio_holder.h"

struct gpio_line {
	struct gpiod_chip *chip;
	struct gpiod_line *line;
	unsigned offset;
};

static int request_flags(unsigned flags)
{
	return (flags & GPIO_FLAG_ACTIVE_LOW) ? GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW : 0;
}

/* gpiod_chip_open_lookup() takes a path, a name (gpiochip0), a number or a label. */
static int lookup(const char *chip, unsigned offset, struct gpio_line *out, struct rig_err *err)
{
	out->offset = offset;
	out->chip = gpiod_chip_open_lookup(chip);
	if (!out->chip)
		return rig_err_set(err, RIG_EXIT_INFRA, "GPIO chip %s: %s (a path, name, number "
				   "or label: gpioinfo lists them)", chip,
				   errno == ENOENT ? "no such chip" : strerror(errno));
	out->line = gpiod_chip_get_line(out->chip, offset);
	if (!out->line) {
		rig_err_set(err, RIG_EXIT_INFRA, "GPIO chip %s line %u: %s (the chip has %u lines)",
			    chip, offset, strerror(errno), gpiod_chip_num_lines(out->chip));
		gpiod_chip_close(out->chip);
		return -1;
	}
	return 0;
}

static int request_failed(const struct gpio_line *l, const char *chip, const char *what,
			  struct rig_err *err)
{
	int saved = errno;

	if (saved == EBUSY) {
		gpiod_line_update(l->line);
		return gpio_busy_error(err, chip, gpiod_chip_name(l->chip), l->offset,
				       gpiod_line_name(l->line), gpiod_line_consumer(l->line));
	}
	return rig_err_set(err, RIG_EXIT_INFRA, "GPIO chip %s line %u: %s: %s", chip, l->offset,
			   what, strerror(saved));
}

static int lib_read_input(const struct gpio_io *io, const char *chip, unsigned offset,
			  unsigned flags, int *value, struct rig_err *err)
{
	struct gpio_line l;
	int rc = 0;

	(void)io;
	if (lookup(chip, offset, &l, err) < 0)
		return -1;
	if (gpiod_line_request_input_flags(l.line, gpio_consumer_label(), request_flags(flags)) < 0) {
		rc = request_failed(&l, chip, "request input", err);
		gpiod_chip_close(l.chip);
		return rc;
	}
	if ((*value = gpiod_line_get_value(l.line)) < 0)
		rc = rig_err_set(err, RIG_EXIT_INFRA, "GPIO chip %s line %u: read: %s", chip, offset,
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
	if (gpiod_line_request_output_flags(l->line, gpio_consumer_label(), request_flags(flags),
					    value) < 0) {
		request_failed(l, chip, "request output", err);
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
		return rig_err_set(err, RIG_EXIT_INFRA, "GPIO chip %s line %u: set: %s",
				   gpiod_chip_name(line->chip), line->offset, strerror(errno));
	return 0;
}

static int lib_get(const struct gpio_io *io, struct gpio_line *line, int *value,
		   struct rig_err *err)
{
	(void)io;
	*value = gpiod_line_get_value(line->line);
	if (*value < 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "GPIO chip %s line %u: read: %s",
				   gpiod_chip_name(line->chip), line->offset, strerror(errno));
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

const char *gpio_library_version(void)
{
	return gpiod_version_string();
}

const struct gpio_io gpio_io_libgpiod = {
	.read_input = lib_read_input,
	.request_output = lib_request_output,
	.set = lib_set,
	.get = lib_get,
	.release = lib_release,
	.sleep_ms = gpio_io_sleep_ms,
};
