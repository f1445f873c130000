/* Is the console carrying text?  A UART read at the wrong speed still delivers bytes -- far
 * fewer or far more than were sent, and almost none of them text -- so the rig would otherwise
 * wait out its boot timeout on a console that can never show the agent.  Bytes are judged in
 * windows of GARBLE_WINDOW; a kernel console is ASCII text, tabs, line ends and escape
 * sequences. */
#ifndef RIG_CONSOLE_GARBLE_H
#define RIG_CONSOLE_GARBLE_H

#include <stdbool.h>
#include <stddef.h>

#define GARBLE_WINDOW 256
/* This many windows in a row at least half noise: garbled. */
#define GARBLE_WINDOWS 2

struct garble {
	unsigned bytes, noise;           /* the window being filled */
	unsigned run;                    /* consecutive windows at least half noise */
	unsigned last_noise;             /* noise in the last full window */
	unsigned long long total, total_noise;
};

void garble_feed(struct garble *g, const unsigned char *buf, size_t n);
bool garble_is_garbled(const struct garble *g);

#endif
