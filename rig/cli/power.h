/* `rig power` (switch a board, report its power state) and `rig powerd` (hold a board's GPIO
 * power lines and serve `rig power` over a unix socket). */
#ifndef RIG_CLI_POWER_H
#define RIG_CLI_POWER_H

#include <stdio.h>

#include "config/board.h"

/* argv[0] is the subcommand name ("power"); the caller has consumed --board and loaded board
 * (NULL when none was given: only --help works then).  Returns the rig exit code. */
int cmd_power(struct board *board, int argc, char **argv);
/* Same, writing to out and errout: what the tests call. */
int cmd_power_to(struct board *board, int argc, char **argv, FILE *out, FILE *errout);

/* argv[0] is "powerd".  Runs until SIGINT or SIGTERM. */
int cmd_powerd(struct board *board, int argc, char **argv);

#endif
