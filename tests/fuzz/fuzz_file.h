/* The loaders under fuzzing read a path: each input is written to one memory file, opened by
 * its /proc/self/fd path, so a run leaves nothing behind. */
#ifndef RIG_TESTS_FUZZ_FILE_H
#define RIG_TESTS_FUZZ_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

/* The memory file's path, rewritten with data; NULL if it cannot be written. */
static inline const char *fuzz_file(const char *name, const uint8_t *data, size_t size)
{
	static char path[64];
	static int fd = -1;

	if (fd < 0 && (fd = memfd_create(name, 0)) < 0)
		return NULL;
	if (ftruncate(fd, 0) < 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		return NULL;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return path;
}

#endif
