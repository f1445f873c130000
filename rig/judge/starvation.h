/* Host CPU starvation: whether a cycle on a board that runs on this host (QEMU) failed because
 * the host did not give the board's CPUs their time, and then the cycle is an infrastructure
 * error with that evidence, never a kernel verdict (issue 13 part 3). Pure: no I/O; the engine
 * samples (judge/host_cpu.h) and applies the decision (engine/starvation.c).
 *
 * Only failures that a slow CPU can cause are reclassified: a hang (a phase outlived its
 * timeout) and a clean-resume failure whose every kernel failure line is a soft lockup, an RCU
 * stall or a hung task (the guest's own watchdogs counting time its vCPUs did not run). A cycle
 * with any other failure (lost data, fsck errors, a WARN, an oops, a thawed owner filesystem)
 * keeps its verdict, starved or not. */
#ifndef RIG_JUDGE_STARVATION_H
#define RIG_JUDGE_STARVATION_H

#include <stdbool.h>
#include <stddef.h>

#include "judge/host_cpu.h"
#include "results/cycle.h"

/* A cycle is starved when QEMU's threads together waited on the host's run queues for at least
 * this share of the window's wall time. A vCPU thread that waits a fifth of the time loses 12 s
 * of a 60 s phase timeout and, in a 100 s phase, the 20 s after which the guest's soft-lockup
 * watchdog (2 x watchdog_thresh) and RCU (rcu_cpu_stall_timeout 21 s) speak up. A QEMU that has
 * the host's CPUs when it wants them waits little (rig/README.md, "Host CPU starvation": the
 * e2e control that measures it). */
#define STARVE_QEMU_WAIT_SHARE 0.20
/* Only when QEMU's own accounting is unknown for the window (QEMU restarted within it, a
 * thread's schedstat unreadable): the host's PSI "some" CPU pressure, the share of the time at
 * least one runnable task waited for a CPU. Host-wide, so it needs a higher bar than QEMU's
 * own figure: half the window (this 2-CPU host read 79 % "some" over 5 min while a 2-job kernel
 * build and a nice 19 compile shared it: a background job waiting is pressure too). */
#define STARVE_PSI_SOME_SHARE 0.50

struct starve_window {
	bool applicable;            /* the board runs on this host (it has a QEMU process) */
	double wall_s;              /* <= 0: no window (a sample missing) */
	bool qemu_known;
	double qemu_run_s, qemu_wait_s;
	bool qemu_partial;          /* QEMU (re)started in the window: only the new process is
				     * counted, all of it inside the window (a lower bound) */
	const char *qemu_unknown_why;   /* when !qemu_known: a static phrase */
	bool psi_known;
	double psi_some_s;
};

/* The window between two samples. QEMU's figures: the difference when both samples read the
 * same QEMU process (a thread that ended in the window takes its time out of the sum, so the
 * difference can only understate the wait; unknown if the sum went back); when another QEMU (or
 * none) ran at the start, the end's process's whole counters (it started inside the window: a
 * lower bound too). PSI's when both samples read it. */
void starve_window_of(const struct host_cpu_sample *from, const struct host_cpu_sample *to,
		      struct starve_window *w);

/* The shares of the window's wall time (NAN when unknown). */
double starve_qemu_wait_share(const struct starve_window *w);
double starve_psi_some_share(const struct starve_window *w);

/* Starved by the thresholds above: QEMU's share decides when known, else PSI's. */
bool starve_is_starved(const struct starve_window *w);

/* "QEMU's threads waited 41.2 s of 63.0 s on the host run queue (65 %); host CPU pressure 80 %",
 * the unknown figures said as such. */
void starve_describe(const struct starve_window *w, char *buf, size_t size);

/* What the judge needs of a finished cycle (the results' own rows, as the engine holds them). */
struct starve_cycle {
	const char *hang_phase;                 /* NULL: it did not hang */
	const struct results_verdict *verdicts;
	size_t n_verdicts;
	const struct results_event *events;     /* its kernel events (kind names) */
	size_t n_events;
	const char *console_tail;               /* a hang's last console lines, or NULL */
};

/* Is this verdict's failure one a starved host explains (clean-resume failed and the cycle's
 * every kernel failure event is a soft lockup, RCU stall or hung task)? False for passes,
 * skips and known issues. */
bool starve_timing_failure(const struct results_verdict *v, const struct results_event *events,
			   size_t n_events);

/* 1 when the cycle is an infrastructure error: it hung or failed, every failure is a timing
 * failure, and the window was starved; detail then says why ("host CPU starvation: hang in phase
 * resume; QEMU's threads waited ...; guest: <the soft lockup line>"). 0 when its status stands
 * (passed, a failure starvation cannot explain, a window not starved or without evidence). */
int starve_judge(const struct starve_window *w, const struct starve_cycle *c, char *detail,
		 size_t size);

/* A board command past its timeout on a starved host is given more time, up to this many times
 * its timeout: the saturated soak's `rig-dut start-workloads` after a power cut went unanswered
 * for its 60 s while QEMU waited 40 % of the time on the host's run queues (2026-12-05). */
#define STARVE_PATIENCE_FACTOR 4

/* Past its timeout, does a board command get more time? While the window since the command
 * began is starved and it has run less than STARVE_PATIENCE_FACTOR x its timeout. */
bool starve_more_time(const struct starve_window *w, long long elapsed_ms, long long timeout_ms);

/* An infrastructure error that ended a cycle (error: its message); timed_out: the last board
 * command got no reply, w the host's view of that command (sent to its last sample). 1 when it
 * timed out and w was starved, detail then saying so with the figures ("host CPU starvation,
 * not a kernel verdict: board command ... no reply in 240 s ...; QEMU's threads waited ...");
 * 0 otherwise: an error starvation does not explain (a refused command, a console gone) or a
 * host that was not starving the board. */
int starve_judge_infra(const struct starve_window *w, const char *error, bool timed_out,
		       char *detail, size_t size);

#endif
