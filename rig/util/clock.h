/* The monotonic clock, for timeouts and for measuring how long something took. */
#ifndef RIG_UTIL_CLOCK_H
#define RIG_UTIL_CLOCK_H

double monotonic_seconds(void);
long long monotonic_ms(void);
/* Sleep the whole ms even when signals interrupt it. */
void clock_sleep_ms(unsigned ms);

#endif
