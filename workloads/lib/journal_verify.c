#include "lib/journal_verify.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define SCAN_CHUNK (512u * JR_SIZE)

/* Problems seen since the last valid record: what they are depends on whether another valid
 * record follows. */
struct scan_state {
	struct jv_result *res;
	const char *expected_id;
	bool prefix_intact;
	uint64_t pending_empty;
	uint64_t pending_bad;
	uint64_t pending_first;      /* position of the first pending slot */
	uint64_t pending_first_bad;  /* position of the first pending bad slot */
};

_Static_assert(SCAN_CHUNK % JR_SIZE == 0, "chunks must hold whole slots");

static bool slot_valid(struct scan_state *st, const uint8_t slot[JR_SIZE], uint64_t position)
{
	struct jr_record rec;

	if (jr_decode(slot, &rec) != JR_OK || rec.seq != position)
		return false;
	if (st->expected_id == NULL) {
		/* The first valid record names the writer the rest must match. */
		memcpy(st->res->id, rec.id, sizeof(rec.id));
		st->expected_id = st->res->id;
	}
	return strcmp(rec.id, st->expected_id) == 0;
}

static bool slot_empty(const uint8_t slot[JR_SIZE])
{
	for (size_t i = 0; i < JR_SIZE; i++) {
		if (slot[i] != 0)
			return false;
	}
	return true;
}

static void scan_slot(struct scan_state *st, const uint8_t slot[JR_SIZE])
{
	struct jv_result *res = st->res;
	uint64_t position = ++res->slots;

	if (slot_valid(st, slot, position)) {
		if (res->first_problem == 0 && st->pending_first != 0)
			res->first_problem = st->pending_first;
		res->holes += st->pending_empty;
		res->corrupt += st->pending_bad;
		st->pending_empty = st->pending_bad = 0;
		st->pending_first = st->pending_first_bad = 0;
		res->records++;
		if (st->prefix_intact)
			res->valid_prefix = position;
		return;
	}
	st->prefix_intact = false;
	if (st->pending_first == 0)
		st->pending_first = position;
	if (slot_empty(slot)) {
		st->pending_empty++;
		return;
	}
	if (st->pending_first_bad == 0)
		st->pending_first_bad = position;
	st->pending_bad++;
}

/* What is still pending at the end of the file is the tail: bad slots there are torn writes,
 * empty ones the preallocated, never written space. */
static void scan_finish(struct scan_state *st)
{
	st->res->torn = st->pending_bad;
	if (st->res->first_problem == 0)
		st->res->first_problem = st->pending_first_bad;
}

static int read_chunk(int fd, uint8_t *buf, size_t len, size_t *got)
{
	*got = 0;
	while (*got < len) {
		ssize_t n = read(fd, buf + *got, len - *got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		*got += (size_t)n;
	}
	return 0;
}

int jv_scan_fd(int fd, const char *expected_id, struct jv_result *out, struct wl_err *err)
{
	uint8_t buf[SCAN_CHUNK];
	struct scan_state st = {.res = out, .expected_id = expected_id, .prefix_intact = true};
	size_t got;
	int rc;

	memset(out, 0, sizeof(*out));
	if (expected_id) {
		if (!jr_id_valid(expected_id))
			return wl_err_set(err, -EINVAL, "invalid writer id '%s'", expected_id);
		memcpy(out->id, expected_id, strlen(expected_id));
	}
	do {
		rc = read_chunk(fd, buf, sizeof(buf), &got);
		if (rc != 0)
			return wl_err_set(err, rc, "read: %s", strerror(-rc));
		/* A trailing partial slot reads as a slot whose missing bytes are zero. */
		if (got % JR_SIZE != 0)
			memset(buf + got, 0, JR_SIZE - got % JR_SIZE);
		for (size_t off = 0; off < got; off += JR_SIZE)
			scan_slot(&st, buf + off);
	} while (got == sizeof(buf));
	scan_finish(&st);
	return 0;
}

int jv_scan_path(const char *path, const char *expected_id, struct jv_result *out,
		 struct wl_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return wl_err_set(err, -errno, "%s: %s", path, strerror(errno));
	rc = jv_scan_fd(fd, expected_id, out, err);
	close(fd);
	return rc;
}

void jv_judge(const struct jv_result *res, bool has_acked, uint64_t acked, struct jv_verdict *out)
{
	memset(out, 0, sizeof(*out));
	out->has_acked = has_acked;
	out->acked = acked;
	out->no_loss = !has_acked || res->valid_prefix >= acked;
	out->lost = has_acked && acked > res->valid_prefix ? acked - res->valid_prefix : 0;
	/* Beyond the acknowledged point a crash may legitimately leave holes (pages written back
	 * out of order); with no acknowledgement to go by, a clean file has none. */
	out->integrity = res->corrupt == 0 && (has_acked || res->holes == 0);
}

bool jv_passed(const struct jv_verdict *verdict)
{
	return verdict->no_loss && verdict->integrity;
}

int jv_format(const struct jv_result *res, const struct jv_verdict *verdict, char *buf, size_t len)
{
	int n = snprintf(buf, len,
			 "valid_prefix=%" PRIu64 " records=%" PRIu64 " torn=%" PRIu64 " corrupt=%" PRIu64
			 " holes=%" PRIu64 " first_problem=%" PRIu64,
			 res->valid_prefix, res->records, res->torn, res->corrupt, res->holes,
			 res->first_problem);
	size_t used = n < 0 ? len : (size_t)n;
	int more;

	if (n < 0 || used >= len)
		return n;
	if (verdict->has_acked)
		more = snprintf(buf + used, len - used, " acked=%" PRIu64 " no-loss=%s lost=%" PRIu64 " integrity=%s",
				verdict->acked, verdict->no_loss ? "pass" : "fail", verdict->lost,
				verdict->integrity ? "pass" : "fail");
	else
		more = snprintf(buf + used, len - used, " integrity=%s", verdict->integrity ? "pass" : "fail");
	if (more < 0)
		return more;
	n += more;
	used = (size_t)n;
	if (res->id[0] && used < len) {
		more = snprintf(buf + used, len - used, " id=%s", res->id);
		if (more < 0)
			return more;
		n += more;
	}
	return n;
}

/* "key=<digits>" as a word of line (after a blank or at its start), ending at a blank or the end. */
static bool field_u64(const char *line, const char *key, uint64_t *out)
{
	size_t key_len = strlen(key), n;
	const char *at = line;
	char digits[24];

	while ((at = strstr(at, key)) && at != line && at[-1] != ' ')
		at++;
	if (!at)
		return false;
	at += key_len;
	n = strspn(at, "0123456789");
	if (n == 0 || n >= sizeof(digits) || (at[n] != '\0' && at[n] != ' '))
		return false;
	memcpy(digits, at, n);
	digits[n] = '\0';
	return wl_parse_u64(digits, out);
}

bool jv_parse(const char *line, struct jv_result *out)
{
	const char *id = strstr(line, " id=");
	size_t n;

	memset(out, 0, sizeof(*out));
	if (!field_u64(line, "valid_prefix=", &out->valid_prefix) ||
	    !field_u64(line, "records=", &out->records) || !field_u64(line, "torn=", &out->torn) ||
	    !field_u64(line, "corrupt=", &out->corrupt) || !field_u64(line, "holes=", &out->holes) ||
	    !field_u64(line, "first_problem=", &out->first_problem))
		return false;
	if (id) {
		id += 4;
		n = strcspn(id, " ");
		if (n == 0 || n >= sizeof(out->id))
			return false;
		memcpy(out->id, id, n);
		out->id[n] = '\0';
	}
	return true;
}
