/* board_load(): decode a board file with its schema, check it, expand its placeholders. */
#include "config/board.h"

#include <stdlib.h>
#include <string.h>

#include "config/board_schema.h"
#include "config/placeholder.h"
#include "config/yaml_schema.h"

static int expand_one(char **s, bool shell, void *paths)
{
	char *expanded = placeholder_expand(*s, paths, shell);

	if (!expanded)
		return -1;
	free(*s);
	*s = expanded;
	return 0;
}

static int decode_board(struct ydoc *doc, const struct board_paths *paths, struct board *b,
			struct rig_err *err)
{
	struct ydecoder dec;

	ydecoder_init(&dec, doc, err);
	if (yschema_decode(&dec, ydoc_root(doc), &board_schema, b))
		return -1;
	/* QEMU loads the kernel itself; any other board boots what it has unless deploy: says how */
	if (!b->deploy.backend &&
	    !(b->deploy.backend = strdup(strcmp(b->power.backend, "qemu") == 0 ? "qemu" : "none")))
		return rig_err_set(err, RIG_EXIT_INFRA, "%s: out of memory", doc->file);
	if (board_check(b, doc, err))
		return -1;
	/* The schema visits every string, so no field can be forgotten here. */
	if (yschema_each_string(&board_schema, b, expand_one, (void *)paths))
		return rig_err_set(err, RIG_EXIT_INFRA, "%s: out of memory", doc->file);
	return 0;
}

int board_load(const char *path, const struct board_paths *paths, struct board **out,
	       struct rig_err *err)
{
	struct ydoc doc;
	struct board *b;
	int rc;

	*out = NULL;
	if (ydoc_load(&doc, path, err))
		return -1;
	b = calloc(1, sizeof(*b));
	if (!b || !(b->path = strdup(path))) {
		free(b);
		ydoc_free(&doc);
		return rig_err_set(err, RIG_EXIT_INFRA, "%s: out of memory", path);
	}
	rc = decode_board(&doc, paths, b, err);
	ydoc_free(&doc);
	if (rc) {
		board_free(b);
		return -1;
	}
	*out = b;
	return 0;
}

void board_free(struct board *board)
{
	if (!board)
		return;
	yschema_release(&board_schema, board);
	free(board->path);
	free(board);
}
