/* Byte transports to a board's console: a QEMU chardev socket, a pty, or a real UART.
 * Every backend sits behind the same ops struct so the console layer never knows which one
 * it talks to. */
#ifndef RIG_CONSOLE_TRANSPORT_H
#define RIG_CONSOLE_TRANSPORT_H

#include <stddef.h>
#include <sys/types.h>

#include "util/err.h"

struct console_transport;

struct transport_params {
	const char *path;         /* socket path, /dev/pts/N, /dev/ttyUSB0 */
	unsigned baud;            /* serial only; 0 = 115200 */
	int connect_timeout_ms;   /* socket only: QEMU may still be starting; 0 = one attempt */
	unsigned reattach_ms;     /* serial only: how long an unplugged port may take to come back
				   * before reads fail; 0 = fail at once */
};

/* What a transport tells its user besides bytes: the line's own events. */
enum transport_notice {
	TRANSPORT_GONE,           /* the device went away (unplugged); waiting for it */
	TRANSPORT_BACK,           /* it came back and is open again; bytes in between are lost */
	TRANSPORT_BREAK,          /* a break on the line: the far end's TX held low */
	TRANSPORT_LINE_ERRORS,    /* framing, parity or overrun errors counted by the UART */
};
typedef void (*transport_notice_fn)(void *ctx, enum transport_notice what, const char *msg);

struct console_transport_ops {
	const char *name;
	int (*open)(struct console_transport *t, const struct transport_params *p,
		    struct rig_err *err);
	/* >0 bytes read, 0 nothing within timeout_ms (-1 = wait forever), -1 error or end. */
	ssize_t (*read)(struct console_transport *t, void *buf, size_t len, int timeout_ms,
			struct rig_err *err);
	/* Writes all of buf or fails. */
	int (*write)(struct console_transport *t, const void *buf, size_t len,
		     struct rig_err *err);
	int (*send_break)(struct console_transport *t, struct rig_err *err);
	void (*close)(struct console_transport *t);
	/* Descriptor that becomes readable when read() has data, for poll(). */
	int (*poll_fd)(const struct console_transport *t);
};

struct console_transport {
	const struct console_transport_ops *ops;
	int fd;                   /* -1 when closed */
	void *priv;               /* backend state (libserialport's port) */
	char *path;               /* for messages */
	transport_notice_fn notice;
	void *notice_ctx;
};

extern const struct console_transport_ops transport_socket_ops;
extern const struct console_transport_ops transport_pty_ops;
extern const struct console_transport_ops transport_serialport_ops;
extern const struct console_transport_ops transport_fd_ops;

/* Open the backend called kind ("socket" | "pty" | "serial"). Errors are RIG_EXIT_USAGE for an
 * unknown kind, RIG_EXIT_INFRA when the console cannot be reached. */
int transport_open(const char *kind, const struct transport_params *p,
		   struct console_transport **out, struct rig_err *err);

/* Wrap an already open descriptor (a socketpair or pipe end in tests, a pty master). The
 * transport owns fd from now on. */
int transport_from_fd(int fd, const char *label, struct console_transport **out,
		      struct rig_err *err);

ssize_t transport_read(struct console_transport *t, void *buf, size_t len, int timeout_ms,
		       struct rig_err *err);
int transport_write(struct console_transport *t, const void *buf, size_t len,
		    struct rig_err *err);
int transport_send_break(struct console_transport *t, struct rig_err *err);
int transport_poll_fd(const struct console_transport *t);
/* Where notices go (the console session); without one they are dropped. */
void transport_set_notice(struct console_transport *t, transport_notice_fn fn, void *ctx);
/* For backends: tell the user, printf-style. */
void transport_notify(struct console_transport *t, enum transport_notice what, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Close and free; NULL is fine. */
void transport_close(struct console_transport *t);

#endif
