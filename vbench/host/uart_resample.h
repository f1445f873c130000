/* What a UART receiving at one speed makes of 8N1 frames sent at another: the bytes a real
 * receiver would deliver (garbage, mostly), for the bench's cable when the two ends disagree on
 * the baud rate. */
#ifndef VBENCH_UART_RESAMPLE_H
#define VBENCH_UART_RESAMPLE_H

#include <stddef.h>
#include <stdint.h>

/* The n bytes of in, sent back to back at tx_baud and followed by an idle line, as received at
 * rx_baud: for each falling edge (a start bit) eight data bits and the stop bit are sampled in
 * the middle of the receiver's bit times; a frame whose stop bit reads low (a framing error) is
 * delivered as received, as the tty layer does without INPCK.  Writes at most cap bytes to out
 * and returns how many it wrote.  Equal speeds return in unchanged. */
size_t uart_resample(const uint8_t *in, size_t n, unsigned tx_baud, unsigned rx_baud,
		     uint8_t *out, size_t cap);

#endif
