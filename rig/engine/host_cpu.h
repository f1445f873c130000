/* Sampling the host's accounting of the board's process (judge/host_cpu.h): the engine's one
 * reader of /proc for it. The judge decides what the figures mean (judge/starvation.h). */
#ifndef RIG_ENGINE_HOST_CPU_H
#define RIG_ENGINE_HOST_CPU_H

#include "judge/host_cpu.h"
#include "power/power.h"

/* A sample now under proc_root ("/proc"; a test gives a directory laid out like it): for a board
 * on this host (on_host), process pid's threads' schedstat summed (pid 0: QEMU not running) and
 * the host's pressure/cpu; for real hardware only the time. A file that is missing or does not
 * parse leaves its figures unknown: sampling never fails. */
void host_cpu_sample(const char *proc_root, bool on_host, long pid, struct host_cpu_sample *out);

/* A sample of the board power switches, under /proc (power NULL: none, nothing taken): the one
 * way the engine's starvation window and a board command's patience sample. */
void host_cpu_sample_board(struct power *power, struct host_cpu_sample *out);

#endif
