/* Numbers from command-line text, range-checked. */
#ifndef RIG_UTIL_NUMBER_H
#define RIG_UTIL_NUMBER_H

/* 0 and *value set when text is a whole decimal number in [min, max]; -1 otherwise. */
int parse_number(const char *text, long long min, long long max, long long *value);

/* 0 and *value set when text is a decimal real number in [min, max]; -1 otherwise (NaN too). */
int parse_real(const char *text, double min, double max, double *value);

#endif
