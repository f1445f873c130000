#include "console/ansi.h"

#include <stdbool.h>

#define ESC 0x1b
#define BEL 0x07

/* Index just past the CSI sequence whose '[' is at i (ECMA-48: parameters 0x30-0x3f,
 * intermediates 0x20-0x2f, one final byte 0x40-0x7e). */
static size_t skip_csi(const unsigned char *s, size_t len, size_t i)
{
	for (i++; i < len; i++)
		if (s[i] >= 0x40 && s[i] <= 0x7e)
			return i + 1;
	return len;
}

/* Index just past a string sequence (OSC, DCS, ...) ended by BEL or ESC \. */
static size_t skip_string(const unsigned char *s, size_t len, size_t i)
{
	for (i++; i < len; i++) {
		if (s[i] == BEL)
			return i + 1;
		if (s[i] == ESC && i + 1 < len && s[i + 1] == '\\')
			return i + 2;
	}
	return len;
}

static bool is_string_introducer(unsigned char c)
{
	return c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_';
}

/* Index just past the escape sequence starting with ESC at i. */
static size_t skip_escape(const unsigned char *s, size_t len, size_t i)
{
	size_t j = i + 1;

	if (j >= len)
		return len;
	if (s[j] == '[')
		return skip_csi(s, len, j);
	if (is_string_introducer(s[j]))
		return skip_string(s, len, j);
	/* nF sequences such as ESC ( B: intermediates then one final byte. */
	while (j < len && s[j] >= 0x20 && s[j] <= 0x2f)
		j++;
	return j < len ? j + 1 : len;
}

size_t ansi_strip(const char *in, size_t len, char *out)
{
	const unsigned char *s = (const unsigned char *)in;
	size_t o = 0;

	for (size_t i = 0; i < len;) {
		if (s[i] == ESC) {
			i = skip_escape(s, len, i);
			continue;
		}
		if ((s[i] < 0x20 && s[i] != '\t') || s[i] == 0x7f) {
			i++;
			continue;
		}
		out[o++] = (char)s[i++];
	}
	out[o] = '\0';
	return o;
}
