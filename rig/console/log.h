/* The per-run console log: every line as "[<unix seconds>.<usecs>] <line>", stamped with the
 * host time its first byte arrived and flushed per line, plus an optional raw byte log. */
#ifndef RIG_CONSOLE_LOG_H
#define RIG_CONSOLE_LOG_H

#include <stddef.h>
#include <time.h>

#include "util/err.h"

struct console_log;

/* Either path may be NULL. Files are appended to, so a run's log survives reconnects. */
int console_log_open(const char *line_path, const char *raw_path, struct console_log **out,
		     struct rig_err *err);
int console_log_raw(struct console_log *log, const void *buf, size_t len, struct rig_err *err);
int console_log_line(struct console_log *log, const struct timespec *t, const char *line,
		     struct rig_err *err);
void console_log_close(struct console_log *log);

/* Format t as "<secs>.<6 digits>" into buf (>= 32 bytes). */
void console_log_format_time(const struct timespec *t, char *buf, size_t size);

#endif
