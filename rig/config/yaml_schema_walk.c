/* Walking what yschema_decode() filled in: releasing it, visiting its strings. */
#include "config/yaml_schema.h"

#include <stdlib.h>

#define FIELD_AT(obj, off, type) ((type *)((char *)(obj) + (off)))

static void release_string_list(const struct yfield *f, void *obj)
{
	char ***items = FIELD_AT(obj, f->offset, char **);
	size_t *count = FIELD_AT(obj, f->count_offset, size_t);

	for (size_t i = 0; i < *count; i++)
		free((*items)[i]);
	free(*items);
	*items = NULL;
	*count = 0;
}

static void release_mapping_list(const struct yfield *f, void *obj)
{
	void **items = FIELD_AT(obj, f->offset, void *);
	size_t *count = FIELD_AT(obj, f->count_offset, size_t);

	for (size_t i = 0; i < *count; i++)
		yschema_release(f->schema, (char *)*items + i * f->schema->size);
	free(*items);
	*items = NULL;
	*count = 0;
}

static void release_field(const struct yfield *f, void *obj)
{
	void **ptr = FIELD_AT(obj, f->offset, void *);

	switch (f->kind) {
	case YF_STRING:
		free(*ptr);
		*ptr = NULL;
		break;
	case YF_STRING_LIST:
		release_string_list(f, obj);
		break;
	case YF_MAPPING:
		yschema_release(f->schema, FIELD_AT(obj, f->offset, char));
		break;
	case YF_MAPPING_PTR:
		if (*ptr)
			yschema_release(f->schema, *ptr);
		free(*ptr);
		*ptr = NULL;
		break;
	case YF_MAPPING_LIST:
		release_mapping_list(f, obj);
		break;
	case YF_CUSTOM:
		f->release(obj);
		break;
	case YF_UINT:
	case YF_BOOL:
	case YF_SWITCH:
	case YF_ENUM:
		break;
	}
}

void yschema_release(const struct yschema *schema, void *dst)
{
	for (size_t i = 0; i < schema->n_fields; i++)
		release_field(&schema->fields[i], dst);
}

static int each_string_in_field(const struct yfield *f, void *obj, ystring_fn fn, void *ctx)
{
	int rc = 0;

	switch (f->kind) {
	case YF_STRING:
		return *FIELD_AT(obj, f->offset, char *)
			       ? fn(FIELD_AT(obj, f->offset, char *), f->shell, ctx)
			       : 0;
	case YF_STRING_LIST:
		for (size_t i = 0; !rc && i < *FIELD_AT(obj, f->count_offset, size_t); i++)
			rc = fn(&(*FIELD_AT(obj, f->offset, char **))[i], f->shell, ctx);
		return rc;
	case YF_MAPPING:
		return yschema_each_string(f->schema, FIELD_AT(obj, f->offset, char), fn, ctx);
	case YF_MAPPING_PTR:
		return *FIELD_AT(obj, f->offset, void *)
			       ? yschema_each_string(f->schema, *FIELD_AT(obj, f->offset, void *), fn, ctx)
			       : 0;
	case YF_MAPPING_LIST:
		for (size_t i = 0; !rc && i < *FIELD_AT(obj, f->count_offset, size_t); i++)
			rc = yschema_each_string(
				f->schema, *FIELD_AT(obj, f->offset, char *) + i * f->schema->size, fn, ctx);
		return rc;
	case YF_UINT:
	case YF_BOOL:
	case YF_SWITCH:
	case YF_ENUM:
	case YF_CUSTOM:
		return 0;
	}
	return 0;
}

int yschema_each_string(const struct yschema *schema, void *dst, ystring_fn fn, void *ctx)
{
	for (size_t i = 0; i < schema->n_fields; i++) {
		int rc = each_string_in_field(&schema->fields[i], dst, fn, ctx);

		if (rc)
			return rc;
	}
	return 0;
}
