/* `rig boot`: boot a board to its agent and run commands on it. */
#ifndef RIG_CLI_BOOT_H
#define RIG_CLI_BOOT_H

/* argv[0] is "boot". Returns the rig exit code. */
int cmd_boot(int argc, char **argv);

#endif
