/* A YAML file loaded as a libyaml node tree, kept so that every error can name file:line and the
 * dotted key path ("power.qemu.cpus", "steps[2].suspend.mode") of the offending node. */
#ifndef RIG_CONFIG_YAML_DOC_H
#define RIG_CONFIG_YAML_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <yaml.h>

#include "util/err.h"

struct ydoc {
	yaml_document_t doc;
	char *file;            /* as given by the caller: it starts every message */
	bool loaded;
};

/* Dotted path of the key being decoded; push returns the length to restore with ypath_pop. */
struct ypath {
	char buf[256];
	size_t len;
};

size_t ypath_push_key(struct ypath *path, const char *key);
size_t ypath_push_index(struct ypath *path, size_t index);
void ypath_pop(struct ypath *path, size_t saved_len);

/* Parse the first document of file. An empty file, a syntax error or a root that is not a
 * mapping is an error (RIG_EXIT_USAGE) naming file:line. Release with ydoc_free(). */
int ydoc_load(struct ydoc *doc, const char *file, struct rig_err *err);
void ydoc_free(struct ydoc *doc);

yaml_node_t *ydoc_root(struct ydoc *doc);
yaml_node_t *ydoc_node(const struct ydoc *doc, int index);
/* 1-based line where node starts. */
unsigned ydoc_line(const yaml_node_t *node);

/* The key/value pair of key in mapping, NULL when absent. */
yaml_node_pair_t *ydoc_map_pair(const struct ydoc *doc, const yaml_node_t *mapping,
				const char *key);
/* Line of the key (or list item) at a path from the root ("power.backend",
 * "filesystems[1].name"), or of its nearest present ancestor. */
unsigned ydoc_lookup_line(const struct ydoc *doc, const char *path);

/* Scalar text of node, NULL if it is not a scalar. */
const char *ydoc_scalar(const yaml_node_t *node);
/* A plain ~, null, Null, NULL or empty scalar: YAML's "no value". */
bool ydoc_is_null(const yaml_node_t *node);
bool ydoc_is_plain(const yaml_node_t *node);
/* How a node reads in a message: "\"two\"", "a mapping", "a sequence", "nothing". */
void ydoc_describe(const yaml_node_t *node, char *buf, size_t size);

/* "file:line: key.path: message" (key part left out when keypath is empty); returns -1. */
int ydoc_error(const struct ydoc *doc, struct rig_err *err, unsigned line, const char *keypath,
	       const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
