/* `rig known`: the known issues against the results — active, or possibly fixed. */
#ifndef RIG_CLI_KNOWN_H
#define RIG_CLI_KNOWN_H

/* argv[0] is "known". Returns the rig exit code. */
int cmd_known(int argc, char **argv);

#endif
