#include "config/yaml_doc.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config/yaml_limits.h"
#include "util/number.h"

size_t ypath_push_key(struct ypath *path, const char *key)
{
	size_t saved = path->len;
	int n = snprintf(path->buf + path->len, sizeof(path->buf) - path->len, "%s%s",
			 path->len ? "." : "", key);

	if (n > 0)
		path->len += (size_t)n;
	if (path->len >= sizeof(path->buf))
		path->len = sizeof(path->buf) - 1;  /* truncated: messages stay readable */
	return saved;
}

size_t ypath_push_index(struct ypath *path, size_t index)
{
	size_t saved = path->len;
	int n = snprintf(path->buf + path->len, sizeof(path->buf) - path->len, "[%zu]", index);

	if (n > 0)
		path->len += (size_t)n;
	if (path->len >= sizeof(path->buf))
		path->len = sizeof(path->buf) - 1;
	return saved;
}

void ypath_pop(struct ypath *path, size_t saved_len)
{
	path->len = saved_len;
	path->buf[saved_len] = '\0';
}

int ydoc_error(const struct ydoc *doc, struct rig_err *err, unsigned line, const char *keypath,
	       const char *fmt, ...)
{
	char what[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (keypath && *keypath)
		return rig_err_set(err, RIG_EXIT_USAGE, "%s:%u: %s: %s", doc->file, line, keypath, what);
	return rig_err_set(err, RIG_EXIT_USAGE, "%s:%u: %s", doc->file, line, what);
}

static int parse_failure(struct ydoc *doc, yaml_parser_t *parser, struct rig_err *err)
{
	unsigned line = (unsigned)parser->problem_mark.line + 1;

	if (parser->context)
		return ydoc_error(doc, err, line, NULL, "YAML syntax error: %s %s",
				  parser->problem ? parser->problem : "unknown problem", parser->context);
	return ydoc_error(doc, err, line, NULL, "YAML syntax error: %s",
			  parser->problem ? parser->problem : "unknown problem");
}

/* A second document ("---") would be silently ignored: refuse it, and parse it to the end so
 * that syntax errors after the first document are reported too. */
static int check_single_document(struct ydoc *doc, yaml_parser_t *parser, struct rig_err *err)
{
	yaml_document_t next;
	yaml_node_t *root;
	int rc = 0;

	if (!yaml_parser_load(parser, &next))
		return parse_failure(doc, parser, err);
	root = yaml_document_get_root_node(&next);
	if (root)
		rc = ydoc_error(doc, err, ydoc_line(root), NULL,
				"a second YAML document: a file holds exactly one");
	yaml_document_delete(&next);
	return rc;
}

static int parse_text(struct ydoc *doc, const char *text, size_t len, struct rig_err *err)
{
	yaml_parser_t parser;
	int rc;

	if (yaml_limits_check(text, len, doc->file, 1, err))
		return -1;
	if (!yaml_parser_initialize(&parser))
		return rig_err_set(err, RIG_EXIT_INFRA, "%s: cannot initialise the YAML parser",
				   doc->file);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (yaml_parser_load(&parser, &doc->doc)) {
		doc->loaded = true;
		rc = check_single_document(doc, &parser, err);
	} else {
		rc = parse_failure(doc, &parser, err);
	}
	yaml_parser_delete(&parser);
	return rc;
}

/* The whole file, refused before reading when it is over YAML_FILE_MAX_BYTES. */
static int read_text(struct ydoc *doc, FILE *fp, char **text, size_t *len, struct rig_err *err)
{
	struct stat st;
	char *buf;
	size_t n;

	if (fstat(fileno(fp), &st) != 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "%s: %s", doc->file, strerror(errno));
	if (st.st_size > YAML_FILE_MAX_BYTES)
		return rig_err_set(err, RIG_EXIT_USAGE, "%s: %lld bytes, more than the %d a YAML "
				   "file may have", doc->file, (long long)st.st_size,
				   YAML_FILE_MAX_BYTES);
	/* One byte more than allowed tells a file that grew (or a pipe) from one that fits. */
	if (!(buf = malloc(YAML_FILE_MAX_BYTES + 1)))
		return rig_err_set(err, RIG_EXIT_INFRA, "%s: out of memory", doc->file);
	n = fread(buf, 1, YAML_FILE_MAX_BYTES + 1, fp);
	if (ferror(fp) || n > YAML_FILE_MAX_BYTES) {
		free(buf);
		return n > YAML_FILE_MAX_BYTES
		       ? rig_err_set(err, RIG_EXIT_USAGE, "%s: more than the %d bytes a YAML file "
				     "may have", doc->file, YAML_FILE_MAX_BYTES)
		       : rig_err_set(err, RIG_EXIT_INFRA, "%s: read error", doc->file);
	}
	*text = buf;
	*len = n;
	return 0;
}

static int parse_file(struct ydoc *doc, FILE *fp, struct rig_err *err)
{
	char *text = NULL;
	size_t len = 0;
	int rc = read_text(doc, fp, &text, &len, err);

	if (rc == 0)
		rc = parse_text(doc, text, len, err);
	free(text);
	return rc;
}

static int check_root(struct ydoc *doc, struct rig_err *err)
{
	yaml_node_t *root = ydoc_root(doc);
	char got[96];

	if (!root)
		return ydoc_error(doc, err, 1, NULL, "empty file: expected a mapping of keys");
	if (root->type != YAML_MAPPING_NODE) {
		ydoc_describe(root, got, sizeof(got));
		return ydoc_error(doc, err, ydoc_line(root), NULL,
				  "expected a mapping of keys at the top, got %s", got);
	}
	return 0;
}

int ydoc_load(struct ydoc *doc, const char *file, struct rig_err *err)
{
	FILE *fp;
	int rc;

	memset(doc, 0, sizeof(*doc));
	doc->file = strdup(file);
	if (!doc->file)
		return rig_err_set(err, RIG_EXIT_INFRA, "%s: out of memory", file);
	fp = fopen(file, "r");
	if (!fp) {
		rc = rig_err_set(err, RIG_EXIT_USAGE, "%s: cannot open: %s", file, strerror(errno));
		ydoc_free(doc);
		return rc;
	}
	rc = parse_file(doc, fp, err);
	fclose(fp);
	if (rc == 0)
		rc = check_root(doc, err);
	if (rc)
		ydoc_free(doc);
	return rc;
}

void ydoc_free(struct ydoc *doc)
{
	if (doc->loaded)
		yaml_document_delete(&doc->doc);
	doc->loaded = false;
	free(doc->file);
	doc->file = NULL;
}

yaml_node_t *ydoc_root(struct ydoc *doc)
{
	return doc->loaded ? yaml_document_get_root_node(&doc->doc) : NULL;
}

yaml_node_t *ydoc_node(const struct ydoc *doc, int index)
{
	/* libyaml's accessor takes a non-const document but only reads it. */
	return yaml_document_get_node((yaml_document_t *)&doc->doc, index);
}

unsigned ydoc_line(const yaml_node_t *node)
{
	return node ? (unsigned)node->start_mark.line + 1 : 1;
}

const char *ydoc_scalar(const yaml_node_t *node)
{
	if (!node || node->type != YAML_SCALAR_NODE)
		return NULL;
	return (const char *)node->data.scalar.value;
}

bool ydoc_is_plain(const yaml_node_t *node)
{
	return node && node->type == YAML_SCALAR_NODE &&
	       node->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
}

bool ydoc_is_null(const yaml_node_t *node)
{
	static const char *const nulls[] = { "", "~", "null", "Null", "NULL" };
	const char *text = ydoc_scalar(node);

	if (!text || !ydoc_is_plain(node))
		return false;
	for (size_t i = 0; i < sizeof(nulls) / sizeof(nulls[0]); i++)
		if (strcmp(text, nulls[i]) == 0)
			return true;
	return false;
}

void ydoc_describe(const yaml_node_t *node, char *buf, size_t size)
{
	if (!node || ydoc_is_null(node))
		snprintf(buf, size, "nothing");
	else if (node->type == YAML_MAPPING_NODE)
		snprintf(buf, size, "a mapping");
	else if (node->type == YAML_SEQUENCE_NODE)
		snprintf(buf, size, "a sequence");
	else if (strlen(ydoc_scalar(node)) > 48)
		snprintf(buf, size, "\"%.45s...\"", ydoc_scalar(node));
	else
		snprintf(buf, size, "\"%s\"", ydoc_scalar(node));
}

yaml_node_pair_t *ydoc_map_pair(const struct ydoc *doc, const yaml_node_t *mapping,
				  const char *key)
{
	if (!mapping || mapping->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *pair = mapping->data.mapping.pairs.start;
	     pair < mapping->data.mapping.pairs.top; pair++) {
		const char *name = ydoc_scalar(ydoc_node(doc, pair->key));

		if (name && strcmp(name, key) == 0)
			return pair;
	}
	return NULL;
}

/* One step of a key path: "name" or "name[3]" (index -1 when there is none). */
static const char *next_segment(const char *dotted, char *name, size_t size, long *index)
{
	size_t n = strcspn(dotted, ".[");

	*index = -1;
	if (n >= size)
		return NULL;
	memcpy(name, dotted, n);
	name[n] = '\0';
	dotted += n;
	if (*dotted == '[') {
		char digits[24];
		size_t len = strcspn(dotted + 1, "]");
		long long v;

		if (dotted[1 + len] != ']' || len >= sizeof(digits))
			return NULL;
		memcpy(digits, dotted + 1, len);
		digits[len] = '\0';
		if (parse_number(digits, 0, LONG_MAX, &v) < 0)
			return NULL;
		*index = (long)v;
		dotted += len + 2;
	}
	return dotted + (*dotted == '.');
}

static yaml_node_t *nth_item(const struct ydoc *doc, const yaml_node_t *seq, long index)
{
	if (!seq || seq->type != YAML_SEQUENCE_NODE ||
	    index >= seq->data.sequence.items.top - seq->data.sequence.items.start)
		return NULL;
	return ydoc_node(doc, seq->data.sequence.items.start[index]);
}

/* Line of the deepest key or list item of path found in the document: the line people look at
 * ("qemu:" rather than the first key inside it). */
unsigned ydoc_lookup_line(const struct ydoc *doc, const char *path)
{
	yaml_node_t *node = doc->loaded ? yaml_document_get_root_node((yaml_document_t *)&doc->doc)
					: NULL;
	unsigned line = ydoc_line(node);
	char segment[64];

	while (node && path && *path) {
		long index;
		yaml_node_pair_t *pair;

		path = next_segment(path, segment, sizeof(segment), &index);
		if (!path || !(pair = ydoc_map_pair(doc, node, segment)))
			break;
		line = ydoc_line(ydoc_node(doc, pair->key));
		node = ydoc_node(doc, pair->value);
		if (index >= 0 && (node = nth_item(doc, node, index)))
			line = ydoc_line(node);
	}
	return line;
}
