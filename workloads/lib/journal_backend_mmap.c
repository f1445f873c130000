/* The journald way: records are stores into a MAP_SHARED mapping, so on a frozen filesystem the
 * writer blocks in a page fault rather than in a syscall. */
#include "lib/journal_backend.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int mmap_open(struct journal_backend *b, const char *path, struct wl_err *err)
{
	b->fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (b->fd < 0)
		return wl_err_set(err, -errno, "%s: open: %s", path, strerror(errno));
	if (b->chunk == 0 || b->chunk % JR_SIZE != 0 || b->chunk % (uint64_t)sysconf(_SC_PAGESIZE) != 0) {
		close(b->fd);
		b->fd = -1;
		return wl_err_set(err, -EINVAL, "%s: chunk size must be a multiple of the page size", path);
	}
	return 0;
}

/* fallocate the next chunk, then map the whole file. Each step is retry-safe on its own. */
static int mmap_grow(struct journal_backend *b, uint64_t seq)
{
	void *map;
	int rc = 0;

	journal_backend_op_begin(b, TEL_OP_GROW, seq);
	if (b->allocated < b->end + JR_SIZE) {
		if (fallocate(b->fd, 0, (off_t)b->allocated, (off_t)b->chunk) != 0)
			rc = -errno;
		else
			b->allocated += b->chunk;
	}
	if (rc == 0 && b->map_len < b->allocated) {
		map = b->map ? mremap(b->map, b->map_len, b->allocated, MREMAP_MAYMOVE)
			     : mmap(NULL, b->allocated, PROT_READ | PROT_WRITE, MAP_SHARED, b->fd, 0);
		if (map == MAP_FAILED) {
			rc = -errno;
		} else {
			b->map = map;
			b->map_len = b->allocated;
		}
	}
	journal_backend_op_end(b, -rc);
	return rc;
}

static int mmap_append(struct journal_backend *b, uint64_t seq, const uint8_t rec[JR_SIZE])
{
	int rc;

	if (b->map_len < b->end + JR_SIZE) {
		rc = mmap_grow(b, seq);
		if (rc != 0)
			return rc;
	}
	journal_backend_op_begin(b, TEL_OP_STORE, seq);
	memcpy(b->map + b->end, rec, JR_SIZE);
	journal_backend_op_end(b, 0);
	b->end += JR_SIZE;
	return 0;
}

static int mmap_sync(struct journal_backend *b, uint64_t seq)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t start = b->synced / page * page;   /* msync wants a page-aligned address */
	int rc = 0;

	if (b->synced == b->end)
		return 0;
	journal_backend_op_begin(b, TEL_OP_MSYNC, seq);
	if (msync(b->map + start, b->end - start, MS_SYNC) != 0)
		rc = -errno;
	journal_backend_op_end(b, -rc);
	if (rc == 0)
		b->synced = b->end;
	return rc;
}

static void mmap_close(struct journal_backend *b)
{
	if (b->map)
		munmap(b->map, b->map_len);
	if (b->fd >= 0)
		close(b->fd);
	b->map = NULL;
	b->map_len = 0;
	b->fd = -1;
}

const struct journal_backend_ops journal_backend_mmap_ops = {
	.name = "mmap",
	.open = mmap_open,
	.append = mmap_append,
	.sync = mmap_sync,
	.close = mmap_close,
};
