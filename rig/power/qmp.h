/* A QEMU Machine Protocol client over a unix socket.
 *
 * Commands are synchronous and carry ids; replies are matched by id, stale replies are dropped.
 * Asynchronous events that arrive meanwhile are queued with their timestamps, so the caller can
 * ask later whether, say, a SUSPEND event arrived since a given time. */
#ifndef RIG_POWER_QMP_H
#define RIG_POWER_QMP_H

#include <jansson.h>

#include "util/err.h"

struct qmp;

/* Connect to path, retrying while the socket is missing or refuses, until timeout_ms; then read
 * the greeting and negotiate capabilities. */
int qmp_connect(const char *path, unsigned timeout_ms, struct qmp **out, struct rig_err *err);
/* The same over an already connected stream (takes ownership of fd, even on failure). */
int qmp_open_fd(int fd, unsigned timeout_ms, struct qmp **out, struct rig_err *err);
void qmp_close(struct qmp *qmp);

/* Run command with args (borrowed; NULL for none).  On success *ret (if non-NULL) receives a new
 * reference to the "return" value.  A QMP error reply fails with its class and description. */
int qmp_execute(struct qmp *qmp, const char *command, json_t *args, unsigned timeout_ms,
		json_t **ret, struct rig_err *err);

/* Wait up to timeout_ms for an event named name with timestamp >= since (wall-clock seconds).
 * Already queued events count.  Returns 1 found, 0 timeout, -1 error (connection lost). */
int qmp_wait_event(struct qmp *qmp, const char *name, double since, unsigned timeout_ms,
		   struct rig_err *err);
/* Read whatever is available now, queueing events; never blocks.  Returns 0 or -1. */
int qmp_poll(struct qmp *qmp, struct rig_err *err);
/* Number of queued events named name (NULL: all). */
size_t qmp_event_count(const struct qmp *qmp, const char *name);

#endif
