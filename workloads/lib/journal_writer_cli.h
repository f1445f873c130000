/* Command line of journal-writer, kept in the library so tests can exercise it. */
#ifndef WORKLOADS_JOURNAL_WRITER_CLI_H
#define WORKLOADS_JOURNAL_WRITER_CLI_H

#include <stdio.h>

#include "lib/journal_writer.h"
#include "lib/wl_util.h"

enum jw_cli_result {
	JW_CLI_RUN = 0,
	JW_CLI_HELP = 1,
	JW_CLI_ERROR = -1,
};

/* Fill cfg (starting from jw_config_defaults) from argv. cfg keeps pointers into argv. */
enum jw_cli_result jw_cli_parse(int argc, char **argv, struct jw_config *cfg, struct wl_err *err);

void jw_cli_usage(FILE *out, const char *prog);

#endif
