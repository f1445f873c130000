#include "console/base64.h"

#include <stdint.h>

static const char alphabet[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t base64_encoded_len(size_t len)
{
	return (len + 2) / 3 * 4;
}

void base64_encode(const void *data, size_t len, char *out)
{
	const uint8_t *p = data;
	size_t o = 0;

	for (size_t i = 0; i < len; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16;
		size_t have = len - i < 3 ? len - i : 3;

		if (have > 1)
			v |= (uint32_t)p[i + 1] << 8;
		if (have > 2)
			v |= p[i + 2];
		out[o++] = alphabet[(v >> 18) & 63];
		out[o++] = alphabet[(v >> 12) & 63];
		out[o++] = have > 1 ? alphabet[(v >> 6) & 63] : '=';
		out[o++] = have > 2 ? alphabet[v & 63] : '=';
	}
	out[o] = '\0';
}
