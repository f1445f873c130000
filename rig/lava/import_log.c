/* Dispatcher log -> cases. Each line is one small YAML document, parsed on its own so a log of
 * any length never becomes one big tree. */
#include <errno.h>
#include <float.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

#include "config/yaml_limits.h"
#include "lava/cases.h"
#include "util/number.h"

/* A log line is one small mapping; the board's console lines in it are at most the console's
 * own 64 KiB line. A longer line is not a LAVA log line (refused by name, never parsed). */
#define LAVA_LOG_LINE_MAX (1024 * 1024)
/* A whole log: a 110-cycle nightly writes tens of MB; a file past this is refused unread. */
#define LAVA_LOG_MAX_BYTES (512LL << 20)

static yaml_node_t *map_get(yaml_document_t *doc, yaml_node_t *map, const char *key)
{
	yaml_node_pair_t *p;

	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(doc, p->key);

		if (k && k->type == YAML_SCALAR_NODE && !strcmp((const char *)k->data.scalar.value, key))
			return yaml_document_get_node(doc, p->value);
	}
	return NULL;
}

static const char *scalar(yaml_node_t *node)
{
	return node && node->type == YAML_SCALAR_NODE ? (const char *)node->data.scalar.value : NULL;
}

/* The entry of a line: `- {...}` (lava-run's output.yaml) or a bare `{...}`. */
static yaml_node_t *line_entry(yaml_document_t *doc)
{
	yaml_node_t *root = yaml_document_get_root_node(doc);

	if (root && root->type == YAML_SEQUENCE_NODE && root->data.sequence.items.top > root->data.sequence.items.start)
		return yaml_document_get_node(doc, *root->data.sequence.items.start);
	return root;
}

static int add_result(yaml_document_t *doc, yaml_node_t *entry, struct lava_cases *cases,
		      struct rig_err *err)
{
	yaml_node_t *msg = map_get(doc, entry, "msg");
	const char *measurement = scalar(map_get(doc, msg, "measurement"));
	struct lava_case c = {
		.suite = (char *)scalar(map_get(doc, msg, "definition")),
		.name = (char *)scalar(map_get(doc, msg, "case")),
		.result = (char *)scalar(map_get(doc, msg, "result")),
		.units = (char *)scalar(map_get(doc, msg, "units")),
		.error_type = (char *)scalar(map_get(doc, msg, "error_type")),
		.error_msg = (char *)scalar(map_get(doc, msg, "error_msg")),
		.logged = lava_parse_time(scalar(map_get(doc, entry, "dt"))),
	};

	if (!c.suite || !c.name)
		return 0;      /* a results line of another kind (e.g. a test set marker) */
	if (measurement && *measurement)
		c.has_measurement = parse_real(measurement, -DBL_MAX, DBL_MAX, &c.measurement) == 0;
	return lava_cases_add(cases, &c, err);
}

static int parse_line(const char *path, unsigned lineno, const char *line, size_t len,
		      struct lava_cases *cases, struct rig_err *err)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	yaml_node_t *entry;
	int rc = 0;

	if (len > LAVA_LOG_LINE_MAX)
		return rig_err_set(err, RIG_EXIT_USAGE, "%s:%u: a line of %zu bytes, more than the %d "
				   "a LAVA log line may have", path, lineno, len, LAVA_LOG_LINE_MAX);
	if (yaml_limits_check(line, len, path, lineno, err))
		return -1;
	if (!yaml_parser_initialize(&parser))
		return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
	yaml_parser_set_input_string(&parser, (const unsigned char *)line, len);
	if (!yaml_parser_load(&parser, &doc)) {
		rc = rig_err_set(err, RIG_EXIT_USAGE, "%s:%u: not a LAVA log line (not YAML: %s)",
				 path, lineno, parser.problem ? parser.problem : "parse error");
		yaml_parser_delete(&parser);
		return rc;
	}
	entry = line_entry(&doc);
	if (entry && entry->type == YAML_MAPPING_NODE) {
		const char *lvl = scalar(map_get(&doc, entry, "lvl"));

		if (lvl && !strcmp(lvl, "results"))
			rc = add_result(&doc, entry, cases, err);
		else if (lvl && !strcmp(lvl, "target")) {
			const char *msg = scalar(map_get(&doc, entry, "msg"));

			if (msg)
				rc = lava_console_add(cases, lava_parse_time(scalar(map_get(&doc, entry, "dt"))),
						      msg, err);
		}
	}
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	return rc;
}

/* Every entry of a dispatcher log is a flow mapping with a level: "- {dt: ..., lvl: ...}".
 * Used to tell a log that merely has no results from a file that is no log at all (binary
 * garbage was reported as "the job does not name its board"). */
static bool looks_like_log_line(const char *line)
{
	const char *p = line + strspn(line, " \t");

	if (p[0] == '-' && p[1] == ' ')
		p += 2 + strspn(p + 2, " \t");
	return p[0] == '{' && strstr(p, "lvl") != NULL;
}

static int from_stream(FILE *f, const char *origin, struct lava_cases *cases, struct rig_err *err)
{
	char *line = NULL;
	size_t cap = 0, text_lines = 0, lava_lines = 0;
	ssize_t n;
	unsigned lineno = 0;
	int rc = 0;

	while (!rc && (n = getline(&line, &cap, f)) >= 0) {
		lineno++;
		if (strspn(line, " \t\r\n") == (size_t)n || line[0] == '#')
			continue;
		text_lines++;
		lava_lines += looks_like_log_line(line);
		/* results and the board's console matter: skip LAVA's own chatter unparsed */
		if (!strstr(line, "results") && !strstr(line, "target"))
			continue;
		rc = parse_line(origin, lineno, line, (size_t)n, cases, err);
	}
	if (!rc && ferror(f))
		rc = rig_err_set(err, RIG_EXIT_INFRA, "%s: read error", origin);
	if (!rc && text_lines > 0 && lava_lines == 0)
		rc = rig_err_set(err, RIG_EXIT_USAGE, "%s: not a LAVA job log (no line is a "
				 "\"- {dt: ..., lvl: ..., msg: ...}\" entry)", origin);
	free(line);
	return rc;
}

int lava_cases_from_log(const char *path, struct lava_cases *cases, struct rig_err *err)
{
	FILE *f = fopen(path, "r");
	struct stat st;
	int rc;

	if (!f)
		return rig_err_set(err, errno == ENOENT ? RIG_EXIT_USAGE : RIG_EXIT_INFRA, "%s: %s",
				   path, strerror(errno));
	if (fstat(fileno(f), &st) == 0 && st.st_size > LAVA_LOG_MAX_BYTES) {
		fclose(f);
		return rig_err_set(err, RIG_EXIT_USAGE, "%s: %lld bytes, more than the %lld a LAVA "
				   "log may have", path, (long long)st.st_size, LAVA_LOG_MAX_BYTES);
	}
	rc = from_stream(f, path, cases, err);
	fclose(f);
	return rc;
}

int lava_cases_from_log_text(const char *text, size_t len, const char *origin,
			     struct lava_cases *cases, struct rig_err *err)
{
	FILE *f;
	int rc;

	if (len == 0)
		return 0;
	if (!(f = fmemopen((void *)text, len, "r")))
		return rig_err_set(err, RIG_EXIT_INFRA, "%s: out of memory", origin);
	rc = from_stream(f, origin, cases, err);
	fclose(f);
	return rc;
}
