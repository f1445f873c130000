/* `rig results`: show runs stored in the results database. */
#ifndef RIG_CLI_RESULTS_H
#define RIG_CLI_RESULTS_H

#include <stdio.h>

/* argv[0] is the subcommand name ("results"). Returns the rig exit code. */
int cmd_results(int argc, char **argv);
/* Same, writing to out and errout: what the tests call. */
int cmd_results_to(int argc, char **argv, FILE *out, FILE *errout);

#endif
