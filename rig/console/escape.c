#include "console/escape.h"

#define CTRL(c) ((unsigned char)((c) & 0x1f))
#define KEY_GS CTRL(']')
#define KEY_SOH CTRL('A')

static enum escape_action after_gs(unsigned char key, unsigned char out[2], size_t *n_out)
{
	switch (key) {
	case 'q': case 'Q': case CTRL('Q'):
		return ESCAPE_QUIT;
	case 'b': case 'B':
		return ESCAPE_BREAK;
	case KEY_GS:
		out[(*n_out)++] = KEY_GS;
		return ESCAPE_NONE;
	default:
		return ESCAPE_NONE;   /* unknown command: dropped, like telnet */
	}
}

static enum escape_action after_soh(unsigned char key, unsigned char out[2], size_t *n_out)
{
	if (key == CTRL('X'))
		return ESCAPE_QUIT;
	if (key == CTRL('\\'))
		return ESCAPE_BREAK;
	/* Ctrl-A is also "start of line" in shells: pass it on with the key. */
	out[(*n_out)++] = KEY_SOH;
	if (key != KEY_SOH)
		out[(*n_out)++] = key;
	return ESCAPE_NONE;
}

enum escape_action escape_feed(struct escape_state *st, unsigned char key,
			       unsigned char out[2], size_t *n_out)
{
	unsigned char pending = st->pending;

	*n_out = 0;
	st->pending = 0;
	if (pending == KEY_GS)
		return after_gs(key, out, n_out);
	if (pending == KEY_SOH)
		return after_soh(key, out, n_out);
	if (key == KEY_GS || key == KEY_SOH) {
		st->pending = key;
		return ESCAPE_NONE;
	}
	out[(*n_out)++] = key;
	return ESCAPE_NONE;
}
