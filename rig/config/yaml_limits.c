#include "config/yaml_limits.h"

#include <yaml.h>

int yaml_limits_check(const char *text, size_t len, const char *file, unsigned first_line,
		      struct rig_err *err)
{
	yaml_parser_t parser;
	yaml_event_t event;
	unsigned depth = 0;
	int rc = 0;

	if (!yaml_parser_initialize(&parser))
		return rig_err_set(err, RIG_EXIT_INFRA, "%s: cannot initialise the YAML parser", file);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	for (;;) {
		if (!yaml_parser_parse(&parser, &event))
			break;   /* syntax error: the loader reports it */
		if (event.type == YAML_SEQUENCE_START_EVENT || event.type == YAML_MAPPING_START_EVENT) {
			if (++depth > YAML_MAX_DEPTH)
				rc = rig_err_set(err, RIG_EXIT_USAGE,
						 "%s:%zu: nested more than %d levels deep",
						 file, event.start_mark.line + first_line,
						 YAML_MAX_DEPTH);
		} else if (event.type == YAML_SEQUENCE_END_EVENT ||
			   event.type == YAML_MAPPING_END_EVENT) {
			depth--;
		} else if (event.type == YAML_ALIAS_EVENT) {
			rc = rig_err_set(err, RIG_EXIT_USAGE,
					 "%s:%zu: YAML alias *%s: aliases are refused (each use copies "
					 "the anchor's whole value again, without bound); write the "
					 "value out", file, event.start_mark.line + first_line,
					 (const char *)event.data.alias.anchor);
		}
		if (rc || event.type == YAML_STREAM_END_EVENT) {
			yaml_event_delete(&event);
			break;
		}
		yaml_event_delete(&event);
	}
	yaml_parser_delete(&parser);
	return rc;
}
