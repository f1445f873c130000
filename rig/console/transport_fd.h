/* Descriptor helpers shared by the fd-based backends (socket, pty, plain fd). */
#ifndef RIG_CONSOLE_TRANSPORT_FD_H
#define RIG_CONSOLE_TRANSPORT_FD_H

#include "console/transport.h"

ssize_t transport_fd_read(struct console_transport *t, void *buf, size_t len, int timeout_ms,
			  struct rig_err *err);
int transport_fd_write(struct console_transport *t, const void *buf, size_t len,
		       struct rig_err *err);
void transport_fd_close(struct console_transport *t);
int transport_fd_poll_fd(const struct console_transport *t);

#endif
