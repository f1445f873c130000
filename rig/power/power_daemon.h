/* `rig powerd`: hold a board's power lines and serve power requests (power_proto.h) on a unix
 * socket, because GPIO lines revert when the process that requested them exits. */
#ifndef RIG_POWER_POWER_DAEMON_H
#define RIG_POWER_POWER_DAEMON_H

#include <signal.h>
#include <stddef.h>

#include "power/power.h"

/* Bind and listen on path.  A stale socket file is replaced; a live daemon on it is an error. */
int power_daemon_listen(const char *path, int *listen_fd, struct rig_err *err);
/* Watch connections the daemon keeps open at once (each rig on the board holds one). */
#define POWER_DAEMON_MAX_WATCHERS 16

/* Serve connections until *stop becomes non-zero (checked at least every 200 ms). */
int power_daemon_run(struct power *power, int listen_fd, volatile sig_atomic_t *stop,
		     struct rig_err *err);
/* Serve one connection until the peer closes it or stays idle for idle_ms: 0.  1 when the peer
 * asked to watch the daemon: the caller keeps fd open, unserved, for as long as it lives. */
int power_daemon_serve_conn(struct power *power, int fd, unsigned idle_ms);

/* Client side: send one request and read the reply line into reply.  Fails (RIG_EXIT_INFRA)
 * when nothing answers on path. */
int power_daemon_call(const char *path, const char *request, char *reply, size_t size,
		      unsigned timeout_ms, struct rig_err *err);

/* Client side: open a watch on the daemon (*fd_out stays open; close it when done). */
int power_daemon_watch(const char *path, int *fd_out, struct rig_err *err);
/* Has the daemon behind a watch gone away (exited, killed)?  Never blocks. */
int power_daemon_gone(int watch_fd);

#endif
