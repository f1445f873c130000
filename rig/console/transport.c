/* Backend factory and the thin dispatch every caller goes through. */
#include "console/transport.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct console_transport_ops *const backends[] = {
	&transport_socket_ops,
	&transport_pty_ops,
	&transport_serialport_ops,
};

static const struct console_transport_ops *find_backend(const char *kind)
{
	for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]); i++)
		if (strcmp(backends[i]->name, kind) == 0)
			return backends[i];
	return NULL;
}

static struct console_transport *transport_alloc(const struct console_transport_ops *ops,
						 const char *path, struct rig_err *err)
{
	struct console_transport *t = calloc(1, sizeof(*t));

	if (!t || !(t->path = strdup(path ? path : "?"))) {
		free(t);
		rig_err_set(err, RIG_EXIT_INFRA, "console: out of memory");
		return NULL;
	}
	t->ops = ops;
	t->fd = -1;
	return t;
}

static void transport_free(struct console_transport *t)
{
	free(t->path);
	free(t);
}

int transport_open(const char *kind, const struct transport_params *p,
		   struct console_transport **out, struct rig_err *err)
{
	const struct console_transport_ops *ops = kind ? find_backend(kind) : NULL;
	struct console_transport *t;

	if (!ops)
		return rig_err_set(err, RIG_EXIT_USAGE,
				   "console: unknown transport '%s' (socket, pty or serial)",
				   kind ? kind : "(none)");
	if (!p || !p->path || !*p->path)
		return rig_err_set(err, RIG_EXIT_USAGE, "console: %s transport needs a path",
				   kind);
	t = transport_alloc(ops, p->path, err);
	if (!t)
		return -1;
	if (ops->open(t, p, err) < 0) {
		transport_free(t);
		return -1;
	}
	*out = t;
	return 0;
}

int transport_from_fd(int fd, const char *label, struct console_transport **out,
		      struct rig_err *err)
{
	struct console_transport *t = transport_alloc(&transport_fd_ops, label, err);

	if (!t)
		return -1;
	t->fd = fd;
	*out = t;
	return 0;
}

ssize_t transport_read(struct console_transport *t, void *buf, size_t len, int timeout_ms,
		       struct rig_err *err)
{
	return t->ops->read(t, buf, len, timeout_ms, err);
}

int transport_write(struct console_transport *t, const void *buf, size_t len,
		    struct rig_err *err)
{
	return t->ops->write(t, buf, len, err);
}

int transport_send_break(struct console_transport *t, struct rig_err *err)
{
	return t->ops->send_break(t, err);
}

int transport_poll_fd(const struct console_transport *t)
{
	return t->ops->poll_fd(t);
}

void transport_set_notice(struct console_transport *t, transport_notice_fn fn, void *ctx)
{
	t->notice = fn;
	t->notice_ctx = ctx;
}

void transport_notify(struct console_transport *t, enum transport_notice what, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (!t->notice)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	t->notice(t->notice_ctx, what, msg);
}

void transport_close(struct console_transport *t)
{
	if (!t)
		return;
	t->ops->close(t);
	transport_free(t);
}
