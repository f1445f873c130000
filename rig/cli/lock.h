/* `rig lock --board B [--wait S] -- COMMAND...`: run COMMAND holding the board (engine/lease.h). */
#ifndef RIG_CLI_LOCK_H
#define RIG_CLI_LOCK_H

int cmd_lock(int argc, char **argv);

#endif
