/* struct gpio_io on libgpiod 2.x (Debian trixie and later): the same behaviour as
 * gpio_libgpiod_v1.c on the 2.x API, where a chip is opened by path only and a line is taken
 * through settings, a line config and a request config.  The Makefile compiles the one that
 * matches pkg-config's libgpiod. */
#include "power/gpio_io.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <gpiod.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "power/gpio_holder.h"

struct gpio_line {
	struct gpiod_chip *chip;
	struct gpiod_line_request *request;
	unsigned offset;
	char chip_dev[64];   /* gpiochipN, for messages */
};

static int all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

static int has_label(const char *path, const char *label)
{
	struct gpiod_chip *chip = gpiod_chip_open(path);
	struct gpiod_chip_info *info = chip ? gpiod_chip_get_info(chip) : NULL;
	int same = info && strcmp(gpiod_chip_info_get_label(info), label) == 0;

	if (info)
		gpiod_chip_info_free(info);
	if (chip)
		gpiod_chip_close(chip);
	return same;
}

/* What libgpiod 1.6's gpiod_chip_open_lookup() accepted, so board files work with both: a path,
 * a device name (gpiochip0), a number, or the chip's label. */
static struct gpiod_chip *open_lookup(const char *chip)
{
	char path[300];
	struct dirent *e;
	DIR *d;

	if (chip[0] == '/')
		return gpiod_chip_open(chip);
	if (all_digits(chip))
		snprintf(path, sizeof(path), "/dev/gpiochip%s", chip);
	else
		snprintf(path, sizeof(path), "/dev/%s", chip);
	if (strchr(chip, '/') == NULL && gpiod_is_gpiochip_device(path))
		return gpiod_chip_open(path);
	if (!(d = opendir("/dev")))
		return NULL;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "gpiochip", 8) != 0)
			continue;
		snprintf(path, sizeof(path), "/dev/%s", e->d_name);
		if (has_label(path, chip)) {
			closedir(d);
			return gpiod_chip_open(path);
		}
	}
	closedir(d);
	errno = ENOENT;
	return NULL;
}

static int open_chip(const char *chip, unsigned offset, struct gpio_line *out,
		     struct rig_err *err)
{
	struct gpiod_chip_info *info;
	size_t lines;

	out->offset = offset;
	out->chip = open_lookup(chip);
	if (!out->chip)
		return rig_err_set(err, RIG_EXIT_INFRA, "GPIO chip %s: %s (a path, name, number "
				   "or label: gpioinfo lists them)", chip,
				   errno == ENOENT ? "no such chip" : strerror(errno));
	info = gpiod_chip_get_info(out->chip);
	if (!info) {
		rig_err_set(err, RIG_EXIT_INFRA, "GPIO chip %s: %s", chip, strerror(errno));
		gpiod_chip_close(out->chip);
		return -1;
	}
	snprintf(out->chip_dev, sizeof(out->chip_dev), "%s", gpiod_chip_info_get_name(info));
	lines = gpiod_chip_info_get_num_lines(info);
	gpiod_chip_info_free(info);
	if (offset >= lines) {
		rig_err_set(err, RIG_EXIT_INFRA, "GPIO chip %s line %u: no such line (the chip has "
			    "%zu lines)", chip, offset, lines);
		gpiod_chip_close(out->chip);
		return -1;
	}
	return 0;
}

static int request_failed(const struct gpio_line *l, const char *chip, const char *what,
			  struct rig_err *err)
{
	int saved = errno, rc;
	struct gpiod_line_info *info;

	if (saved != EBUSY)
		return rig_err_set(err, RIG_EXIT_INFRA, "GPIO chip %s line %u: %s: %s", chip,
				   l->offset, what, strerror(saved));
	info = gpiod_chip_get_line_info(l->chip, l->offset);
	rc = gpio_busy_error(err, chip, l->chip_dev, l->offset,
			     info ? gpiod_line_info_get_name(info) : NULL,
			     info ? gpiod_line_info_get_consumer(info) : NULL);
	if (info)
		gpiod_line_info_free(info);
	return rc;
}

/* One line, one request; value is only used for outputs. */
static struct gpiod_line_request *request_line(struct gpio_line *l, unsigned flags,
					       enum gpiod_line_direction direction, int value)
{
	struct gpiod_line_settings *settings = gpiod_line_settings_new();
	struct gpiod_line_config *line_cfg = gpiod_line_config_new();
	struct gpiod_request_config *req_cfg = gpiod_request_config_new();
	struct gpiod_line_request *request = NULL;
	int saved;

	if (settings && line_cfg && req_cfg &&
	    gpiod_line_settings_set_direction(settings, direction) == 0 &&
	    (direction != GPIOD_LINE_DIRECTION_OUTPUT ||
	     gpiod_line_settings_set_output_value(settings, value ? GPIOD_LINE_VALUE_ACTIVE
								   : GPIOD_LINE_VALUE_INACTIVE) == 0)) {
		gpiod_line_settings_set_active_low(settings, (flags & GPIO_FLAG_ACTIVE_LOW) != 0);
		gpiod_request_config_set_consumer(req_cfg, gpio_consumer_label());
		if (gpiod_line_config_add_line_settings(line_cfg, &l->offset, 1, settings) == 0)
			request = gpiod_chip_request_lines(l->chip, req_cfg, line_cfg);
	}
	saved = errno;
	gpiod_request_config_free(req_cfg);
	gpiod_line_config_free(line_cfg);
	gpiod_line_settings_free(settings);
	errno = saved;
	return request;
}

static int lib_read_input(const struct gpio_io *io, const char *chip, unsigned offset,
			  unsigned flags, int *value, struct rig_err *err)
{
	struct gpio_line l;
	int rc = 0;

	(void)io;
	if (open_chip(chip, offset, &l, err) < 0)
		return -1;
	if (!(l.request = request_line(&l, flags, GPIOD_LINE_DIRECTION_INPUT, 0))) {
		rc = request_failed(&l, chip, "request input", err);
		gpiod_chip_close(l.chip);
		return rc;
	}
	*value = gpiod_line_request_get_value(l.request, offset);
	if (*value == GPIOD_LINE_VALUE_ERROR)
		rc = rig_err_set(err, RIG_EXIT_INFRA, "GPIO chip %s line %u: read: %s", chip, offset,
				 strerror(errno));
	gpiod_line_request_release(l.request);
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
	if (open_chip(chip, offset, l, err) < 0) {
		free(l);
		return -1;
	}
	if (!(l->request = request_line(l, flags, GPIOD_LINE_DIRECTION_OUTPUT, value))) {
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
	if (gpiod_line_request_set_value(line->request, line->offset,
					 value ? GPIOD_LINE_VALUE_ACTIVE
					       : GPIOD_LINE_VALUE_INACTIVE) < 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "GPIO chip %s line %u: set: %s",
				   line->chip_dev, line->offset, strerror(errno));
	return 0;
}

static int lib_get(const struct gpio_io *io, struct gpio_line *line, int *value,
		   struct rig_err *err)
{
	(void)io;
	*value = gpiod_line_request_get_value(line->request, line->offset);
	if (*value == GPIOD_LINE_VALUE_ERROR)
		return rig_err_set(err, RIG_EXIT_INFRA, "GPIO chip %s line %u: read: %s",
				   line->chip_dev, line->offset, strerror(errno));
	return 0;
}

static void lib_release(const struct gpio_io *io, struct gpio_line *line)
{
	(void)io;
	if (!line)
		return;
	gpiod_line_request_release(line->request);
	gpiod_chip_close(line->chip);
	free(line);
}

const char *gpio_library_version(void)
{
	return gpiod_api_version();
}

const struct gpio_io gpio_io_libgpiod = {
	.read_input = lib_read_input,
	.request_output = lib_request_output,
	.set = lib_set,
	.get = lib_get,
	.release = lib_release,
	.sleep_ms = gpio_io_sleep_ms,
};
