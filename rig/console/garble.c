#include "console/garble.h"

static bool is_text(unsigned char c)
{
	return (c >= 0x20 && c < 0x7f) || c == '\t' || c == '\n' || c == '\r' || c == 0x1b;
}

void garble_feed(struct garble *g, const unsigned char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		bool noise = !is_text(buf[i]);

		g->noise += noise;
		g->total_noise += noise;
		g->total++;
		if (++g->bytes < GARBLE_WINDOW)
			continue;
		g->run = g->noise * 2 >= GARBLE_WINDOW ? g->run + 1 : 0;
		g->last_noise = g->noise;
		g->bytes = g->noise = 0;
	}
}

bool garble_is_garbled(const struct garble *g)
{
	return g->run >= GARBLE_WINDOWS;
}
