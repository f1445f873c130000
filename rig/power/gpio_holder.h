/* Who holds a GPIO line that rig could not take: the consumer label the kernel reports and the
 * processes whose line requests include the line (GPIO uAPI v2 requests list their chip and
 * lines in /proc/PID/fdinfo; v1 handles, as libgpiod 1.6 makes, do not, so their holder is
 * known by its label only). */
#ifndef RIG_POWER_GPIO_HOLDER_H
#define RIG_POWER_GPIO_HOLDER_H

#include <stddef.h>

/* The consumer rig itself requests lines as: "rig[PID]", so that another rig (a second
 * `rig powerd`, a forgotten `rig power` in direct mode) is named by its PID even through v1. */
const char *gpio_consumer_label(void);

/* "'gpioset' (pid 412 gpioset)" or "'rig[97]'" into buf.  chip_dev is the chip's device name
 * (gpiochip1), consumer what the library reports (NULL or empty: unknown).  proc_root is /proc
 * (tests pass a fake tree). */
void gpio_holder_describe(const char *proc_root, const char *chip_dev, unsigned offset,
			  const char *consumer, char *buf, size_t size);

/* Fill err (RIG_EXIT_INFRA) for a line another process holds: chip as the board names it and
 * the chip's device name, the line's offset and name, and its holder.  Returns -1. */
struct rig_err;
int gpio_busy_error(struct rig_err *err, const char *chip, const char *chip_dev, unsigned offset,
		    const char *line_name, const char *consumer);

#endif
