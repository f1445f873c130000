/* The plain way: one pwrite per record at its offset (an append), fdatasync on the schedule.
 * No preallocation, so every sync also has to persist a size change. */
#include "lib/journal_backend.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static int write_open(struct journal_backend *b, const char *path, struct wl_err *err)
{
	b->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (b->fd < 0)
		return wl_err_set(err, -errno, "%s: open: %s", path, strerror(errno));
	return 0;
}

static int pwrite_all(int fd, const uint8_t *buf, size_t len, off_t offset)
{
	while (len > 0) {
		ssize_t n = pwrite(fd, buf, len, offset);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		buf += n;
		len -= (size_t)n;
		offset += n;
	}
	return 0;
}

static int write_append(struct journal_backend *b, uint64_t seq, const uint8_t rec[JR_SIZE])
{
	int rc;

	journal_backend_op_begin(b, TEL_OP_WRITE, seq);
	/* pwrite at the record's own offset: a failed attempt is simply redone in place. */
	rc = pwrite_all(b->fd, rec, JR_SIZE, (off_t)b->end);
	journal_backend_op_end(b, -rc);
	if (rc == 0)
		b->end += JR_SIZE;
	return rc;
}

static int write_sync(struct journal_backend *b, uint64_t seq)
{
	int rc = 0;

	if (b->synced == b->end)
		return 0;
	journal_backend_op_begin(b, TEL_OP_FDATASYNC, seq);
	if (fdatasync(b->fd) != 0)
		rc = -errno;
	journal_backend_op_end(b, -rc);
	if (rc == 0)
		b->synced = b->end;
	return rc;
}

static void write_close(struct journal_backend *b)
{
	if (b->fd >= 0)
		close(b->fd);
	b->fd = -1;
}

const struct journal_backend_ops journal_backend_write_ops = {
	.name = "write",
	.open = write_open,
	.append = write_append,
	.sync = write_sync,
	.close = write_close,
};
