/* The gpiod backend's entry points beyond the registry: `rig powerd` and tests open it
 * directly on a given struct gpio_io, never through the daemon. */
#ifndef RIG_POWER_GPIOD_H
#define RIG_POWER_GPIOD_H

#include "power/gpio_io.h"
#include "power/power.h"

int gpiod_power_open_direct(const struct board *board, const struct gpio_io *io,
			    struct power **out, struct rig_err *err);

#endif
