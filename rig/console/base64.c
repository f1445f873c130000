#include "console/base64.h"

#include <string.h>

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

static int sextet(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	return c == '+' ? 62 : c == '/' ? 63 : -1;
}

long base64_decode(const char *text, char *out, size_t size)
{
	size_t len = strlen(text), n = 0;

	if (len % 4 != 0)
		return -1;
	for (size_t i = 0; i < len; i += 4) {
		int v[4], pad = 0;

		for (int k = 0; k < 4; k++) {
			char c = text[i + k];

			if (c == '=' && i + 4 == len && k >= 2) {
				pad++;
				v[k] = 0;
			} else if (pad || (v[k] = sextet(c)) < 0) {
				return -1;
			}
		}
		unsigned bits = (unsigned)v[0] << 18 | (unsigned)v[1] << 12 | (unsigned)v[2] << 6 |
				(unsigned)v[3];
		for (int k = 0; k < 3 - pad; k++) {
			if (n + 1 >= size)
				return -1;
			out[n++] = (char)(bits >> (16 - 8 * k) & 0xff);
		}
	}
	out[n] = '\0';
	return (long)n;
}
