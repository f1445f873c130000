#include "lib/telemetry.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

_Static_assert(sizeof(struct tel_entry) == 40, "telemetry entry layout changed");
_Static_assert(sizeof(struct tel_header) % 8 == 0, "entries must stay 8-byte aligned");

static size_t tel_file_size(uint32_t slow_capacity, uint32_t recent_capacity)
{
	return sizeof(struct tel_header) +
	       ((size_t)slow_capacity + recent_capacity) * sizeof(struct tel_entry);
}

void tel_writer_init_disabled(struct tel_writer *tel)
{
	memset(tel, 0, sizeof(*tel));
	tel->fd = -1;
}

int tel_writer_open(struct tel_writer *tel, const char *path, uint32_t slow_capacity,
		    uint32_t recent_capacity, struct wl_err *err)
{
	size_t size = tel_file_size(slow_capacity, recent_capacity);
	int rc;

	tel_writer_init_disabled(tel);
	if (slow_capacity == 0 || recent_capacity == 0)
		return wl_err_set(err, -EINVAL, "telemetry %s: ring capacities must be positive", path);
	tel->fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (tel->fd < 0)
		return wl_err_set(err, -errno, "telemetry %s: open: %s", path, strerror(errno));
	if (ftruncate(tel->fd, (off_t)size) != 0) {
		rc = wl_err_set(err, -errno, "telemetry %s: ftruncate: %s", path, strerror(errno));
		goto fail;
	}
	tel->map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, tel->fd, 0);
	if (tel->map == MAP_FAILED) {
		tel->map = NULL;
		rc = wl_err_set(err, -errno, "telemetry %s: mmap: %s", path, strerror(errno));
		goto fail;
	}
	tel->map_size = size;
	tel->hdr = tel->map;
	tel->slow = (struct tel_entry *)(tel->hdr + 1);
	tel->recent = tel->slow + slow_capacity;
	*tel->hdr = (struct tel_header){
		.magic = TEL_MAGIC,
		.version = TEL_VERSION,
		.entry_size = sizeof(struct tel_entry),
		.slow_capacity = slow_capacity,
		.recent_capacity = recent_capacity,
		.slow_threshold_ns = TEL_SLOW_THRESHOLD_NS,
	};
	return 0;
fail:
	close(tel->fd);
	tel->fd = -1;
	return rc;
}

void tel_op_begin(struct tel_writer *tel, enum tel_op_kind kind, uint64_t seq, uint64_t start_ns)
{
	if (tel->fd < 0)
		return;
	tel->hdr->inflight_seq = seq;
	tel->hdr->inflight_kind = (uint32_t)kind;
	tel->hdr->inflight_start_ns = start_ns;
}

void tel_op_end(struct tel_writer *tel, uint64_t end_ns, int err)
{
	struct tel_header *hdr = tel->hdr;
	struct tel_entry entry;

	if (tel->fd < 0 || hdr->inflight_start_ns == 0)
		return;
	entry = (struct tel_entry){
		.op_id = hdr->total_ops + 1,
		.start_ns = hdr->inflight_start_ns,
		.end_ns = end_ns,
		.seq = hdr->inflight_seq,
		.kind = hdr->inflight_kind,
		.err = err,
	};
	uint64_t duration = end_ns > entry.start_ns ? end_ns - entry.start_ns : 0;

	tel->recent[hdr->total_ops % hdr->recent_capacity] = entry;
	if (duration > hdr->slow_threshold_ns || err != 0) {
		tel->slow[hdr->slow_total % hdr->slow_capacity] = entry;
		hdr->slow_total++;
	}
	if (err != 0)
		hdr->error_total++;
	if (duration > hdr->longest_ns)
		hdr->longest_ns = duration;
	hdr->total_ops++;
	hdr->inflight_start_ns = 0;
}

void tel_writer_close(struct tel_writer *tel)
{
	if (tel->map)
		munmap(tel->map, tel->map_size);
	if (tel->fd >= 0)
		close(tel->fd);
	tel_writer_init_disabled(tel);
}

static int read_whole_file(const char *path, uint8_t **data, size_t *size, struct wl_err *err)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int rc = 0;
	size_t done = 0;

	*data = NULL;
	if (fd < 0)
		return wl_err_set(err, -errno, "telemetry %s: open: %s", path, strerror(errno));
	if (fstat(fd, &st) != 0) {
		rc = wl_err_set(err, -errno, "telemetry %s: stat: %s", path, strerror(errno));
		goto out;
	}
	*size = (size_t)st.st_size;
	*data = malloc(*size ? *size : 1);
	if (*data == NULL) {
		rc = wl_err_set(err, -ENOMEM, "telemetry %s: out of memory", path);
		goto out;
	}
	while (done < *size) {
		ssize_t n = read(fd, *data + done, *size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = wl_err_set(err, n < 0 ? -errno : -EIO, "telemetry %s: short read", path);
			goto out;
		}
		done += (size_t)n;
	}
out:
	close(fd);
	if (rc != 0) {
		free(*data);
		*data = NULL;
	}
	return rc;
}

static int check_header(const struct tel_header *hdr, size_t file_size)
{
	if (hdr->magic != TEL_MAGIC || hdr->version != TEL_VERSION ||
	    hdr->entry_size != sizeof(struct tel_entry) || hdr->slow_capacity == 0 ||
	    hdr->recent_capacity == 0)
		return -EINVAL;
	if (file_size < tel_file_size(hdr->slow_capacity, hdr->recent_capacity))
		return -EINVAL;
	return 0;
}

static int compare_op_id(const void *a, const void *b)
{
	const struct tel_entry *x = a, *y = b;

	return (x->op_id > y->op_id) - (x->op_id < y->op_id);
}

/* Both rings, minus unused slots and the copies of an operation kept in both. */
static size_t collect_entries(const struct tel_header *hdr, const struct tel_entry *rings,
			      struct tel_entry *out)
{
	size_t total = (size_t)hdr->slow_capacity + hdr->recent_capacity;
	size_t n = 0;

	for (size_t i = 0; i < total; i++) {
		if (rings[i].op_id != 0)
			out[n++] = rings[i];
	}
	qsort(out, n, sizeof(*out), compare_op_id);
	size_t unique = 0;

	for (size_t i = 0; i < n; i++) {
		if (unique == 0 || out[unique - 1].op_id != out[i].op_id)
			out[unique++] = out[i];
	}
	return unique;
}

static int parse_snapshot(const uint8_t *data, size_t size, const char *path,
			  struct tel_snapshot *snap, struct wl_err *err)
{
	size_t total;
	struct tel_entry *rings;

	if (size < sizeof(struct tel_header))
		return wl_err_set(err, -EINVAL, "telemetry %s: too short for a header", path);
	memcpy(&snap->hdr, data, sizeof(snap->hdr));
	if (check_header(&snap->hdr, size) != 0)
		return wl_err_set(err, -EINVAL, "telemetry %s: not a telemetry file (bad header)", path);
	total = (size_t)snap->hdr.slow_capacity + snap->hdr.recent_capacity;
	rings = malloc(total * sizeof(*rings));
	snap->entries = malloc(total * sizeof(*snap->entries));
	if (rings == NULL || snap->entries == NULL) {
		free(rings);
		tel_snapshot_free(snap);
		return wl_err_set(err, -ENOMEM, "telemetry %s: out of memory", path);
	}
	/* Copy out first: the file image need not be aligned for struct access. */
	memcpy(rings, data + sizeof(struct tel_header), total * sizeof(*rings));
	snap->count = collect_entries(&snap->hdr, rings, snap->entries);
	free(rings);
	return 0;
}

int tel_snapshot_load(const char *path, struct tel_snapshot *snap, struct wl_err *err)
{
	uint8_t *data;
	size_t size = 0;
	int rc;

	memset(snap, 0, sizeof(*snap));
	rc = read_whole_file(path, &data, &size, err);
	if (rc != 0)
		return rc;
	rc = parse_snapshot(data, size, path, snap, err);
	free(data);
	return rc;
}

void tel_snapshot_free(struct tel_snapshot *snap)
{
	free(snap->entries);
	snap->entries = NULL;
	snap->count = 0;
}

const char *tel_op_kind_name(uint32_t kind)
{
	switch (kind) {
	case TEL_OP_STORE:
		return "store";
	case TEL_OP_GROW:
		return "grow";
	case TEL_OP_MSYNC:
		return "msync";
	case TEL_OP_WRITE:
		return "write";
	case TEL_OP_FDATASYNC:
		return "fdatasync";
	}
	return "unknown";
}
