#include "uart_resample.h"

#include <string.h>

#define FRAME_BITS 10   /* start, 8 data, stop */

/* The line level at time t (in transmitted bit times): idle high before and after the frames. */
static int level_at(const uint8_t *in, size_t n, double t)
{
	size_t bit;
	size_t frame;
	unsigned in_frame;

	if (t < 0)
		return 1;
	bit = (size_t)t;
	frame = bit / FRAME_BITS;
	if (frame >= n)
		return 1;
	in_frame = (unsigned)(bit % FRAME_BITS);
	if (in_frame == 0)
		return 0;
	if (in_frame == FRAME_BITS - 1)
		return 1;
	return (in[frame] >> (in_frame - 1)) & 1;
}

/* The first falling edge at or after time t (edges sit on transmitted bit boundaries); -1 when
 * the line stays idle. */
static double next_falling_edge(const uint8_t *in, size_t n, double t)
{
	size_t last = n * FRAME_BITS;

	for (size_t b = t <= 0 ? 0 : (size_t)t + ((double)(size_t)t < t); b < last; b++)
		if (level_at(in, n, (double)b - 0.5) == 1 && level_at(in, n, (double)b + 0.5) == 0)
			return (double)b;
	return -1;
}

size_t uart_resample(const uint8_t *in, size_t n, unsigned tx_baud, unsigned rx_baud,
		     uint8_t *out, size_t cap)
{
	double ratio, t = 0;   /* receiver bit time in transmitted bit times; time cursor */
	size_t got = 0;

	if (tx_baud == rx_baud || !tx_baud || !rx_baud) {
		size_t copy = n < cap ? n : cap;

		memcpy(out, in, copy);
		return copy;
	}
	ratio = (double)tx_baud / (double)rx_baud;
	while (got < cap) {
		double start = next_falling_edge(in, n, t);
		uint8_t byte = 0;

		if (start < 0)
			break;
		for (unsigned k = 0; k < 8; k++)
			byte |= (uint8_t)(level_at(in, n, start + (k + 1.5) * ratio) << k);
		out[got++] = byte;
		/* After the stop bit's sample the receiver waits for the next start bit; a low stop
		 * bit (framing error) means it first waits for the line to go high again. */
		t = start + 9.5 * ratio;
	}
	return got;
}
