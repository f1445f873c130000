/* Locks on the physical resources a board names (resource_lock.h). */
#include "engine/resource_lock.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A name longer than this is shortened and told apart by a hash of the whole. */
#define NAME_KEEP 180

/* kind-<key>.lock, every byte outside [A-Za-z0-9.-] written _XX so that two keys never share a
 * file ("/dev/tty_1" and "/dev/tty/1" differ); an overlong one cut, plus its FNV-1a hash. */
static void lock_file_name(const char *kind, const char *key, char *out, size_t size)
{
	static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-";
	char name[4 * PATH_MAX];
	uint64_t hash = 1469598103934665603ULL;
	size_t n = 0;

	for (const unsigned char *p = (const unsigned char *)key; *p; p++) {
		hash = (hash ^ *p) * 1099511628211ULL;
		if (n + 4 >= sizeof(name))
			continue;
		if (strchr(safe, *p))
			name[n++] = (char)*p;
		else
			n += (size_t)snprintf(name + n, sizeof(name) - n, "_%02x", *p);
	}
	name[n] = '\0';
	if (n > NAME_KEEP)
		snprintf(out, size, "%s-%.*s-%016llx.lock", kind, NAME_KEEP, name,
			 (unsigned long long)hash);
	else
		snprintf(out, size, "%s-%s.lock", kind, name);
}

static void resolved(const char *path, char *out, size_t size)
{
	char real[PATH_MAX];

	snprintf(out, size, "%s", realpath(path, real) ? real : path);
}

/* "gpiochip0", "/dev/gpiochip0" (or a link to it) and "0" name one chip: its device name. */
static void chip_name(const char *chip, char *out, size_t size)
{
	char real[PATH_MAX];
	const char *base;

	if (chip[0] && strspn(chip, "0123456789") == strlen(chip)) {
		snprintf(out, size, "gpiochip%s", chip);
		return;
	}
	if (!strchr(chip, '/')) {
		snprintf(out, size, "%s", chip);
		return;
	}
	resolved(chip, real, sizeof(real));
	base = strrchr(real, '/');
	snprintf(out, size, "%s", strncmp(real, "/dev/", 5) == 0 && base ? base + 1 : real);
}

static void add_line(const struct board *board, const char *role,
		     const struct board_gpio_line *line, struct board_resource *out, size_t *n)
{
	char chip[PATH_MAX], key[PATH_MAX + 16];

	if (!line->chip)
		return;
	chip_name(line->chip, chip, sizeof(chip));
	snprintf(key, sizeof(key), "%s:%u", chip, line->offset);
	lock_file_name("gpio", key, out[*n].file, sizeof(out[*n].file));
	snprintf(out[*n].what, sizeof(out[*n].what), "board %s's GPIO %s line (%s line %u)",
		 board->name, role, chip, line->offset);
	(*n)++;
}

size_t board_resources(const struct board *board, struct board_resource *out)
{
	const struct board_console *c = &board->console;
	const struct board_gpiod *g = board->power.gpiod;
	char path[PATH_MAX];
	size_t n = 0;

	if (c->path && c->transport &&
	    (!strcmp(c->transport, "serial") || !strcmp(c->transport, "pty"))) {
		resolved(c->path, path, sizeof(path));
		lock_file_name("console", path, out[n].file, sizeof(out[n].file));
		snprintf(out[n].what, sizeof(out[n].what), "board %s's %s console %s", board->name,
			 c->transport, path);
		n++;
	}
	if (g && board->power.backend && !strcmp(board->power.backend, "gpiod")) {
		add_line(board, "power", &g->power, out, &n);
		add_line(board, "button", &g->button, out, &n);
		add_line(board, "reset", &g->reset, out, &n);
		add_line(board, "sense", &g->sense, out, &n);
		if (g->socket) {
			resolved(g->socket, path, sizeof(path));
			lock_file_name("powerd", path, out[n].file, sizeof(out[n].file));
			snprintf(out[n].what, sizeof(out[n].what), "board %s's rig powerd socket %s",
				 board->name, path);
			n++;
		}
	}
	return n;
}

int board_lock_acquire_board(const struct board *board, const char *resource_dir,
			     struct board_lock **out, struct rig_err *err)
{
	struct board_resource res[BOARD_RESOURCE_MAX];
	size_t n = board_resources(board, res);
	const char *dir = resource_dir ? resource_dir : BOARD_LOCK_SYSTEM_DIR;

	if (board_lock_acquire(board->name, NULL, out, err) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		/* A board may name one line in two roles (button and reset on one relay): flock
		 * excludes a second open of a file even in this process, so take it once. */
		int dup = 0;

		for (size_t j = 0; j < i; j++)
			dup |= !strcmp(res[i].file, res[j].file);
		if (!dup && board_lock_add(*out, dir, res[i].file, res[i].what, board->name, err) < 0) {
			board_lock_release(*out);
			*out = NULL;
			return -1;
		}
	}
	return 0;
}
