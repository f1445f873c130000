/* fio's acknowledgement across a forced failed resume. fio records what it has written only in
 * its verify state, saved when it stops; before a power cut or a discarded hibernation image the
 * rig stops fio (rig-dut fio-checkpoint) and keeps each state, which leaves the board in the
 * reply. After the reboot a verify-only pass replays that state (rig-dut fio-verify), and every
 * block fio had completed must read back intact. Pure logic: no board, no I/O. */
#ifndef RIG_JUDGE_FIO_H
#define RIG_JUDGE_FIO_H

#include <stddef.h>
#include <stdint.h>

#include "results/cycle.h"

#define FIO_ACKS_MAX 16

struct fio_ack {
	char fs[64];          /* board filesystem */
	uint64_t written;     /* writes fio had completed (the state's numberio) */
	char state[2048];     /* base64 of the verify state file; "" with error */
	char error[64];       /* why there is no state ("" = none) */
};

struct fio_acks {
	struct fio_ack items[FIO_ACKS_MAX];
	size_t n;
};

/* One line of `rig-dut fio-checkpoint` ("fio=NAME written=N state=B64", "fio=NAME written=0
 * between_runs=1" when no fio run was in progress, or "fio=NAME error=WHY").
 * Returns 1 when it was one (added), 0 for any other line. A state too long for the table is
 * kept as an error rather than truncated. */
int fio_ack_feed(struct fio_acks *a, const char *line);

/* The no-loss verdict for one filesystem from its `rig-dut fio-verify` line ("fio=NAME
 * verify=pass|fail acked=N verified=N err=E [first_error=\"...\"]", or "... error=WHY") against
 * what fio acknowledged. *verified gets the blocks fio read back and checked (-1 unknown). */
enum results_verdict_result fio_verify_judge(const struct fio_ack *ack, const char *line,
					     long *verified, char *detail, size_t size);

#endif
