/* The running kernel against the deployed one (identity.h). */
#include "judge/identity.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

int identity_judge(const struct kernel_identity *want, const struct ev_identity *got, char *why,
		   size_t size)
{
	const char *id = got->build_id[0] ? got->build_id : "(none reported)";

	if (strcmp(want->version, got->kernel) == 0 && strcmp(want->build_id, got->build_id) == 0)
		return 0;
	snprintf(why, size, "the board runs kernel %s build-id %s, not the deployed %s build-id %s",
		 got->kernel, id, want->version, want->build_id);
	return -1;
}

static int copy_field(json_t *meta, const char *key, char *buf, size_t size, char *why,
		      size_t why_size)
{
	const char *value = json_string_value(json_object_get(meta, key));

	if (!value || !*value || strlen(value) >= size) {
		snprintf(why, why_size, "meta.json has no valid \"%s\" (a kernel built before "
			 "kernel/build.sh recorded its identity: rebuild it)", key);
		return -1;
	}
	memcpy(buf, value, strlen(value) + 1);
	return 0;
}

int identity_from_meta(const char *meta_json, struct kernel_identity *out, char *why, size_t size)
{
	json_t *meta = meta_json ? json_loads(meta_json, 0, NULL) : NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!json_is_object(meta)) {
		json_decref(meta);
		snprintf(why, size, "meta.json is not a JSON object");
		return -1;
	}
	rc = copy_field(meta, "version", out->version, sizeof(out->version), why, size) < 0 ||
	     copy_field(meta, "build_id", out->build_id, sizeof(out->build_id), why, size) < 0 ? -1 : 0;
	json_decref(meta);
	return rc;
}
