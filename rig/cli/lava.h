/* `rig lava render` (a LAVA job for a board and a plan) and `rig lava import` (a LAVA job's
 * results into the results database). jobs/README.md tells how a lab uses them. */
#ifndef RIG_CLI_LAVA_H
#define RIG_CLI_LAVA_H

#include <stdio.h>

/* argv[0] is "lava", argv[1] the subcommand. Returns the rig exit code. */
int cmd_lava(int argc, char **argv);
/* Same, writing to out and errout: what the tests call. */
int cmd_lava_to(int argc, char **argv, FILE *out, FILE *errout);

#endif
