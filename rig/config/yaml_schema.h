/* Table-driven decoding of YAML mappings into C structs, on top of yaml_doc.
 *
 * libcyaml (1.3, bookworm) decodes schemas too, but it tells where an error is only through its
 * log callback, as a backtrace of "in mapping field ... (line: L, column: C)" lines after the
 * message, and it has no tagged unions (a plan step is a one-key mapping whose key picks the
 * step's type). The rig's config errors must be one line a caller can return, "boards/x.yaml:14:
 * power.qemu.cpus: expected an unsigned integer, got "two"", so board and plan files are decoded
 * here from libyaml's node tree. */
#ifndef RIG_CONFIG_YAML_SCHEMA_H
#define RIG_CONFIG_YAML_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>

#include "config/yaml_doc.h"

enum yfield_kind {
	YF_STRING,        /* char *: any non-empty scalar; `values` (if set) restricts it */
	YF_UINT,          /* unsigned: plain decimal within [min, max] */
	YF_BOOL,          /* bool: true/false, yes/no, on/off */
	YF_SWITCH,        /* int: 0 or 1 (or a boolean); absent = -1, "leave as it is" */
	YF_ENUM,          /* int-sized enum: index of the scalar in `values` */
	YF_STRING_LIST,   /* char ** at offset, size_t count at count_offset; no duplicates */
	YF_MAPPING,       /* struct embedded at offset, decoded with `schema`; when absent, its
			   * defaults apply and its required keys are not asked for */
	YF_MAPPING_PTR,   /* pointer to a calloc'ed struct (schema->size); NULL when absent */
	YF_MAPPING_LIST,  /* array of schema->size structs at offset, size_t count at count_offset */
	YF_CUSTOM,        /* decoded and released by the callbacks */
};

struct ydecoder;
struct yschema;

struct yfield {
	const char *key;
	enum yfield_kind kind;
	size_t offset;
	size_t count_offset;
	bool required;
	const char *const *values;       /* NULL-terminated allowed values (STRING, ENUM, lists) */
	const struct yschema *schema;    /* MAPPING kinds */
	unsigned long dflt;              /* UINT, BOOL, ENUM: value when absent */
	const char *dflt_str;            /* STRING: value when absent (copied) */
	unsigned min, max;               /* UINT bounds; max 0 = UINT_MAX */
	bool zero_is_default;            /* UINT: an explicit 0 also means dflt */
	bool allow_duplicates;           /* STRING_LIST: items may repeat (command lines) */
	bool shell;                      /* STRING: a command line run with `sh -c` */
	/* CUSTOM: value is NULL when the key is absent; obj is the struct being decoded. */
	int (*decode)(struct ydecoder *dec, const yaml_node_t *value, void *obj);
	void (*release)(void *obj);
};

struct yschema {
	const struct yfield *fields;
	size_t n_fields;
	size_t size;                     /* sizeof the struct the fields live in */
};

#define YSCHEMA(fields_array, type) \
	{ (fields_array), sizeof(fields_array) / sizeof((fields_array)[0]), sizeof(type) }

struct ydecoder {
	const struct ydoc *doc;
	struct rig_err *err;
	struct ypath path;
	unsigned owner_line;             /* line of the key whose value is being decoded */
};

void ydecoder_init(struct ydecoder *dec, const struct ydoc *doc, struct rig_err *err);

/* Decode mapping into dst (zeroed by the caller) following schema. mapping NULL or a null
 * scalar means "absent": defaults are applied and required keys reported. Unknown and duplicate
 * keys are errors. On error dst may be partly filled: release it with yschema_release(). */
int yschema_decode(struct ydecoder *dec, const yaml_node_t *mapping, const struct yschema *schema,
		   void *dst);
/* Free everything decoding put into dst (not dst itself); safe on a zeroed struct. */
void yschema_release(const struct yschema *schema, void *dst);

/* Call fn on every string the schema owns in dst (STRING fields and list items), recursively,
 * with the field's shell flag; fn may replace *s. Stops at and returns the first non-zero
 * result. */
typedef int (*ystring_fn)(char **s, bool shell, void *ctx);
int yschema_each_string(const struct yschema *schema, void *dst, ystring_fn fn, void *ctx);

/* Error at the decoder's current key path: "file:line: path: message". */
int ydecoder_error(struct ydecoder *dec, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "a, b, c" from a NULL-terminated list, for "expected one of ..." messages. */
void yvalues_join(const char *const *values, char *buf, size_t size);
/* Index of text in values, -1 if absent. */
int yvalues_index(const char *const *values, const char *text);

#endif
