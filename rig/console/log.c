#include "console/log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct console_log {
	FILE *lines;
	int raw_fd;
	char *line_path, *raw_path;
};

void console_log_format_time(const struct timespec *t, char *buf, size_t size)
{
	snprintf(buf, size, "%lld.%06ld", (long long)t->tv_sec, t->tv_nsec / 1000);
}

static int open_files(struct console_log *log, const char *line_path, const char *raw_path,
		      struct rig_err *err)
{
	if (line_path && !(log->lines = fopen(line_path, "ae")))
		return rig_err_set(err, RIG_EXIT_INFRA, "console log %s: %s", line_path,
				   strerror(errno));
	if (raw_path) {
		log->raw_fd = open(raw_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		if (log->raw_fd < 0)
			return rig_err_set(err, RIG_EXIT_INFRA, "console raw log %s: %s", raw_path,
					   strerror(errno));
	}
	return 0;
}

int console_log_open(const char *line_path, const char *raw_path, struct console_log **out,
		     struct rig_err *err)
{
	struct console_log *log = calloc(1, sizeof(*log));

	if (!log)
		return rig_err_set(err, RIG_EXIT_INFRA, "console log: out of memory");
	log->raw_fd = -1;
	log->line_path = line_path ? strdup(line_path) : NULL;
	log->raw_path = raw_path ? strdup(raw_path) : NULL;
	if ((line_path && !log->line_path) || (raw_path && !log->raw_path)) {
		console_log_close(log);
		return rig_err_set(err, RIG_EXIT_INFRA, "console log: out of memory");
	}
	if (open_files(log, line_path, raw_path, err) < 0) {
		console_log_close(log);
		return -1;
	}
	*out = log;
	return 0;
}

int console_log_raw(struct console_log *log, const void *buf, size_t len, struct rig_err *err)
{
	const char *p = buf;

	if (!log || log->raw_fd < 0)
		return 0;
	while (len > 0) {
		ssize_t n = write(log->raw_fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return rig_err_set(err, RIG_EXIT_INFRA, "console raw log %s: %s",
					   log->raw_path, strerror(errno));
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int console_log_line(struct console_log *log, const struct timespec *t, const char *line,
		     struct rig_err *err)
{
	char stamp[32];

	if (!log || !log->lines)
		return 0;
	console_log_format_time(t, stamp, sizeof(stamp));
	/* Flushed per line: after a host crash or a hung board the log is complete. */
	if (fprintf(log->lines, "[%s] %s\n", stamp, line) < 0 || fflush(log->lines) != 0)
		return rig_err_set(err, RIG_EXIT_INFRA, "console log %s: %s", log->line_path,
				   strerror(errno));
	return 0;
}

void console_log_close(struct console_log *log)
{
	if (!log)
		return;
	if (log->lines)
		fclose(log->lines);
	if (log->raw_fd >= 0)
		close(log->raw_fd);
	free(log->line_path);
	free(log->raw_path);
	free(log);
}
