/* Every number the rig reads from text (command lines, board replies, YAML, LAVA results) goes
 * through here: whole decimal text only (no sign where none is allowed, no blanks, no trailing
 * garbage), and always a range, so "4294967297" is refused rather than wrapped to 1. */
#ifndef RIG_UTIL_NUMBER_H
#define RIG_UTIL_NUMBER_H

#include <stdint.h>

/* 0 and *value set when text is a whole decimal number ("-" allowed) in [min, max]; -1
 * otherwise. */
int parse_number(const char *text, long long min, long long max, long long *value);

/* The same for an unsigned int. */
int parse_uint(const char *text, unsigned min, unsigned max, unsigned *value);

/* The same for a uint64_t (no sign): nanosecond stamps, seeds. */
int parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *value);

/* 0 and *value set when text is a decimal real number ("12", "-0.5", "1e3") in [min, max]; -1
 * otherwise (NaN, infinities, hex, blanks too). */
int parse_real(const char *text, double min, double max, double *value);

#endif
