#include "hostlog.h"

#include <stdarg.h>

#include "util/clock.h"

void host_log(FILE *log, const char *fmt, ...)
{
	va_list ap;

	if (!log)
		return;
	fprintf(log, "[%lld] ", monotonic_ms());
	va_start(ap, fmt);
	vfprintf(log, fmt, ap);
	va_end(ap);
	fputc('\n', log);
	fflush(log);
}
