/* `rig console`: interactive pass-through to the board's console, like picocom. */
#ifndef RIG_CLI_CONSOLE_H
#define RIG_CLI_CONSOLE_H

#include "config/board.h"

/* argv[0] is "console". Returns a RIG_EXIT_* code. */
int cmd_console(struct board *board, int argc, char **argv);

#endif
