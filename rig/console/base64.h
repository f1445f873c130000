/* Base64 (RFC 4648, with padding) for agent requests: a command in base64 survives the
 * console's line discipline (no quotes, spaces or control bytes to mangle). */
#ifndef RIG_CONSOLE_BASE64_H
#define RIG_CONSOLE_BASE64_H

#include <stddef.h>

/* Length of the encoding of len bytes, without the NUL. */
size_t base64_encoded_len(size_t len);
/* out needs base64_encoded_len(len) + 1 bytes; it is NUL-terminated. */
void base64_encode(const void *data, size_t len, char *out);
/* Decode text (padded, no blanks) into out (room for size bytes, NUL added): the decoded
 * length, or -1 when text is not such base64 or does not fit. Reads a request back out of a
 * recorded console (lava/evidence.c). */
long base64_decode(const char *text, char *out, size_t size);

#endif
