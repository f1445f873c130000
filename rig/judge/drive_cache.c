#include "judge/drive_cache.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void drive_cache_log_init(struct drive_cache_log *log)
{
	memset(log, 0, sizeof(*log));
}

void drive_cache_log_free(struct drive_cache_log *log)
{
	free(log->dirty);
	free(log->listed);
	free(log->onlist);
	memset(log, 0, sizeof(*log));
}

void drive_cache_log_mark(struct drive_cache_log *log)
{
	log->marked = true;
	log->dirty_at_mark = log->n_dirty;
}

void drive_cache_log_split(struct drive_cache_log *log, double wall)
{
	log->split_at = wall;
}

/* "2026-12-04 16:59:31.758682 ..." in the host's local time, as unix seconds; 0 when absent. */
static double stamp(const char *line)
{
	struct tm tm = { .tm_isdst = -1 };
	double frac = 0;
	const char *end = strptime(line, "%Y-%m-%d %H:%M:%S", &tm);
	time_t t;

	if (!end)
		return 0;
	if (*end == '.')
		frac = strtod(end, NULL);
	t = mktime(&tm);
	return t == (time_t)-1 ? 0 : (double)t + frac;
}

/* The value of " key=" in line as a number (decimal or 0x hex); false when absent. */
static bool field(const char *line, const char *key, uint64_t *value)
{
	char pattern[32];
	const char *p;
	char *end;

	snprintf(pattern, sizeof(pattern), " %s=", key);
	if (!(p = strstr(line, pattern)))
		return false;
	p += strlen(pattern);
	if (*p < '0' || *p > '9')
		return false;
	*value = strtoull(p, &end, 0);
	return end != p;
}

static struct drive_cache_counts *counts(struct drive_cache_log *log)
{
	return log->marked ? &log->after : &log->before;
}

static int connected(struct drive_cache_log *log, const char *line, struct rig_err *err)
{
	uint64_t size, blocks;

	if (!field(line, "size", &size) || log->dirty) {
		log->bad_lines++;
		return 0;
	}
	blocks = (size + DRIVE_CACHE_BLOCK - 1) / DRIVE_CACHE_BLOCK;
	if (blocks > UINT32_MAX) {
		log->bad_lines++;
		return 0;
	}
	log->dirty = calloc(blocks ? blocks : 1, sizeof(*log->dirty));
	log->listed = malloc((blocks ? blocks : 1) * sizeof(*log->listed));
	log->onlist = calloc(blocks ? blocks : 1, 1);
	if (!log->dirty || !log->listed || !log->onlist)
		return rig_err_set(err, RIG_EXIT_INFRA, "drive cache log: out of memory");
	log->size = size;
	return 0;
}

/* A write, zero or trim of [offset, offset+count): dirty in the cache, or written through. */
static void store(struct drive_cache_log *log, uint64_t offset, uint64_t count, bool fua)
{
	if (!log->dirty || count == 0 || offset >= log->size)
		return;
	if (count > log->size - offset)
		count = log->size - offset;
	for (uint64_t b = offset / DRIVE_CACHE_BLOCK; b <= (offset + count - 1) / DRIVE_CACHE_BLOCK;
	     b++) {
		if (fua) {
			log->n_dirty -= log->dirty[b] != 0;
			log->dirty[b] = 0;
			continue;
		}
		log->n_dirty += log->dirty[b] == 0;
		if (!log->onlist[b]) {
			log->onlist[b] = 1;
			log->listed[log->n_listed++] = (uint32_t)b;
		}
		log->dirty[b] = log->seq;
	}
}

/* A flush that returned: every block dirtied before it was sent is on the medium. */
static void flushed(struct drive_cache_log *log, uint32_t sent)
{
	size_t kept = 0;

	for (size_t i = 0; i < log->n_listed; i++) {
		uint32_t b = log->listed[i];

		if (log->dirty[b] && log->dirty[b] <= sent) {
			log->dirty[b] = 0;
			log->n_dirty--;
		}
		if (log->dirty[b])
			log->listed[kept++] = b;
		else
			log->onlist[b] = 0;
	}
	log->n_listed = kept;
}

static void flush_sent(struct drive_cache_log *log, const char *line)
{
	uint64_t id;

	counts(log)->flushes++;
	if (log->marked && log->split_at > 0 && stamp(line) >= log->split_at)
		log->flushes_after_split++;
	if (!field(line, "id", &id) || log->n_pending == DRIVE_CACHE_PENDING) {
		log->bad_lines++;
		return;
	}
	log->pending[log->n_pending].id = id;
	log->pending[log->n_pending++].seq = log->seq;
}

static void flush_returned(struct drive_cache_log *log, const char *line)
{
	uint64_t id, ret;

	if (!field(line, "id", &id) || !field(line, "return", &ret))
		return;
	for (size_t i = 0; i < log->n_pending; i++) {
		if (log->pending[i].id != id)
			continue;
		if (ret == 0)
			flushed(log, log->pending[i].seq);
		log->pending[i] = log->pending[--log->n_pending];
		return;
	}
}

static void request(struct drive_cache_log *log, const char *line, bool counted)
{
	uint64_t offset, count, fua = 0;

	if (!field(line, "offset", &offset) || !field(line, "count", &count)) {
		log->bad_lines++;
		return;
	}
	(void)field(line, "fua", &fua);
	if (counted) {
		counts(log)->writes++;
		counts(log)->fua_writes += fua != 0;
	}
	store(log, offset, count, fua != 0);
}

/* "DATE TIME connection=N Write id=N offset=0x... count=0x... fua=0 ..." asks; the same with
 * "...Write id=N return=0" is its answer. */
int drive_cache_log_feed(struct drive_cache_log *log, const char *line, struct rig_err *err)
{
	const char *verb = strstr(line, " connection=");

	if (!verb || !(verb = strchr(verb + 1, ' ')))
		return 0;
	verb++;
	if (strncmp(verb, "Connect ", 8) == 0)
		return connected(log, line, err);
	if (strncmp(verb, "...Flush ", 9) == 0) {
		flush_returned(log, line);
		return 0;
	}
	if (strncmp(verb, "...", 3) == 0)
		return 0;
	log->seq++;
	if (strncmp(verb, "Flush ", 6) == 0)
		flush_sent(log, line);
	else if (strncmp(verb, "Write ", 6) == 0)
		request(log, line, true);
	else if (strncmp(verb, "Zero ", 5) == 0 || strncmp(verb, "Trim ", 5) == 0)
		request(log, line, false);
	return 0;
}

int judge_drive_cache(struct judgement *j, const char *disk_id, const struct drive_cache_log *log,
		      struct rig_err *err)
{
	if (!log->dirty)
		return 0;
	if (judge_measure(j, "drive_flushes_boot", disk_id, (double)log->before.flushes, "flushes",
			  err) < 0 ||
	    judge_measure(j, "drive_flushes_sleep", disk_id, (double)log->after.flushes, "flushes",
			  err) < 0 ||
	    judge_measure(j, "drive_fua_writes_sleep", disk_id, (double)log->after.fua_writes,
			  "writes", err) < 0 ||
	    (log->split_at > 0 &&
	     (judge_measure(j, "drive_flushes_freeze", disk_id,
			    (double)(log->after.flushes - log->flushes_after_split), "flushes",
			    err) < 0 ||
	      judge_measure(j, "drive_flushes_devices", disk_id, (double)log->flushes_after_split,
			    "flushes", err) < 0)) ||
	    judge_measure(j, "drive_dirty_at_sleep", disk_id,
			  (double)(log->marked ? log->dirty_at_mark : log->n_dirty), "blocks", err) < 0)
		return -1;
	return judge_measure(j, "drive_dirty_dropped", disk_id, (double)log->n_dirty, "blocks", err);
}
