#include "pty.h"

#include <fcntl.h>
#include <stdlib.h>
#include <termios.h>
#include <unistd.h>

int pty_open_linked(const char *link_path, int *master, int *slave)
{
	struct termios t;
	char *name;

	*master = posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	*slave = -1;
	if (*master < 0 || grantpt(*master) < 0 || unlockpt(*master) < 0 ||
	    !(name = ptsname(*master)))
		return -1;
	*slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (*slave < 0 || tcgetattr(*slave, &t) < 0)
		return -1;
	cfmakeraw(&t);
	if (tcsetattr(*slave, TCSANOW, &t) < 0)
		return -1;
	unlink(link_path);
	return symlink(name, link_path);
}
