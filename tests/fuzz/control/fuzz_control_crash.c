/* Negative control for tests/fuzz/smoke.sh: a harness with a heap overflow on any input that
 * starts with "BUG" (its seed). The smoke run must report it as a crash and fail; if it
 * does not, the smoke run could not see a real one either. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size >= 3 && memcmp(data, "BUG", 3) == 0) {
		char *p = malloc(size);
		volatile int i = (int)size;

		if (p) {
			p[i] = 1;   /* one past the end: ASan must report it */
			free(p);
		}
	}
	return 0;
}
