/* The known-issues file (known-issues/README.md), decoded with the config schema code so every
 * error names file:line. Matching a verdict against it is the judge's (judge/known.c). */
#include "config/known.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "config/yaml_schema.h"

#define FIELD(k, kind_, type, member, ...) \
	{ .key = (k), .kind = (kind_), .offset = offsetof(type, member), __VA_ARGS__ }

/* Enough for "7.3.4" and any stable/vendor suffix worth comparing; later parts are ignored. */
#define VERSION_PARTS 6

static const char id_chars[] = "abcdefghijklmnopqrstuvwxyz0123456789-";

/* ---- versions --------------------------------------------------------------------------- */

/* Numeric dotted prefix of v into parts; returns where the prefix ends. A part too large for
 * unsigned long saturates: no kernel comes near it, and comparing stays total. */
static const char *parse_version(const char *v, unsigned long parts[VERSION_PARTS], size_t *n)
{
	*n = 0;
	while (*v >= '0' && *v <= '9') {
		unsigned long part = 0;

		for (; *v >= '0' && *v <= '9'; v++)
			part = part > (ULONG_MAX - 9) / 10 ? ULONG_MAX : part * 10 + (unsigned long)(*v - '0');
		if (*n < VERSION_PARTS)
			parts[(*n)++] = part;
		if (v[0] != '.' || v[1] < '0' || v[1] > '9')
			break;
		v++;
	}
	return v;
}

int known_version_cmp(const char *a, const char *b)
{
	unsigned long pa[VERSION_PARTS], pb[VERSION_PARTS];
	size_t na, nb;

	parse_version(a ? a : "", pa, &na);
	parse_version(b ? b : "", pb, &nb);
	for (size_t i = 0; i < na || i < nb; i++) {
		unsigned long x = i < na ? pa[i] : 0, y = i < nb ? pb[i] : 0;

		if (x != y)
			return x < y ? -1 : 1;
	}
	return 0;
}

/* A bound must be a bare dotted number: "7.3-rc1" would compare as 7.3 and mislead. */
static bool is_bare_version(const char *text)
{
	unsigned long parts[VERSION_PARTS];
	size_t n;

	return *parse_version(text, parts, &n) == '\0' && n > 0;
}

bool known_has_version(const char *text)
{
	unsigned long parts[VERSION_PARTS];
	size_t n;

	parse_version(text, parts, &n);
	return n > 0;
}

/* ---- schema ----------------------------------------------------------------------------- */

struct kernel_range {
	char *min;
	char *max;
};

static const struct yfield range_fields[] = {
	FIELD("min", YF_STRING, struct kernel_range, min),
	FIELD("max", YF_STRING, struct kernel_range, max),
};
static const struct yschema range_schema = YSCHEMA(range_fields, struct kernel_range);

static int check_bound(struct ydecoder *dec, const yaml_node_t *range, const char *key,
		       const char *text)
{
	yaml_node_pair_t *pair = ydoc_map_pair(dec->doc, range, key);
	size_t saved;
	int rc;

	if (!text || is_bare_version(text))
		return 0;
	saved = ypath_push_key(&dec->path, key);
	rc = ydecoder_error(dec, ydoc_line(pair ? ydoc_node(dec->doc, pair->value) : range),
			    "expected a kernel version such as \"6.16\" or \"7.3.99\", got \"%s\"",
			    text);
	ypath_pop(&dec->path, saved);
	return rc;
}

static int check_range(struct ydecoder *dec, const yaml_node_t *value,
		       const struct kernel_range *r)
{
	if (check_bound(dec, value, "min", r->min) || check_bound(dec, value, "max", r->max))
		return -1;
	if (r->min && r->max && known_version_cmp(r->min, r->max) > 0)
		return ydecoder_error(dec, ydoc_line(value), "min %s is above max %s", r->min,
				      r->max);
	return 0;
}

/* kernels: {min, max} lands in the issue's flat min_kernel/max_kernel. */
static int decode_kernels(struct ydecoder *dec, const yaml_node_t *value, void *obj)
{
	struct known_issue *issue = obj;
	struct kernel_range r = { 0 };

	if (!value)
		return 0;
	if (yschema_decode(dec, value, &range_schema, &r) || check_range(dec, value, &r)) {
		yschema_release(&range_schema, &r);
		return -1;
	}
	issue->min_kernel = r.min;
	issue->max_kernel = r.max;
	return 0;
}

static void release_kernels(void *obj)
{
	struct known_issue *issue = obj;

	free(issue->min_kernel);
	free(issue->max_kernel);
	issue->min_kernel = NULL;
	issue->max_kernel = NULL;
}

static const struct yfield issue_fields[] = {
	FIELD("id", YF_STRING, struct known_issue, id, .required = true),
	FIELD("title", YF_STRING, struct known_issue, title, .required = true),
	FIELD("verdict", YF_STRING, struct known_issue, verdict),
	FIELD("filesystem", YF_STRING, struct known_issue, filesystem),
	FIELD("pattern", YF_STRING, struct known_issue, pattern),
	FIELD("kernels", YF_CUSTOM, struct known_issue, min_kernel, .decode = decode_kernels,
	      .release = release_kernels),
	FIELD("knob", YF_SWITCH, struct known_issue, knob),
	FIELD("intermittent", YF_BOOL, struct known_issue, intermittent, .dflt = 0),
	FIELD("link", YF_STRING, struct known_issue, link),
	FIELD("note", YF_STRING, struct known_issue, note),
};
static const struct yschema issue_schema = YSCHEMA(issue_fields, struct known_issue);

static const struct yfield file_fields[] = {
	FIELD("issues", YF_MAPPING_LIST, struct known_issues, items,
	      .count_offset = offsetof(struct known_issues, n), .schema = &issue_schema,
	      .required = true),
};
static const struct yschema file_schema = YSCHEMA(file_fields, struct known_issues);

/* ---- checks across keys ----------------------------------------------------------------- */

static int entry_error(const struct ydoc *doc, struct rig_err *err, size_t i, const char *key,
		       const char *what)
{
	char path[96];

	if (key)
		snprintf(path, sizeof(path), "issues[%zu].%s", i, key);
	else
		snprintf(path, sizeof(path), "issues[%zu]", i);
	return ydoc_error(doc, err, ydoc_lookup_line(doc, path), path, "%s", what);
}

static int check_id(const struct ydoc *doc, const struct known_issues *k, size_t i,
		    struct rig_err *err)
{
	const char *id = k->items[i].id;
	char what[160];

	if (strspn(id, id_chars) != strlen(id))
		return entry_error(doc, err, i, "id",
				   "must be lower-case letters, digits and '-' only");
	for (size_t j = 0; j < i; j++) {
		char first[32];

		if (strcmp(k->items[j].id, id) != 0)
			continue;
		snprintf(first, sizeof(first), "issues[%zu].id", j);
		snprintf(what, sizeof(what), "duplicate id \"%s\" (first given on line %u)", id,
			 ydoc_lookup_line(doc, first));
		return entry_error(doc, err, i, "id", what);
	}
	return 0;
}

static int compile_pattern(const struct ydoc *doc, struct known_issue *issue, size_t i,
			   struct rig_err *err)
{
	char why[256], what[320];
	int rc;

	if (!issue->pattern)
		return 0;
	rc = regcomp(&issue->re, issue->pattern, REG_EXTENDED | REG_NOSUB);
	if (rc == 0) {
		issue->has_re = true;
		return 0;
	}
	regerror(rc, &issue->re, why, sizeof(why));
	snprintf(what, sizeof(what), "not a valid POSIX extended regular expression: %s", why);
	return entry_error(doc, err, i, "pattern", what);
}

static int check_entry(const struct ydoc *doc, struct known_issues *k, size_t i,
		       struct rig_err *err)
{
	struct known_issue *issue = &k->items[i];

	if (check_id(doc, k, i, err))
		return -1;
	/* Without either, the entry would explain every failure of every verdict. */
	if (!issue->pattern && !issue->verdict)
		return entry_error(doc, err, i, NULL,
				   "needs a pattern or a verdict (or both): as it is, it would "
				   "match every failure");
	return compile_pattern(doc, issue, i, err);
}

/* ---- load ------------------------------------------------------------------------------- */

static int decode_file(const struct ydoc *doc, struct known_issues *k, struct rig_err *err)
{
	struct ydecoder dec;

	ydecoder_init(&dec, doc, err);
	if (yschema_decode(&dec, ydoc_root((struct ydoc *)doc), &file_schema, k))
		return -1;
	for (size_t i = 0; i < k->n; i++)
		if (check_entry(doc, k, i, err))
			return -1;
	return 0;
}

int known_load(const char *path, struct known_issues **out, struct rig_err *err)
{
	struct known_issues *k;
	struct ydoc doc;
	int rc;

	*out = NULL;
	if (ydoc_load(&doc, path, err))
		return -1;
	k = calloc(1, sizeof(*k));
	if (!k || !(k->path = strdup(path))) {
		free(k);
		ydoc_free(&doc);
		return rig_err_set(err, RIG_EXIT_INFRA, "%s: out of memory", path);
	}
	rc = decode_file(&doc, k, err);
	ydoc_free(&doc);
	if (rc) {
		known_free(k);
		return -1;
	}
	*out = k;
	return 0;
}

void known_free(struct known_issues *k)
{
	if (!k)
		return;
	for (size_t i = 0; i < k->n; i++)
		if (k->items[i].has_re)
			regfree(&k->items[i].re);
	yschema_release(&file_schema, k);
	free(k->path);
	free(k);
}

const struct known_issue *known_find(const struct known_issues *k, const char *id)
{
	for (size_t i = 0; k && id && i < k->n; i++)
		if (strcmp(k->items[i].id, id) == 0)
			return &k->items[i];
	return NULL;
}

unsigned known_quiet_nights(const struct known_issue *issue, unsigned nights)
{
	unsigned base = nights ? nights : KNOWN_QUIET_NIGHTS_DEFAULT;

	/* An intermittent fault can skip a week by chance: wait twice as long before doubting it. */
	return issue && issue->intermittent ? base * 2 : base;
}
