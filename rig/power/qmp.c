#include "power/qmp.h"

#include "util/clock.h"

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "power/power.h"

/* Older events are dropped so a long run cannot grow the queue without bound. */
#define QMP_MAX_EVENTS 256
#define QMP_MAX_LINE (1024 * 1024)

struct qmp_event {
	char *name;
	double timestamp;
};

struct qmp {
	int fd;
	char *buf;
	size_t len, cap;
	unsigned long next_id;
	struct qmp_event events[QMP_MAX_EVENTS];
	size_t n_events;
};

static int connect_once(const char *path, int *fd_out)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof(addr.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(addr.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		int saved = errno;

		close(fd);
		errno = saved;
		return -1;
	}
	*fd_out = fd;
	return 0;
}

int qmp_connect(const char *path, unsigned timeout_ms, struct qmp **out, struct rig_err *err)
{
	long long deadline = monotonic_ms() + timeout_ms;
	int fd;

	*out = NULL;
	while (connect_once(path, &fd) < 0) {
		bool retry = errno == ENOENT || errno == ECONNREFUSED || errno == EAGAIN;

		if (!retry || monotonic_ms() >= deadline)
			return rig_err_set(err, RIG_EXIT_INFRA, "QMP socket %s: %s", path,
					   strerror(errno));
		clock_sleep_ms(50);
	}
	return qmp_open_fd(fd, timeout_ms, out, err);
}

static void drop_oldest_event(struct qmp *qmp)
{
	free(qmp->events[0].name);
	memmove(&qmp->events[0], &qmp->events[1], (QMP_MAX_EVENTS - 1) * sizeof(qmp->events[0]));
	qmp->n_events--;
}

static double event_timestamp(json_t *msg)
{
	json_int_t sec, usec;

	if (json_unpack(msg, "{s:{s:I, s:I}}", "timestamp", "seconds", &sec, "microseconds",
			&usec) < 0)
		return wall_clock_seconds();
	return (double)sec + (double)usec / 1e6;
}

static int queue_event(struct qmp *qmp, json_t *msg)
{
	const char *name = json_string_value(json_object_get(msg, "event"));
	char *copy;

	if (!name)
		return 0;
	copy = strdup(name);
	if (!copy)
		return -1;
	if (qmp->n_events == QMP_MAX_EVENTS)
		drop_oldest_event(qmp);
	qmp->events[qmp->n_events].name = copy;
	qmp->events[qmp->n_events].timestamp = event_timestamp(msg);
	qmp->n_events++;
	return 0;
}

static bool is_blank(const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!strchr(" \t\r\n", text[i]))
			return false;
	return true;
}

/* Parse one complete line out of the buffer, if there is one.  1 = *msg set, 0 = need more. */
static int take_line(struct qmp *qmp, json_t **msg, struct rig_err *err)
{
	char *nl;
	json_error_t jerr;
	size_t line_len;

	if (!qmp->buf)
		return 0;
	while ((nl = memchr(qmp->buf, '\n', qmp->len))) {
		line_len = (size_t)(nl - qmp->buf) + 1;
		bool blank = is_blank(qmp->buf, line_len);

		*msg = blank ? NULL : json_loadb(qmp->buf, line_len, 0, &jerr);

		memmove(qmp->buf, nl + 1, qmp->len - line_len);
		qmp->len -= line_len;
		if (*msg && json_is_object(*msg))
			return 1;
		json_decref(*msg);
		*msg = NULL;
		if (!blank)
			return rig_err_set(err, RIG_EXIT_INFRA, "QMP: malformed message: %s",
					   jerr.text);
	}
	return 0;
}

static int fill_buffer(struct qmp *qmp, struct rig_err *err)
{
	ssize_t n;

	if (qmp->cap - qmp->len < 4096) {
		size_t cap = qmp->cap ? qmp->cap * 2 : 8192;
		char *buf;

		if (cap > QMP_MAX_LINE)
			return rig_err_set(err, RIG_EXIT_INFRA, "QMP: message too long");
		buf = realloc(qmp->buf, cap);
		if (!buf)
			return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
		qmp->buf = buf;
		qmp->cap = cap;
	}
	do
		n = read(qmp->fd, qmp->buf + qmp->len, qmp->cap - qmp->len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "QMP read: %s", strerror(errno));
	if (n == 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "QMP: connection closed by QEMU");
	qmp->len += (size_t)n;
	return 0;
}

/* Next message from QEMU, events included.  1 = *msg set, 0 = deadline passed, -1 = error. */
static int read_message(struct qmp *qmp, long long deadline, json_t **msg, struct rig_err *err)
{
	for (;;) {
		int got = take_line(qmp, msg, err);
		struct pollfd pfd = { .fd = qmp->fd, .events = POLLIN };
		long long left = deadline - monotonic_ms();
		int ready;

		if (got != 0)
			return got;
		ready = poll(&pfd, 1, left > 0 ? (int)left : 0);
		if (ready < 0 && errno == EINTR)
			continue;
		if (ready < 0)
			return rig_err_set(err, RIG_EXIT_INFRA, "QMP poll: %s", strerror(errno));
		if (ready == 0)
			return 0;
		if (fill_buffer(qmp, err) < 0)
			return -1;
	}
}

/* Next message that is not an event (events are queued on the way). */
static int read_reply(struct qmp *qmp, long long deadline, json_t **msg, struct rig_err *err)
{
	for (;;) {
		int got = read_message(qmp, deadline, msg, err);

		if (got <= 0)
			return got;
		if (!json_object_get(*msg, "event"))
			return 1;
		if (queue_event(qmp, *msg) < 0) {
			json_decref(*msg);
			return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
		}
		json_decref(*msg);
	}
}

static int read_greeting(struct qmp *qmp, unsigned timeout_ms, struct rig_err *err)
{
	json_t *msg = NULL;
	int got = read_reply(qmp, monotonic_ms() + timeout_ms, &msg, err);
	bool ok;

	if (got < 0)
		return -1;
	if (got == 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "QMP: no greeting within %u ms", timeout_ms);
	ok = json_is_object(json_object_get(msg, "QMP"));
	json_decref(msg);
	if (!ok)
		return rig_err_set(err, RIG_EXIT_INFRA, "QMP: bad greeting (not a QMP server?)");
	return 0;
}

int qmp_open_fd(int fd, unsigned timeout_ms, struct qmp **out, struct rig_err *err)
{
	struct qmp *qmp = calloc(1, sizeof(*qmp));

	*out = NULL;
	if (!qmp) {
		close(fd);
		return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
	}
	qmp->fd = fd;
	if (read_greeting(qmp, timeout_ms, err) < 0 ||
	    qmp_execute(qmp, "qmp_capabilities", NULL, timeout_ms, NULL, err) < 0) {
		qmp_close(qmp);
		return -1;
	}
	*out = qmp;
	return 0;
}

void qmp_close(struct qmp *qmp)
{
	if (!qmp)
		return;
	for (size_t i = 0; i < qmp->n_events; i++)
		free(qmp->events[i].name);
	if (qmp->fd >= 0)
		close(qmp->fd);
	free(qmp->buf);
	free(qmp);
}

static int send_all(int fd, const char *data, size_t len, struct rig_err *err)
{
	while (len > 0) {
		ssize_t n = send(fd, data, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return rig_err_set(err, RIG_EXIT_INFRA, "QMP write: %s", strerror(errno));
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

static int send_command(struct qmp *qmp, const char *command, json_t *args, json_int_t id,
			struct rig_err *err)
{
	json_t *msg = json_pack("{s:s, s:I}", "execute", command, "id", id);
	char *text;
	int rc;

	if (msg && args && json_object_set(msg, "arguments", args) < 0) {
		json_decref(msg);
		msg = NULL;
	}
	text = msg ? json_dumps(msg, JSON_COMPACT) : NULL;
	json_decref(msg);
	if (!text)
		return rig_err_set(err, RIG_EXIT_INFRA, "QMP: cannot encode command %s", command);
	rc = send_all(qmp->fd, text, strlen(text), err);
	if (rc == 0)
		rc = send_all(qmp->fd, "\n", 1, err);
	free(text);
	return rc;
}

static int reply_result(json_t *reply, const char *command, json_t **ret, struct rig_err *err)
{
	json_t *error = json_object_get(reply, "error");
	json_t *value = json_object_get(reply, "return");

	if (error) {
		const char *class = json_string_value(json_object_get(error, "class"));
		const char *desc = json_string_value(json_object_get(error, "desc"));

		return rig_err_set(err, RIG_EXIT_INFRA, "QMP %s: %s: %s", command,
				   class ? class : "error", desc ? desc : "(no description)");
	}
	if (!value)
		return rig_err_set(err, RIG_EXIT_INFRA, "QMP %s: reply has neither return nor error",
				   command);
	if (ret)
		*ret = json_incref(value);
	return 0;
}

int qmp_execute(struct qmp *qmp, const char *command, json_t *args, unsigned timeout_ms,
		json_t **ret, struct rig_err *err)
{
	json_int_t id = (json_int_t)++qmp->next_id;
	long long deadline = monotonic_ms() + timeout_ms;
	json_t *reply;
	int rc;

	if (ret)
		*ret = NULL;
	if (send_command(qmp, command, args, id, err) < 0)
		return -1;
	for (;;) {
		int got = read_reply(qmp, deadline, &reply, err);

		if (got < 0)
			return -1;
		if (got == 0)
			return rig_err_set(err, RIG_EXIT_INFRA, "QMP %s: no reply within %u ms",
					   command, timeout_ms);
		/* A reply to an earlier command that timed out: not ours. */
		if (json_integer_value(json_object_get(reply, "id")) == id)
			break;
		json_decref(reply);
	}
	rc = reply_result(reply, command, ret, err);
	json_decref(reply);
	return rc;
}

static bool queued_since(const struct qmp *qmp, const char *name, double since)
{
	for (size_t i = 0; i < qmp->n_events; i++)
		if (strcmp(qmp->events[i].name, name) == 0 && qmp->events[i].timestamp >= since)
			return true;
	return false;
}

int qmp_wait_event(struct qmp *qmp, const char *name, double since, unsigned timeout_ms,
		   struct rig_err *err)
{
	long long deadline = monotonic_ms() + timeout_ms;

	for (;;) {
		json_t *msg;
		int got;

		if (queued_since(qmp, name, since))
			return 1;
		got = read_reply(qmp, deadline, &msg, err);
		if (got <= 0)
			return got;
		json_decref(msg);  /* a stray reply while no command is pending */
	}
}

int qmp_poll(struct qmp *qmp, struct rig_err *err)
{
	json_t *msg;
	int got;

	while ((got = read_reply(qmp, monotonic_ms(), &msg, err)) > 0)
		json_decref(msg);
	return got < 0 ? -1 : 0;
}

size_t qmp_event_count(const struct qmp *qmp, const char *name)
{
	size_t count = 0;

	for (size_t i = 0; i < qmp->n_events; i++)
		if (!name || strcmp(qmp->events[i].name, name) == 0)
			count++;
	return count;
}
