/* Removes terminal control sequences (CSI such as busybox ash's ESC[6n cursor query, OSC,
 * other ESC sequences) and C0 control bytes other than TAB from a console line, so matchers
 * and the event parser see only text. */
#ifndef RIG_CONSOLE_ANSI_H
#define RIG_CONSOLE_ANSI_H

#include <stddef.h>

/* out needs room for len + 1 bytes; it is NUL-terminated. Returns the stripped length. */
size_t ansi_strip(const char *in, size_t len, char *out);

#endif
