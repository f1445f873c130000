/* The block devices a board's stacks make, and the command line that tells the image about them. */
#include "config/board_stacks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether device is /dev/<a>/<b> with <a> = dir and <b> = leaf. */
static bool is_dev_path(const char *device, const char *dir, const char *leaf)
{
	size_t n = strlen(dir);

	return strncmp(device, "/dev/", 5) == 0 && strncmp(device + 5, dir, n) == 0 &&
	       device[5 + n] == '/' && strcmp(device + 6 + n, leaf) == 0;
}

const struct board_stack *board_stack_of_device(const struct board *b, const char *device)
{
	for (size_t i = 0; i < b->n_stacks; i++) {
		const struct board_stack *s = &b->stacks[i];

		if (strcmp(s->kind, "luks2") == 0 && is_dev_path(device, "mapper", s->name))
			return s;
		if (strcmp(s->kind, "lvm") == 0 &&
		    (is_dev_path(device, s->name, "lv") ||
		     (s->snapshot_mb && is_dev_path(device, s->name, "lv-snap"))))
			return s;
		if (strcmp(s->kind, "raid1") == 0 && strncmp(device, "/dev/", 5) == 0 &&
		    strcmp(device + 5, s->name) == 0)
			return s;
	}
	return NULL;
}

int board_fs_holding(const struct board *b, const char *path, size_t len, size_t skip)
{
	size_t best = 0;
	int found = -1;

	for (size_t k = 0; k < b->n_filesystems; k++) {
		const char *mnt = b->filesystems[k].mount;
		size_t m = strlen(mnt);

		while (m > 1 && mnt[m - 1] == '/')
			m--;                      /* "/mnt/x/" holds "/mnt/x/y" too */
		if (k != skip && m > best && m < len && strncmp(path, mnt, m) == 0 && path[m] == '/') {
			best = m;
			found = (int)k;
		}
	}
	return found;
}

/* depth bounds the walk down image files: a board whose images hold each other in a ring
 * would otherwise never end. */
static bool stacked(const struct board *b, size_t i, size_t depth)
{
	const struct board_filesystem *fs = &b->filesystems[i];
	int holder;

	if (strcmp(fs->type, "overlay") == 0 || board_stack_of_device(b, fs->device))
		return true;
	if (strncmp(fs->device, "/dev/", 5) == 0 || depth >= b->n_filesystems)
		return false;
	holder = board_fs_holding(b, fs->device, strlen(fs->device), i);
	return holder >= 0 && stacked(b, (size_t)holder, depth + 1);
}

bool board_fs_is_stacked(const struct board *b, const struct board_filesystem *fs)
{
	return stacked(b, (size_t)(fs - b->filesystems), 0);
}

/* words += " " + word (word freed); words is freed and NULL returned when out of memory. */
static char *append(char *words, char *word, int formatted)
{
	char *longer = NULL;

	if (words && formatted >= 0 && asprintf(&longer, "%s %s", words, word) < 0)
		longer = NULL;
	if (formatted >= 0)
		free(word);
	free(words);
	return longer;
}

static char *stack_word(char *words, const struct board_stack *s)
{
	char devs[512] = "", sizes[32] = "", *word;
	size_t used = 0;
	int n;

	for (size_t k = 0; k < s->n_devices; k++)
		used += (size_t)snprintf(devs + used, used < sizeof(devs) ? sizeof(devs) - used : 0,
					 "%s%s", k ? "," : "", s->devices[k]);
	if (strcmp(s->kind, "lvm") == 0)
		snprintf(sizes, sizeof(sizes), ":%u:%u", s->size_mb, s->snapshot_mb);
	n = asprintf(&word, "rig.stack.%s=%s:%s%s", s->name, s->kind, devs, sizes);
	return append(words, word, n);
}

char *board_stack_cmdline(const struct board *b)
{
	char *words = strdup("");

	for (size_t i = 0; i < b->n_stacks; i++)
		words = stack_word(words, &b->stacks[i]);
	for (size_t i = 0; i < b->n_filesystems; i++) {
		const struct board_filesystem *fs = &b->filesystems[i];

		char *word;
		int n;

		if (!board_fs_is_stacked(b, fs))
			continue;
		n = asprintf(&word, "rig.fs.%s=%s:%s:%s", fs->name, fs->type, fs->device, fs->mount);
		words = append(words, word, n);
	}
	return words;
}
