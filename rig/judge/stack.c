/* The stack graph of a board's filesystems, from their devices and overlay options. */
#include "judge/stack.h"

#include "config/board_stacks.h"

#include <string.h>

/* The directories an overlay's options name, each passed to fn: lowerdir's (':'-separated),
 * upperdir's and workdir's. */
static void overlay_dirs(const char *options, void (*fn)(const char *dir, size_t len, void *arg),
			 void *arg)
{
	for (const char *p = options; p && *p;) {
		size_t n = strcspn(p, ",");
		const char *eq = memchr(p, '=', n);

		if (eq && ((eq - p == 8 && strncmp(p, "lowerdir", 8) == 0) ||
			   (eq - p == 8 && strncmp(p, "upperdir", 8) == 0) ||
			   (eq - p == 7 && strncmp(p, "workdir", 7) == 0))) {
			for (const char *d = eq + 1; d < p + n; d++) {
				size_t len = strcspn(d, ":,");

				if (len)
					fn(d, len, arg);
				d += len;
			}
		}
		p += n + (p[n] == ',');
	}
}

struct edge_arg {
	const struct board *b;
	struct stack_graph *g;
	size_t upper;
};

static void add_dir_edge(const char *dir, size_t len, void *arg)
{
	struct edge_arg *a = arg;
	int l = board_fs_holding(a->b, dir, len, a->upper);

	if (l >= 0 && (size_t)l < a->g->n)
		a->g->beneath[a->upper][l] = true;
}

void stack_graph_of(const struct board *b, struct stack_graph *g)
{
	memset(g, 0, sizeof(*g));
	g->n = b->n_filesystems < STACK_MAX_FS ? b->n_filesystems : STACK_MAX_FS;
	for (size_t u = 0; u < g->n; u++) {
		const struct board_filesystem *fs = &b->filesystems[u];
		struct edge_arg arg = { b, g, u };

		if (strcmp(fs->type, "overlay") == 0)
			overlay_dirs(fs->options, add_dir_edge, &arg);
		else if (strncmp(fs->device, "/dev/", 5) != 0)   /* an image file: a loop mount */
			add_dir_edge(fs->device, strlen(fs->device), &arg);
	}
	/* Warshall: beneath at any depth (an ext4 image on an overlay on an xfs lies above both). */
	for (size_t k = 0; k < g->n; k++)
		for (size_t u = 0; u < g->n; u++)
			for (size_t l = 0; l < g->n; l++)
				if (g->beneath[u][k] && g->beneath[k][l])
					g->beneath[u][l] = true;
}

bool stack_type_freezable(const char *type)
{
	return strcmp(type, "overlay") != 0;
}

int stack_frozen_through(const struct board *b, size_t fs)
{
	const char *opts = b->filesystems[fs].options;
	const char *up = opts ? strstr(opts, "upperdir=") : NULL;

	if (!up || (up != opts && up[-1] != ','))
		return -1;
	/* only the upperdir: the lower directories' filesystems take no writes through the overlay */
	up += 9;
	return board_fs_holding(b, up, strcspn(up, ","), fs);
}
