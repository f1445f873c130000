#include "lib/wl_util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int wl_err_set(struct wl_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return code;
}

uint64_t wl_now_ns(clockid_t clock)
{
	struct timespec ts;

	if (clock_gettime(clock, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

bool wl_parse_u64(const char *text, uint64_t *out)
{
	char *end;
	unsigned long long value;

	if (text == NULL || *text < '0' || *text > '9')
		return false;
	errno = 0;
	value = strtoull(text, &end, 10);
	if (errno != 0 || *end != '\0')
		return false;
	*out = value;
	return true;
}

bool wl_parse_uint(const char *text, unsigned max, unsigned *out)
{
	uint64_t value;

	if (!wl_parse_u64(text, &value) || value > max)
		return false;
	*out = (unsigned)value;
	return true;
}

int wl_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}
