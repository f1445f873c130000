/* `rig run`: a plan on a board, end to end. */
#ifndef RIG_CLI_RUN_H
#define RIG_CLI_RUN_H

/* argv[0] is "run". Returns the rig exit code. */
int cmd_run(int argc, char **argv);

#endif
