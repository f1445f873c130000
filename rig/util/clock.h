/* Time for the rig: the monotonic clock for every timeout, deadline and duration (the one
 * stopwatch), one sleep, and the wall clock only where another program's timestamps must be
 * compared with ours (QEMU's QMP events, the console's host stamps). */
#ifndef RIG_UTIL_CLOCK_H
#define RIG_UTIL_CLOCK_H

double monotonic_seconds(void);
long long monotonic_ms(void);
/* Sleep the whole ms even when signals interrupt it. */
void clock_sleep_ms(unsigned ms);
/* Seconds since the epoch (CLOCK_REALTIME): never for measuring, it jumps with the clock. */
double wall_clock_seconds(void);

#endif
