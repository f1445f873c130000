/* The board file's schema (boards/README.md) and the checks that span several keys. */
#ifndef RIG_CONFIG_BOARD_SCHEMA_H
#define RIG_CONFIG_BOARD_SCHEMA_H

#include "config/board.h"
#include "config/yaml_schema.h"

extern const struct yschema board_schema;

/* Rules no single key can check (backend section present, console path, wake sources the
 * power backend can deliver, unique names); errors name the line of the key at fault. */
int board_check(const struct board *board, const struct ydoc *doc, struct rig_err *err);

#endif
