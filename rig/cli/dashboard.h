/* `rig dashboard`: render the results database as a static HTML site (dashboards/render.h). */
#ifndef RIG_CLI_DASHBOARD_H
#define RIG_CLI_DASHBOARD_H

#include <stdio.h>

/* argv[0] is the subcommand name ("dashboard"). Returns the rig exit code. */
int cmd_dashboard(int argc, char **argv);
/* Same, writing to out and errout: what the tests call. */
int cmd_dashboard_to(int argc, char **argv, FILE *out, FILE *errout);

#endif
