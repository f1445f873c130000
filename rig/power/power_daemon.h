/* `rig powerd`: hold a board's power lines and serve power requests (power_proto.h) on a unix
 * socket, because GPIO lines revert when the process that requested them exits. */
#ifndef RIG_POWER_POWER_DAEMON_H
#define RIG_POWER_POWER_DAEMON_H

#include <signal.h>
#include <stddef.h>

#include "power/power.h"

/* Bind and listen on path.  A stale socket file is replaced; a live daemon on it is an error. */
int power_daemon_listen(const char *path, int *listen_fd, struct rig_err *err);
/* Serve connections until *stop becomes non-zero (checked at least every 200 ms). */
int power_daemon_run(struct power *power, int listen_fd, volatile sig_atomic_t *stop,
		     struct rig_err *err);
/* Serve one connection until the peer closes it or stays idle for idle_ms. */
void power_daemon_serve_conn(struct power *power, int fd, unsigned idle_ms);

/* Client side: send one request and read the reply line into reply.  Fails (RIG_EXIT_INFRA)
 * when nothing answers on path. */
int power_daemon_call(const char *path, const char *request, char *reply, size_t size,
		      unsigned timeout_ms, struct rig_err *err);

#endif
