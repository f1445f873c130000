/*
 * `rig bisect-step` speaks git bisect run's language: 0 good, 1 bad, 125 skip. Anything above
 * 127 makes git bisect abort, so a run killed by a signal or a timeout must never leak out as
 * 128+n: it is infrastructure trouble, not evidence about the commit, hence skip.
 */
#ifndef RIG_BISECT_STEP_H
#define RIG_BISECT_STEP_H

enum bisect_step_code {
	BISECT_STEP_GOOD = 0,
	BISECT_STEP_BAD = 1,
	BISECT_STEP_SKIP = 125,
};

/*
 * Map how a rig run ended to a git bisect verdict.
 * exit_status: the run's exit code (rig's: 0 pass, 1 fail, 2 usage, 3 infra), used when
 * term_signal is 0; term_signal: the signal that killed the run, or 0; timed_out: the caller
 * gave up waiting (it then usually killed the run).
 * 0 -> good, 1 -> bad, everything else (usage, infra, signal, timeout, unknown codes) -> skip.
 */
enum bisect_step_code bisect_step_exit_code(int exit_status, int term_signal, int timed_out);

/* Same, from a waitpid() status word. */
enum bisect_step_code bisect_step_exit_code_from_wait(int wait_status, int timed_out);

#endif
