/* The host's view of a board's CPU time: the text of the files the engine samples (a QEMU
 * board's threads' /proc/<pid>/task/<tid>/schedstat, the host's /proc/pressure/cpu) turned into
 * numbers, and one sample of them. Pure: strings in, numbers out; the engine reads the files
 * (engine/host_cpu.c) and judge/starvation.h judges a window of two samples. */
#ifndef RIG_JUDGE_HOST_CPU_H
#define RIG_JUDGE_HOST_CPU_H

#include <stdbool.h>
#include <stdint.h>

/* /proc/<pid>/task/<tid>/schedstat (Documentation/scheduler/sched-stats.rst): "<ns on a CPU>
 * <ns waiting on a run queue> <timeslices>\n". 0 and both figures set when text holds the three
 * whole numbers and its newline; -1 for anything else (empty, cut short, not numbers), figures
 * untouched. */
int host_schedstat_parse(const char *text, uint64_t *run_ns, uint64_t *wait_ns);

/* /proc/pressure/cpu (Documentation/accounting/psi.rst): the "some" line's total= (µs during
 * which at least one runnable task waited for a CPU). 0 and *some_us set; -1 when there is no
 * complete "some ... total=N" line (a truncated file, another format). A kernel without PSI has
 * no such file at all: the engine records that as unavailable without calling this. */
int host_psi_some_parse(const char *text, uint64_t *some_us);

/* One sample, taken by the engine at a cycle's start, when it declares a hang and at its end. */
struct host_cpu_sample {
	bool taken;                 /* false: not sampled (a real board, or not yet) */
	double at;                  /* monotonic seconds (util/clock.h) */
	bool on_host;               /* the board runs as a process on this host (QEMU) */
	long pid;                   /* that process, 0 when it was not running */
	bool qemu_known;            /* every thread's schedstat read and parsed */
	double qemu_run_s;          /* summed over QEMU's threads: seconds on a host CPU */
	double qemu_wait_s;         /*   and seconds runnable, waiting on a host run queue */
	bool psi_known;             /* /proc/pressure/cpu read and parsed */
	double psi_some_s;          /* its "some" total, seconds */
};

#endif
