/* `rig powerd`: hold a board's power lines and serve power requests (power_proto.h) on a unix
 * socket, because GPIO lines revert when the process that requested them exits. */
#ifndef RIG_POWER_POWER_DAEMON_H
#define RIG_POWER_POWER_DAEMON_H

#include <signal.h>
#include <stddef.h>

#include "power/peer_cred.h"
#include "power/power.h"

/*
 * Bind and listen on path, the socket file 0600 (0660 and the group's with peers->has_group;
 * peers may be NULL). A socket nobody serves is replaced; anything else at path (a file, a
 * directory, a symlink, a socket we may not connect to) is refused, and so is a live daemon.
 */
int power_daemon_listen(const char *path, const struct peer_policy *peers, int *listen_fd,
			struct rig_err *err);
/* Connections the daemon keeps open at once, watchers (one per rig on the board) included;
 * one more is refused with "err ... busy". */
#define POWER_DAEMON_MAX_CONNS 32

struct power_daemon_opts {
	struct peer_policy peers;   /* who may connect (peer_cred.h) */
	unsigned request_ms;        /* a request line must arrive whole within this (0: 5000) */
};

/*
 * Serve connections until *stop becomes non-zero (checked at least every 200 ms). Every client
 * is read as its bytes come (one that trickles holds nobody up) and is closed with "err no whole
 * request within N ms" when a request does not arrive whole in time; requests are carried out
 * one at a time, in arrival order. A peer the policy refuses gets "err rig powerd: refused: ..."
 * and is closed (opts NULL: everyone may, for tests).
 */
int power_daemon_run(struct power *power, int listen_fd, const struct power_daemon_opts *opts,
		     volatile sig_atomic_t *stop, struct rig_err *err);

/* Client side: send one request and read the reply line into reply.  Fails (RIG_EXIT_INFRA)
 * when nothing answers on path. */
int power_daemon_call(const char *path, const char *request, char *reply, size_t size,
		      unsigned timeout_ms, struct rig_err *err);

/* Client side: is a daemon serving path for us? 1 it answered a ping; 0 nothing listens there
 * (no socket, or a stale one); -1 something there refused us or is not a daemon (err says what:
 * driving the lines directly would then only collide with it). */
int power_daemon_probe(const char *path, struct rig_err *err);

/* Client side: open a watch on the daemon (*fd_out stays open; close it when done). */
int power_daemon_watch(const char *path, int *fd_out, struct rig_err *err);
/* Has the daemon behind a watch gone away (exited, killed)?  Never blocks. */
int power_daemon_gone(int watch_fd);

#endif
