#include "power/gpio_holder.h"

#include <ctype.h>
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/err.h"

#define MAX_HOLDERS 3

const char *gpio_consumer_label(void)
{
	static char label[32];

	if (!label[0])
		snprintf(label, sizeof(label), "rig[%ld]", (long)getpid());
	return label;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* Does this fdinfo text describe a line request on chip_dev that includes offset? */
static bool fdinfo_holds(FILE *f, const char *chip_dev, unsigned offset)
{
	char line[256];
	bool on_chip = false, has_line = false;

	while (fgets(line, sizeof(line), f)) {
		char name[128];
		unsigned n;

		if (sscanf(line, "gpio-chip: %127s", name) == 1)
			on_chip = strcmp(name, chip_dev) == 0;
		else if (sscanf(line, "gpio-line: %u", &n) == 1 && n == offset)
			has_line = true;
	}
	return on_chip && has_line;
}

static bool process_holds(const char *proc_root, const char *pid, const char *chip_dev,
			  unsigned offset)
{
	char path[512];
	struct dirent *fd;
	bool found = false;
	DIR *d;

	if (snprintf(path, sizeof(path), "%s/%s/fdinfo", proc_root, pid) >= (int)sizeof(path) ||
	    !(d = opendir(path)))
		return false;
	while (!found && (fd = readdir(d))) {
		FILE *f;

		if (!all_digits(fd->d_name))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s/fdinfo/%s", proc_root, pid, fd->d_name) >=
		    (int)sizeof(path))
			continue;
		if ((f = fopen(path, "re"))) {
			found = fdinfo_holds(f, chip_dev, offset);
			fclose(f);
		}
	}
	closedir(d);
	return found;
}

static void read_comm(const char *proc_root, const char *pid, char *buf, size_t size)
{
	char path[512];
	FILE *f;

	snprintf(buf, size, "?");
	if (snprintf(path, sizeof(path), "%s/%s/comm", proc_root, pid) >= (int)sizeof(path) ||
	    !(f = fopen(path, "re")))
		return;
	if (fgets(buf, (int)size, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

void gpio_holder_describe(const char *proc_root, const char *chip_dev, unsigned offset,
			  const char *consumer, char *buf, size_t size)
{
	struct dirent *p;
	size_t used;
	int holders = 0;
	DIR *d;

	snprintf(buf, size, "'%s'", consumer && *consumer ? consumer : "(no consumer label)");
	if (!chip_dev || !(d = opendir(proc_root)))
		return;
	while (holders < MAX_HOLDERS && (p = readdir(d))) {
		char comm[64];

		if (!all_digits(p->d_name) || !process_holds(proc_root, p->d_name, chip_dev, offset))
			continue;
		read_comm(proc_root, p->d_name, comm, sizeof(comm));
		used = strlen(buf);
		snprintf(buf + used, size - used, "%s%s %s", holders ? ", " : " (pid ", p->d_name, comm);
		holders++;
	}
	closedir(d);
	used = strlen(buf);
	if (holders)
		snprintf(buf + used, size - used, ")");
}

int gpio_busy_error(struct rig_err *err, const char *chip, const char *chip_dev, unsigned offset,
		    const char *line_name, const char *consumer)
{
	char holder[256], dev[80] = "";

	gpio_holder_describe("/proc", chip_dev, offset, consumer, holder, sizeof(holder));
	if (chip_dev && strcmp(chip_dev, chip) != 0)
		snprintf(dev, sizeof(dev), " (%s)", chip_dev);
	return rig_err_set(err, RIG_EXIT_INFRA,
			   "GPIO chip %s%s line %u%s%s%s: already held by %s; stop that holder "
			   "(or point power.gpiod.socket at the rig powerd holding it)",
			   chip, dev, offset, line_name && *line_name ? " '" : "",
			   line_name && *line_name ? line_name : "", line_name && *line_name ? "'" : "",
			   holder);
}
