/* Growing arrays: the one helper every module that collects rows, events or verdicts uses. */
#ifndef RIG_UTIL_ARRAY_H
#define RIG_UTIL_ARRAY_H

#include <stddef.h>

/* Make room for one more element of elem_size bytes in *array, which holds n of a capacity
 * *cap: the capacity doubles (from 16). 0, or -1 when out of memory (the array is unchanged). */
int array_grow(void **array, size_t *cap, size_t n, size_t elem_size);

#endif
