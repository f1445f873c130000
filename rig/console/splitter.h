/* Turns physical console lines into logical ones. On a shared console the kernel writes
 * straight to the UART, so a printk record can land in the middle of a userspace line:
 *   "@@RIG@@ 7 | hel[   12.345678] PM: suspend entry (deep)" then "lo"
 * The splitter moves the record out and joins "@@RIG@@ 7 | hello" back together.
 *
 * An agent line may also legitimately carry a record as its payload (the output of dmesg), so
 * for lines that start with the agent marker the decision waits for the next line: a
 * continuation (anything not starting with the marker or a record) proves an injection, a
 * new marker line proves a payload. splitter_idle() settles a pending case as an injection
 * when the console goes quiet (the board may have just suspended). */
#ifndef RIG_CONSOLE_SPLITTER_H
#define RIG_CONSOLE_SPLITTER_H

#include <stddef.h>
#include <time.h>

/* A held-back fragment longer than this is not joined with its continuation: it is emitted
 * alone, cut to this length and ended by SPLITTER_CUT_MARK, so memory and time stay linear
 * in the input whatever the console sends. */
#define SPLITTER_MAX_FRAGMENT 4096
#define SPLITTER_CUT_MARK " [rig: fragment cut]"

/* Non-zero return aborts and is passed back. */
typedef int (*splitter_emit_fn)(void *ctx, const char *line, const struct timespec *host_time);

struct splitter_held;

struct splitter {
	const char *marker;             /* "@@RIG@@" */
	enum { SPLIT_IDLE, SPLIT_UNDECIDED, SPLIT_FRAGMENT } state;
	char *pending;                  /* UNDECIDED: whole line; FRAGMENT: user text so far */
	size_t cut;                     /* UNDECIDED: column of the embedded record */
	struct timespec pending_time;
	struct splitter_held *held;     /* records seen while UNDECIDED */
	size_t n_held;
};

void splitter_init(struct splitter *s, const char *marker);
void splitter_free(struct splitter *s);
int splitter_push(struct splitter *s, const char *line, const struct timespec *host_time,
		  splitter_emit_fn emit, void *ctx);
int splitter_idle(struct splitter *s, splitter_emit_fn emit, void *ctx);
/* End of stream: emit whatever is pending as it is. */
int splitter_flush(struct splitter *s, splitter_emit_fn emit, void *ctx);

#endif
