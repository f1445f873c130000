#include "bisect/step.h"

#include "util/err.h"

#include <sys/wait.h>

enum bisect_step_code bisect_step_exit_code(int exit_status, int term_signal, int timed_out)
{
	if (timed_out || term_signal != 0)
		return BISECT_STEP_SKIP;
	switch (exit_status) {
	case RIG_EXIT_PASS:
		return BISECT_STEP_GOOD;
	case RIG_EXIT_FAIL:
		return BISECT_STEP_BAD;
	default:
		/* Usage, infra, a shell's 126/127/128+n, anything unknown: the commit was not judged. */
		return BISECT_STEP_SKIP;
	}
}

enum bisect_step_code bisect_step_exit_code_from_wait(int wait_status, int timed_out)
{
	if (WIFSIGNALED(wait_status))
		return bisect_step_exit_code(0, WTERMSIG(wait_status), timed_out);
	if (WIFEXITED(wait_status))
		return bisect_step_exit_code(WEXITSTATUS(wait_status), 0, timed_out);
	return BISECT_STEP_SKIP;  /* stopped/continued: not an end at all */
}
