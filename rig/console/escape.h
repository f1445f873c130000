/* Escape keys of the interactive console (picocom-like): Ctrl-] q or Ctrl-A Ctrl-X quits,
 * Ctrl-] b or Ctrl-A Ctrl-\ sends a serial break, the escape key twice sends it once. */
#ifndef RIG_CONSOLE_ESCAPE_H
#define RIG_CONSOLE_ESCAPE_H

#include <stddef.h>

#define ESCAPE_HELP "Ctrl-] q (or Ctrl-A Ctrl-X) quits, Ctrl-] b sends a break"

enum escape_action { ESCAPE_NONE, ESCAPE_QUIT, ESCAPE_BREAK };

struct escape_state {
	unsigned char pending;    /* the escape key just typed, or 0 */
};

/* One key typed by the user: *n_out (0..2) bytes in out go to the board. */
enum escape_action escape_feed(struct escape_state *st, unsigned char key,
			       unsigned char out[2], size_t *n_out);

#endif
