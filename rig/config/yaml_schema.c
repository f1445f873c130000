#include "config/yaml_schema.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/number.h"

#define FIELD_AT(obj, off, type) ((type *)((char *)(obj) + (off)))

void ydecoder_init(struct ydecoder *dec, const struct ydoc *doc, struct rig_err *err)
{
	memset(dec, 0, sizeof(*dec));
	dec->doc = doc;
	dec->err = err;
	dec->owner_line = ydoc_line(yaml_document_get_root_node((yaml_document_t *)&doc->doc));
}

int ydecoder_error(struct ydecoder *dec, unsigned line, const char *fmt, ...)
{
	char what[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return ydoc_error(dec->doc, dec->err, line, dec->path.buf, "%s", what);
}

static int out_of_memory(struct ydecoder *dec)
{
	return rig_err_set(dec->err, RIG_EXIT_INFRA, "%s: out of memory", dec->doc->file);
}

void yvalues_join(const char *const *values, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; values[i] && len < size; i++) {
		int n = snprintf(buf + len, size - len, "%s%s", i ? ", " : "", values[i]);

		if (n < 0)
			break;
		len += (size_t)n;
	}
}

int yvalues_index(const char *const *values, const char *text)
{
	for (int i = 0; values[i]; i++)
		if (strcmp(values[i], text) == 0)
			return i;
	return -1;
}

/* ---- scalars ---------------------------------------------------------------------------- */

static int expected(struct ydecoder *dec, const yaml_node_t *value, const char *what)
{
	char got[96];

	ydoc_describe(value, got, sizeof(got));
	return ydecoder_error(dec, ydoc_line(value), "expected %s, got %s", what, got);
}

static int not_one_of(struct ydecoder *dec, const yaml_node_t *value, const char *const *values)
{
	char list[256], what[300];

	yvalues_join(values, list, sizeof(list));
	snprintf(what, sizeof(what), "one of %s", list);
	return expected(dec, value, what);
}

/* 1: a number that fits, 0: not a number, -1: digits only but beyond UINT_MAX. */
static int scalar_uint(const char *text, unsigned long *out)
{
	unsigned v;

	if (!*text || strspn(text, "0123456789") != strlen(text))
		return 0;
	if (parse_uint(text, 0, UINT_MAX, &v) < 0)
		return -1;
	*out = v;
	return 1;
}

/* "5" in quotes is a string in YAML: say so rather than "expected a number, got "5"". */
static int quoted_scalar(struct ydecoder *dec, const yaml_node_t *value, const char *what)
{
	return ydecoder_error(dec, ydoc_line(value), "expected %s, got the quoted string \"%s\" "
			      "(write it without quotes)", what, ydoc_scalar(value));
}

static bool parse_bool(const char *text, bool *out)
{
	static const char *const yes[] = { "true", "yes", "on" };
	static const char *const no[] = { "false", "no", "off" };

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (strcasecmp(text, yes[i]) == 0)
			return *out = true, true;
		if (strcasecmp(text, no[i]) == 0)
			return *out = false, true;
	}
	return false;
}

static int decode_string(struct ydecoder *dec, const struct yfield *f, const yaml_node_t *value,
			 char **dst)
{
	const char *text = ydoc_scalar(value);

	if (!text)
		return expected(dec, value, f->values ? "a single value" : "a string");
	if (!*text)
		return ydecoder_error(dec, ydoc_line(value), "must not be empty");
	if (f->values && yvalues_index(f->values, text) < 0)
		return not_one_of(dec, value, f->values);
	*dst = strdup(text);
	return *dst ? 0 : out_of_memory(dec);
}

static int decode_uint(struct ydecoder *dec, const struct yfield *f, const yaml_node_t *value,
		       unsigned *dst)
{
	unsigned max = f->max ? f->max : UINT_MAX;
	unsigned long n = 0;
	int parsed = ydoc_scalar(value) ? scalar_uint(ydoc_scalar(value), &n) : 0;

	if (parsed && !ydoc_is_plain(value))
		return quoted_scalar(dec, value, "an unsigned integer");
	if (parsed == 0)
		return expected(dec, value, "an unsigned integer");
	if (parsed < 0)
		return ydecoder_error(dec, ydoc_line(value), "must be at most %u, got %s", max,
				      ydoc_scalar(value));
	if (n == 0 && f->zero_is_default)
		n = f->dflt;
	if (n < f->min)
		return ydecoder_error(dec, ydoc_line(value), "must be at least %u, got %lu", f->min, n);
	if (n > max)
		return ydecoder_error(dec, ydoc_line(value), "must be at most %u, got %lu", max, n);
	*dst = (unsigned)n;
	return 0;
}

static int decode_bool(struct ydecoder *dec, const yaml_node_t *value, bool *dst)
{
	const char *what = "a boolean (true/false, yes/no)";

	if (!ydoc_scalar(value) || !parse_bool(ydoc_scalar(value), dst))
		return expected(dec, value, what);
	if (!ydoc_is_plain(value))
		return quoted_scalar(dec, value, what);
	return 0;
}

static int decode_switch(struct ydecoder *dec, const yaml_node_t *value, int *dst)
{
	const char *text = ydoc_scalar(value);
	bool b;

	if (ydoc_is_plain(value) && (strcmp(text, "0") == 0 || strcmp(text, "1") == 0)) {
		*dst = text[0] - '0';
		return 0;
	}
	if (ydoc_is_plain(value) && parse_bool(text, &b)) {
		*dst = b;
		return 0;
	}
	return expected(dec, value, "0 or 1");
}

static int decode_enum(struct ydecoder *dec, const struct yfield *f, const yaml_node_t *value,
		       int *dst)
{
	const char *text = ydoc_scalar(value);
	int index = text ? yvalues_index(f->values, text) : -1;

	if (index < 0)
		return not_one_of(dec, value, f->values);
	*dst = index;
	return 0;
}

/* ---- sequences -------------------------------------------------------------------------- */

static size_t seq_length(const yaml_node_t *seq)
{
	return (size_t)(seq->data.sequence.items.top - seq->data.sequence.items.start);
}

static const yaml_node_t *seq_item(struct ydecoder *dec, const yaml_node_t *seq, size_t i)
{
	return ydoc_node(dec->doc, seq->data.sequence.items.start[i]);
}

static int check_list_item(struct ydecoder *dec, const struct yfield *f, char **items, size_t i,
			   const yaml_node_t *item)
{
	const char *text = ydoc_scalar(item);

	if (!text || ydoc_is_null(item) || !*text)
		return expected(dec, item, "a string");
	if (f->values && yvalues_index(f->values, text) < 0)
		return not_one_of(dec, item, f->values);
	for (size_t j = 0; !f->allow_duplicates && j < i; j++)
		if (strcmp(items[j], text) == 0)
			return ydecoder_error(dec, ydoc_line(item), "\"%s\" is listed twice", text);
	return 0;
}

static int decode_string_list(struct ydecoder *dec, const struct yfield *f,
			      const yaml_node_t *value, void *obj)
{
	char ***items = FIELD_AT(obj, f->offset, char **);
	size_t *count = FIELD_AT(obj, f->count_offset, size_t);
	size_t n;

	if (value->type != YAML_SEQUENCE_NODE)
		return expected(dec, value, "a list, e.g. [a, b]");
	n = seq_length(value);
	if (n == 0)
		return 0;
	*items = calloc(n, sizeof(**items));
	if (!*items)
		return out_of_memory(dec);
	for (size_t i = 0; i < n; i++) {
		const yaml_node_t *item = seq_item(dec, value, i);
		size_t saved = ypath_push_index(&dec->path, i);
		int rc = check_list_item(dec, f, *items, i, item);

		ypath_pop(&dec->path, saved);
		if (rc)
			return rc;
		(*items)[i] = strdup(ydoc_scalar(item));
		if (!(*items)[i])
			return out_of_memory(dec);
		*count = i + 1;
	}
	return 0;
}

static int decode_nested(struct ydecoder *dec, const yaml_node_t *value,
			 const struct yschema *schema, void *dst, unsigned owner_line)
{
	unsigned saved_owner = dec->owner_line;
	int rc;

	dec->owner_line = owner_line;
	rc = yschema_decode(dec, value, schema, dst);
	dec->owner_line = saved_owner;
	return rc;
}

static int decode_mapping_list(struct ydecoder *dec, const struct yfield *f,
			       const yaml_node_t *value, void *obj)
{
	void **items = FIELD_AT(obj, f->offset, void *);
	size_t *count = FIELD_AT(obj, f->count_offset, size_t);
	size_t n;

	if (value->type != YAML_SEQUENCE_NODE)
		return expected(dec, value, "a list of mappings");
	n = seq_length(value);
	if (n == 0)
		return 0;
	*items = calloc(n, f->schema->size);
	if (!*items)
		return out_of_memory(dec);
	*count = n;  /* zeroed items release cleanly if decoding stops half way */
	for (size_t i = 0; i < n; i++) {
		const yaml_node_t *item = seq_item(dec, value, i);
		size_t saved = ypath_push_index(&dec->path, i);
		int rc = item->type == YAML_MAPPING_NODE
				 ? decode_nested(dec, item, f->schema,
						 (char *)*items + i * f->schema->size, ydoc_line(item))
				 : expected(dec, item, "a mapping");

		ypath_pop(&dec->path, saved);
		if (rc)
			return rc;
	}
	return 0;
}

/* ---- fields ----------------------------------------------------------------------------- */

static int apply_defaults(struct ydecoder *dec, const struct yschema *schema, void *obj,
			  unsigned key_line);

/* The key is absent (or null): its default, or an error when it is required and asked for. */
static int apply_absent(struct ydecoder *dec, const struct yfield *f, void *obj,
			unsigned key_line, bool check_required)
{
	if (f->required && check_required)
		return ydecoder_error(dec, key_line, "required key missing");
	switch (f->kind) {
	case YF_STRING:
		if (f->dflt_str && !(*FIELD_AT(obj, f->offset, char *) = strdup(f->dflt_str)))
			return out_of_memory(dec);
		return 0;
	case YF_UINT:
		*FIELD_AT(obj, f->offset, unsigned) = (unsigned)f->dflt;
		return 0;
	case YF_BOOL:
		*FIELD_AT(obj, f->offset, bool) = f->dflt != 0;
		return 0;
	case YF_SWITCH:
		*FIELD_AT(obj, f->offset, int) = -1;
		return 0;
	case YF_ENUM:
		*FIELD_AT(obj, f->offset, int) = (int)f->dflt;
		return 0;
	case YF_MAPPING:
		return apply_defaults(dec, f->schema, FIELD_AT(obj, f->offset, char), key_line);
	case YF_CUSTOM:
		return f->decode(dec, NULL, obj);
	case YF_STRING_LIST:
	case YF_MAPPING_PTR:
	case YF_MAPPING_LIST:
		return 0;
	}
	return 0;
}

static int apply_defaults(struct ydecoder *dec, const struct yschema *schema, void *obj,
			  unsigned key_line)
{
	for (size_t i = 0; i < schema->n_fields; i++) {
		size_t saved = ypath_push_key(&dec->path, schema->fields[i].key);
		int rc = apply_absent(dec, &schema->fields[i], obj, key_line, false);

		ypath_pop(&dec->path, saved);
		if (rc)
			return rc;
	}
	return 0;
}

static int decode_mapping_ptr(struct ydecoder *dec, const struct yfield *f,
			      const yaml_node_t *value, void *obj, unsigned key_line)
{
	void **ptr = FIELD_AT(obj, f->offset, void *);

	if (value->type != YAML_MAPPING_NODE)
		return expected(dec, value, "a mapping");
	*ptr = calloc(1, f->schema->size);
	if (!*ptr)
		return out_of_memory(dec);
	return decode_nested(dec, value, f->schema, *ptr, key_line);
}

static int decode_present(struct ydecoder *dec, const struct yfield *f, const yaml_node_t *value,
			  void *obj, unsigned key_line)
{
	switch (f->kind) {
	case YF_STRING:
		return decode_string(dec, f, value, FIELD_AT(obj, f->offset, char *));
	case YF_UINT:
		return decode_uint(dec, f, value, FIELD_AT(obj, f->offset, unsigned));
	case YF_BOOL:
		return decode_bool(dec, value, FIELD_AT(obj, f->offset, bool));
	case YF_SWITCH:
		return decode_switch(dec, value, FIELD_AT(obj, f->offset, int));
	case YF_ENUM:
		return decode_enum(dec, f, value, FIELD_AT(obj, f->offset, int));
	case YF_STRING_LIST:
		return decode_string_list(dec, f, value, obj);
	case YF_MAPPING:
		if (value->type != YAML_MAPPING_NODE)
			return expected(dec, value, "a mapping");
		return decode_nested(dec, value, f->schema, FIELD_AT(obj, f->offset, char), key_line);
	case YF_MAPPING_PTR:
		return decode_mapping_ptr(dec, f, value, obj, key_line);
	case YF_MAPPING_LIST:
		return decode_mapping_list(dec, f, value, obj);
	case YF_CUSTOM:
		return f->decode(dec, value, obj);
	}
	return 0;
}

static int decode_field(struct ydecoder *dec, const struct yfield *f, const yaml_node_pair_t *pair,
			void *obj)
{
	const yaml_node_t *value = pair ? ydoc_node(dec->doc, pair->value) : NULL;
	unsigned key_line = pair ? ydoc_line(ydoc_node(dec->doc, pair->key)) : dec->owner_line;
	size_t saved = ypath_push_key(&dec->path, f->key);
	int rc;

	if (!value || ydoc_is_null(value))
		rc = apply_absent(dec, f, obj, key_line, true);
	else
		rc = decode_present(dec, f, value, obj, key_line);
	ypath_pop(&dec->path, saved);
	return rc;
}

/* ---- mappings --------------------------------------------------------------------------- */

static const struct yfield *find_field(const struct yschema *schema, const char *key)
{
	for (size_t i = 0; i < schema->n_fields; i++)
		if (strcmp(schema->fields[i].key, key) == 0)
			return &schema->fields[i];
	return NULL;
}

static int unknown_key(struct ydecoder *dec, const struct yschema *schema, const char *key,
		       unsigned line)
{
	char known[512];
	size_t len = 0;
	size_t saved = ypath_push_key(&dec->path, key);
	int rc;

	known[0] = '\0';
	for (size_t i = 0; i < schema->n_fields && len < sizeof(known); i++) {
		int n = snprintf(known + len, sizeof(known) - len, "%s%s", i ? ", " : "",
				 schema->fields[i].key);
		if (n > 0)
			len += (size_t)n;
	}
	rc = ydecoder_error(dec, line, "unknown key (known keys here: %s)", known);
	ypath_pop(&dec->path, saved);
	return rc;
}

static int check_key(struct ydecoder *dec, const yaml_node_t *mapping, const yaml_node_pair_t *pair,
		     const struct yschema *schema)
{
	const yaml_node_t *key_node = ydoc_node(dec->doc, pair->key);
	const char *key = ydoc_scalar(key_node);
	size_t saved;
	int rc = 0;

	if (!key)
		return expected(dec, key_node, "a key name");
	if (!find_field(schema, key))
		return unknown_key(dec, schema, key, ydoc_line(key_node));
	for (const yaml_node_pair_t *p = mapping->data.mapping.pairs.start; p < pair; p++) {
		const char *earlier = ydoc_scalar(ydoc_node(dec->doc, p->key));

		if (earlier && strcmp(earlier, key) == 0) {
			saved = ypath_push_key(&dec->path, key);
			rc = ydecoder_error(dec, ydoc_line(key_node),
					    "duplicate key (first given on line %u)",
					    ydoc_line(ydoc_node(dec->doc, p->key)));
			ypath_pop(&dec->path, saved);
			break;
		}
	}
	return rc;
}

static int check_keys(struct ydecoder *dec, const yaml_node_t *mapping,
		      const struct yschema *schema)
{
	for (const yaml_node_pair_t *pair = mapping->data.mapping.pairs.start;
	     pair < mapping->data.mapping.pairs.top; pair++) {
		int rc = check_key(dec, mapping, pair, schema);

		if (rc)
			return rc;
	}
	return 0;
}

int yschema_decode(struct ydecoder *dec, const yaml_node_t *mapping, const struct yschema *schema,
		   void *dst)
{
	bool present = mapping && !ydoc_is_null(mapping);
	int rc;

	if (present && mapping->type != YAML_MAPPING_NODE)
		return expected(dec, mapping, "a mapping");
	if (present && (rc = check_keys(dec, mapping, schema)))
		return rc;
	for (size_t i = 0; i < schema->n_fields; i++) {
		const struct yfield *f = &schema->fields[i];
		const yaml_node_pair_t *pair =
			present ? ydoc_map_pair(dec->doc, mapping, f->key) : NULL;

		if ((rc = decode_field(dec, f, pair, dst)))
			return rc;
	}
	return 0;
}
