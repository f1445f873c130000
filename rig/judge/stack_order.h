/* The order verdict on a board's stack graph (judge/stack.h): every filesystem the kernel froze
 * froze before every frozen filesystem beneath it, and every one it froze was thawed; a hang
 * with stacked filesystems mounted and a freeze or thaw unfinished fails too (the promise is
 * "freezes and thaws without a hang"). Pure logic: no board, no I/O. */
#ifndef RIG_JUDGE_STACK_ORDER_H
#define RIG_JUDGE_STACK_ORDER_H

#include <stdbool.h>
#include <stddef.h>

#include "config/board.h"
#include "judge/window.h"
#include "results/cycle.h"

/* knob_on: freeze_filesystems is 1 (else a skip). hung: the cycle hung and w comes from a trace
 * dump taken then. A board without stacked filesystems both frozen is a skip (nothing to
 * order) unless a frozen filesystem was never thawed. detail gets one line for people, starting
 * "freeze order: " and the traced order, naming each pair out of order as
 * "LOWER (holding UPPER) frozen before UPPER's device". */
enum results_verdict_result stack_order_judge(const struct frozen_window *w, const struct board *b,
					      bool knob_on, bool hung, char *detail, size_t size);

#endif
