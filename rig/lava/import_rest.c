/* REST answers of /api/v0.2/jobs/<id>/tests/ (an export file, or pages fetched by rest.c) -> cases. */
#include <float.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lava/cases.h"
#include "lava/http.h"
#include "util/number.h"

/* A top-level "key: value" line of the case's YAML metadata. Older servers give the suite as an
 * id and keep its name only there ("definition: 1_cycle-000-suspend"); a failed job's case
 * keeps LAVA's error there ("error_type: Job"). */
static char *from_metadata(const char *metadata, const char *key)
{
	size_t klen = strlen(key);
	const char *p = metadata;

	while (p && *p) {
		if (!strncmp(p, key, klen) && p[klen] == ':' && p[klen + 1] == ' ')
			return strndup(p + klen + 2, strcspn(p + klen + 2, "\r\n"));
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return NULL;
}

/* The suite as a name, an object, or (v0.2) an id looked up in suite_names ({"12": "0_rig-setup"}). */
static const char *suite_name(json_t *item, json_t *suite_names)
{
	json_t *suite = json_object_get(item, "suite");
	char id[32];

	if (json_is_string(suite))
		return json_string_value(suite);
	if (json_is_object(suite))
		return json_string_value(json_object_get(suite, "name"));
	if (json_is_integer(suite) && suite_names) {
		snprintf(id, sizeof(id), "%" JSON_INTEGER_FORMAT, json_integer_value(suite));
		return json_string_value(json_object_get(suite_names, id));
	}
	return NULL;
}

static int measurement_of(json_t *m, double *value)
{
	if (json_is_number(m)) {
		*value = json_number_value(m);
		return 1;
	}
	if (!json_is_string(m))
		return 0;
	return parse_real(json_string_value(m), -DBL_MAX, DBL_MAX, value) == 0;
}

int lava_cases_add_rest_item(const char *origin, size_t index, json_t *item, json_t *suite_names,
			     struct lava_cases *cases, struct rig_err *err)
{
	json_t *units = json_object_get(item, "units");
	char *from_meta = NULL, *error_type, *error_msg;
	const char *metadata = json_string_value(json_object_get(item, "metadata"));
	struct lava_case c = {0};
	int rc;

	if (!json_is_object(item))
		return rig_err_set(err, RIG_EXIT_USAGE, "%s: results[%zu]: not an object", origin, index);
	if (!units)
		units = json_object_get(item, "unit");
	c.name = (char *)json_string_value(json_object_get(item, "name"));
	c.result = (char *)json_string_value(json_object_get(item, "result"));
	c.units = (char *)json_string_value(units);
	c.suite = (char *)suite_name(item, suite_names);
	c.has_measurement = measurement_of(json_object_get(item, "measurement"), &c.measurement);
	c.logged = lava_parse_time(json_string_value(json_object_get(item, "logged")));
	if (!c.suite) {
		from_meta = from_metadata(metadata, "definition");
		c.suite = from_meta;
	}
	if (!c.name || !c.suite) {
		free(from_meta);
		return rig_err_set(err, RIG_EXIT_USAGE, "%s: results[%zu]: no %s", origin, index,
				   c.name ? "suite" : "name");
	}
	c.error_type = error_type = from_metadata(metadata, "error_type");
	c.error_msg = error_msg = from_metadata(metadata, "error_msg");
	rc = lava_cases_add(cases, &c, err);
	free(from_meta);
	free(error_type);
	free(error_msg);
	return rc;
}

int lava_cases_from_rest(const char *path, struct lava_cases *cases, struct rig_err *err)
{
	json_error_t jerr;
	json_t *root, *results;
	struct stat st;
	size_t i;
	json_t *item;
	int rc = 0;

	/* The same bound as an answer fetched by REST (lava/http.h), checked before jansson. */
	if (stat(path, &st) == 0 && st.st_size > LAVA_HTTP_MAX_BODY)
		return rig_err_set(err, RIG_EXIT_USAGE, "%s: %lld bytes, more than the %ld a LAVA "
				   "REST export may have", path, (long long)st.st_size,
				   LAVA_HTTP_MAX_BODY);
	root = json_load_file(path, 0, &jerr);
	if (!root)
		return rig_err_set(err, RIG_EXIT_USAGE, "%s:%d: %s", path, jerr.line, jerr.text);
	results = json_is_array(root) ? root : json_object_get(root, "results");
	if (!json_is_array(results)) {
		json_decref(root);
		return rig_err_set(err, RIG_EXIT_USAGE, "%s: no \"results\" list", path);
	}
	json_array_foreach(results, i, item) {
		if ((rc = lava_cases_add_rest_item(path, i, item, NULL, cases, err)))
			break;
	}
	json_decref(root);
	return rc;
}
