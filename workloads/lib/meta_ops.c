#include "lib/meta_ops.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#define XATTR "user.rig"

static void name(char *buf, size_t size, char kind, uint64_t g)
{
	snprintf(buf, size, "%c%" PRIu64, kind, g);
}

/* Block b of group g: its number and block index in the first 16 bytes, then a byte pattern;
 * the O_DIRECT block is the same inverted. */
static void fill(unsigned char *block, uint64_t g, unsigned b, bool inverted)
{
	unsigned char v = (unsigned char)(g * 131u + b * 17u + 7u);

	memset(block, inverted ? (unsigned char)~v : v, META_BLOCK);
	memcpy(block, &g, sizeof(g));
	block[8] = (unsigned char)b;
	block[9] = inverted;
}

static int op_create(int dirfd, uint64_t g, struct wl_err *err)
{
	unsigned char block[META_BLOCK];
	char n[32];
	int fd, rc = 0;

	name(n, sizeof(n), 'c', g);
	fd = openat(dirfd, n, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return wl_err_set(err, -errno, "create %s: %s", n, strerror(errno));
	for (unsigned b = 0; b < 3 && rc == 0; b++) {
		fill(block, g, b, false);
		rc = wl_write_all(fd, block, sizeof(block));
	}
	if (close(fd) < 0 && rc == 0)
		rc = -errno;
	return rc ? wl_err_set(err, rc, "write %s: %s", n, strerror(-rc)) : 0;
}

static int op_rename(int dirfd, uint64_t g, struct wl_err *err)
{
	char from[32], to[32];

	name(from, sizeof(from), 'c', g);
	name(to, sizeof(to), 'r', g);
	if (renameat(dirfd, from, dirfd, to) < 0)
		return wl_err_set(err, -errno, "rename %s %s: %s", from, to, strerror(errno));
	return 0;
}

static int open_r(int dirfd, uint64_t g, int flags, struct wl_err *err)
{
	char n[32];
	int fd;

	name(n, sizeof(n), 'r', g);
	fd = openat(dirfd, n, flags | O_CLOEXEC);
	if (fd < 0)
		return wl_err_set(err, -errno, "open %s: %s", n, strerror(errno));
	return fd;
}

static int op_xattr(int dirfd, uint64_t g, struct wl_err *err)
{
	char value[24];
	int fd = open_r(dirfd, g, O_RDONLY, err), rc = 0;

	if (fd < 0)
		return fd;
	snprintf(value, sizeof(value), "%" PRIu64, g);
	if (fsetxattr(fd, XATTR, value, strlen(value), 0) < 0)
		rc = wl_err_set(err, -errno, "setxattr r%" PRIu64 ": %s", g, strerror(errno));
	close(fd);
	return rc;
}

static int op_fallocate(int dirfd, uint64_t g, bool punch, struct wl_err *err)
{
	int fd = open_r(dirfd, g, O_WRONLY, err), rc = 0;
	int r = -1;

	if (fd < 0)
		return fd;
	if (punch)
		r = fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, META_BLOCK, META_BLOCK);
	else
		r = fallocate(fd, 0, 0, 4 * META_BLOCK);
	if (r < 0)
		rc = wl_err_set(err, -errno, "fallocate%s r%" PRIu64 ": %s", punch ? " punch" : "", g,
				strerror(errno));
	close(fd);
	return rc;
}

static int op_link(int dirfd, uint64_t g, struct wl_err *err)
{
	char from[32], to[32];

	name(from, sizeof(from), 'c', g);
	name(to, sizeof(to), 'l', g);
	if (linkat(dirfd, from, dirfd, to, 0) < 0)
		return wl_err_set(err, -errno, "link %s %s: %s", from, to, strerror(errno));
	return 0;
}

/* The fourth block (allocated by the fallocate) written around the page cache. */
static int op_direct(int dirfd, uint64_t g, struct wl_err *err)
{
	void *block = NULL;
	int fd, rc = 0;
	ssize_t w;

	if (posix_memalign(&block, META_BLOCK, META_BLOCK) != 0)
		return wl_err_set(err, -ENOMEM, "out of memory");
	fill(block, g, 3, true);
	fd = open_r(dirfd, g, O_WRONLY | O_DIRECT, err);
	if (fd < 0) {
		rc = fd;
	} else {
		do
			w = pwrite(fd, block, META_BLOCK, 3 * META_BLOCK);
		while (w < 0 && errno == EINTR);
		if (w != (ssize_t)META_BLOCK)
			rc = wl_err_set(err, w < 0 ? -errno : -EIO, "write r%" PRIu64 " O_DIRECT: %s", g,
					w < 0 ? strerror(errno) : "short write");
		if (close(fd) < 0 && rc == 0)
			rc = wl_err_set(err, -errno, "close r%" PRIu64 ": %s", g, strerror(errno));
	}
	free(block);
	return rc;
}

static int op_unlink(int dirfd, uint64_t g, struct wl_err *err)
{
	char n[32];

	name(n, sizeof(n), 'l', g);
	if (unlinkat(dirfd, n, 0) < 0)
		return wl_err_set(err, -errno, "unlink %s: %s", n, strerror(errno));
	return 0;
}

int meta_apply(int dirfd, uint64_t k, struct wl_err *err)
{
	uint64_t g = (k - 1) / META_OPS_PER_GROUP;

	if (k == 0)
		return wl_err_set(err, -EINVAL, "operation 0");
	switch ((k - 1) % META_OPS_PER_GROUP) {
	case 0: return op_create(dirfd, g, err);
	case 1: return op_link(dirfd, g, err);
	case 2: return op_rename(dirfd, g, err);
	case 3: return op_xattr(dirfd, g, err);
	case 4: return op_fallocate(dirfd, g, false, err);
	case 5: return op_fallocate(dirfd, g, true, err);
	case 6: return op_direct(dirfd, g, err);
	default: return op_unlink(dirfd, g, err);
	}
}

/* ---- reading a group back ---------------------------------------------------------------- */

struct observed {
	bool c, r, l;                 /* names present */
	off_t size;                   /* of r<g>, else c<g> */
	bool blocks_ok;               /* blocks 0 and 2 hold the pattern */
	bool block1_data, block1_zero;
	bool block3_direct;           /* the O_DIRECT block */
	bool xattr;
};

static bool block_is(int fd, unsigned b, const unsigned char *want)
{
	unsigned char got[META_BLOCK];

	return pread(fd, got, sizeof(got), (off_t)b * META_BLOCK) == (ssize_t)sizeof(got) &&
	       memcmp(got, want, sizeof(got)) == 0;
}

static bool exists(int dirfd, char kind, uint64_t g)
{
	struct stat st;
	char n[32];

	name(n, sizeof(n), kind, g);
	return fstatat(dirfd, n, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

static void observe(int dirfd, uint64_t g, struct observed *o)
{
	unsigned char want[META_BLOCK], zero[META_BLOCK] = { 0 };
	char n[32], value[24], expect[24];
	struct stat st;
	ssize_t len;
	int fd;

	memset(o, 0, sizeof(*o));
	o->c = exists(dirfd, 'c', g);
	o->r = exists(dirfd, 'r', g);
	o->l = exists(dirfd, 'l', g);
	name(n, sizeof(n), o->r ? 'r' : 'c', g);
	fd = openat(dirfd, n, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		if (fd >= 0)
			close(fd);
		return;
	}
	o->size = st.st_size;
	fill(want, g, 0, false);
	o->blocks_ok = block_is(fd, 0, want);
	fill(want, g, 2, false);
	o->blocks_ok = o->blocks_ok && block_is(fd, 2, want);
	fill(want, g, 1, false);
	o->block1_data = block_is(fd, 1, want);
	o->block1_zero = block_is(fd, 1, zero);
	fill(want, g, 3, true);
	o->block3_direct = block_is(fd, 3, want);
	snprintf(expect, sizeof(expect), "%" PRIu64, g);
	len = fgetxattr(fd, XATTR, value, sizeof(value) - 1);
	o->xattr = len > 0 && (size_t)len == strlen(expect) && memcmp(value, expect, (size_t)len) == 0;
	close(fd);
}

/* Do the files show the effects of operations 1..p of their group (p >= 1), and none after? */
static bool shows(const struct observed *o, unsigned p)
{
	if ((p >= 3 ? !o->r || o->c : !o->c || o->r) || o->l != (p >= 2 && p <= 7) ||
	    !o->blocks_ok)
		return false;
	if (o->size != (off_t)((p >= 5 ? 4 : 3) * META_BLOCK))
		return false;
	if (p >= 6 ? !o->block1_zero : !o->block1_data)
		return false;
	return (p < 4 || o->xattr) && (p < 7 || o->block3_direct);
}

unsigned meta_group_state(int dirfd, uint64_t g, int *corrupt)
{
	struct observed o;

	observe(dirfd, g, &o);
	*corrupt = 0;
	for (unsigned p = META_OPS_PER_GROUP; p >= 1; p--)
		if (shows(&o, p))
			return p;
	/* its files are there but fit no prefix: damaged */
	*corrupt = o.c || o.r || o.l;
	return 0;
}

/* The highest group with a file in the directory, or -1. */
static int64_t last_group(int dirfd, struct wl_err *err, int *rc)
{
	int fd = dup(dirfd);
	int64_t last = -1;
	struct dirent *e;
	DIR *dir;

	*rc = 0;
	if (fd < 0 || !(dir = fdopendir(fd))) {
		*rc = wl_err_set(err, -errno, "read the directory: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	rewinddir(dir);
	while ((e = readdir(dir))) {
		uint64_t g;

		if (e->d_name[0] && strchr("crl", e->d_name[0]) && wl_parse_u64(e->d_name + 1, &g) &&
		    (int64_t)g > last)
			last = (int64_t)g;
	}
	closedir(dir);
	return last;
}

static void read_id(int dirfd, char *id, size_t size)
{
	int fd = openat(dirfd, META_ID_FILE, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, id, size - 1) : -1;

	if (fd >= 0)
		close(fd);
	id[n > 0 ? n : 0] = '\0';
	id[strcspn(id, "\n ")] = '\0';
}

int meta_scan(int dirfd, struct jv_result *out, struct wl_err *err)
{
	int rc;
	int64_t last = last_group(dirfd, err, &rc);
	bool prefix = true;
	uint64_t highest = 0;

	memset(out, 0, sizeof(*out));
	if (rc)
		return rc;
	for (int64_t g = 0; g <= last; g++) {
		int corrupt;
		unsigned p = meta_group_state(dirfd, (uint64_t)g, &corrupt);

		out->records += p;
		out->corrupt += corrupt != 0;
		out->slots += META_OPS_PER_GROUP;
		if (p)
			highest = (uint64_t)g * META_OPS_PER_GROUP + p;
		if (prefix)
			out->valid_prefix += p;
		if (p < META_OPS_PER_GROUP)
			prefix = false;
	}
	/* the last group is still being written: only what lies below its prefix is a hole */
	out->holes = highest - out->records;
	if (out->holes || out->corrupt)
		out->first_problem = out->valid_prefix + 1;
	read_id(dirfd, out->id, sizeof(out->id));
	return 0;
}
