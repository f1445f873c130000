#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lava/render.h"

static void copy_str(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src ? src : "unknown");
}

int lava_kernel_meta(const char *meta_path, struct lava_kernel_facts *facts, struct rig_err *err)
{
	json_error_t jerr;
	json_t *meta, *s_id;
	const char *git_sha;

	copy_str(facts->version, sizeof(facts->version), NULL);
	copy_str(facts->sha, sizeof(facts->sha), NULL);
	facts->s_id_offset[0] = '\0';
	if (access(meta_path, F_OK) && errno == ENOENT)
		return 0;
	meta = json_load_file(meta_path, 0, &jerr);
	if (!meta || !json_is_object(meta)) {
		json_decref(meta);
		return rig_err_set(err, RIG_EXIT_USAGE, "%s:%d: %s", meta_path, jerr.line,
				   meta ? "not a JSON object" : jerr.text);
	}
	copy_str(facts->version, sizeof(facts->version), json_string_value(json_object_get(meta, "version")));
	git_sha = json_string_value(json_object_get(meta, "git_sha"));
	copy_str(facts->sha, sizeof(facts->sha),
		 git_sha ? git_sha : json_string_value(json_object_get(meta, "id")));
	s_id = json_object_get(json_object_get(meta, "offsets"), "super_block.s_id");
	if (json_is_integer(s_id) && json_integer_value(s_id) >= 0)
		snprintf(facts->s_id_offset, sizeof(facts->s_id_offset), "%lld",
			 (long long)json_integer_value(s_id));
	json_decref(meta);
	return 0;
}
