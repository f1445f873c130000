/* Which of a board's filesystems lie beneath which (its stack graph), for the order verdict:
 * a filesystem whose data lives in files of another (a loop image; an overlay's lower, upper
 * and work directories) lies above it, also through filesystems in between. Block layers
 * (dm-crypt, LVM, md) add no edge of their own: a filesystem on them lies beneath no other
 * filesystem unless the layers sit on a file. Pure logic: no board, no I/O. */
#ifndef RIG_JUDGE_STACK_H
#define RIG_JUDGE_STACK_H

#include <stdbool.h>
#include <stddef.h>

#include "config/board.h"

#define STACK_MAX_FS 32

struct stack_graph {
	size_t n;                                 /* filesystems judged: the board's first n */
	bool beneath[STACK_MAX_FS][STACK_MAX_FS]; /* [u][l]: u's data lives in l (at any depth) */
};

/* The graph of the board's filesystems (the first STACK_MAX_FS). */
void stack_graph_of(const struct board *b, struct stack_graph *g);

/* Whether the kernel freezes a filesystem of this type at all: overlayfs has no freeze_fs, so
 * filesystems_freeze() passes it by; writes through it stop at the frozen filesystem of its
 * upper directory instead (stack_frozen_through()). */
bool stack_type_freezable(const char *type);

/* For a filesystem the kernel does not freeze: the filesystem its writes land on (an overlay's
 * upperdir's), as an index into the board's filesystems; -1 when none is on the board. */
int stack_frozen_through(const struct board *b, size_t fs);

#endif
