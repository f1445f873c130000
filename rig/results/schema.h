/* The results database schema, embedded so the rig binary never needs the source tree. */
#ifndef RIG_RESULTS_SCHEMA_H
#define RIG_RESULTS_SCHEMA_H

#include <stddef.h>

/* Migration i (0-based) takes a database from user_version i to i + 1. Append, never edit. */
extern const char *const results_schema_migrations[];
extern const size_t results_schema_n_migrations;

#endif
