#include "util/err.h"

#include <stdio.h>

int rig_err_setv(struct rig_err *err, enum rig_exit class, const char *fmt, va_list ap)
{
	if (err) {
		err->class = class;
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	}
	return -1;
}

int rig_err_set(struct rig_err *err, enum rig_exit class, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rig_err_setv(err, class, fmt, ap);
	va_end(ap);
	return -1;
}
