#include "util/array.h"

#include <stdlib.h>

int array_grow(void **array, size_t *cap, size_t n, size_t elem_size)
{
	size_t new_cap;
	void *p;

	if (n < *cap)
		return 0;
	new_cap = *cap ? *cap * 2 : 16;
	if (!(p = reallocarray(*array, new_cap, elem_size)))
		return -1;
	*array = p;
	*cap = new_cap;
	return 0;
}
