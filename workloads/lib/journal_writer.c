#include "lib/journal_writer.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#define NS_PER_MS 1000000ull

void jw_config_defaults(struct jw_config *cfg)
{
	*cfg = (struct jw_config){
		.mode = JW_MODE_MMAP,
		.interval_ms = 10,
		.sync_ms = 250,
		.ack_every = 1,
		.chunk_bytes = 1u << 20,
	};
}

static int open_outputs(struct journal_writer *w, struct wl_err *err)
{
	int rc;

	if (w->cfg.telemetry_path) {
		rc = tel_writer_open(&w->tel, w->cfg.telemetry_path, TEL_SLOW_CAPACITY,
				     TEL_RECENT_CAPACITY, err);
		if (rc != 0)
			return rc;
	}
	rc = ack_sink_open(&w->acks, w->cfg.ack_path, err);
	if (rc != 0)
		return rc;
	return w->backend.ops->open(&w->backend, w->cfg.path, err);
}

int jw_open(struct journal_writer *w, const struct jw_config *cfg, struct wl_err *err)
{
	const struct journal_backend_ops *ops =
		cfg->mode == JW_MODE_WRITE ? &journal_backend_write_ops : &journal_backend_mmap_ops;
	int rc;

	memset(w, 0, sizeof(*w));
	w->cfg = *cfg;
	w->acks.fd = -1;
	tel_writer_init_disabled(&w->tel);
	journal_backend_init(&w->backend, ops, &w->tel, cfg->chunk_bytes);
	if (cfg->path == NULL)
		return wl_err_set(err, -EINVAL, "no journal file given");
	if (cfg->id == NULL || !jr_id_valid(cfg->id))
		return wl_err_set(err, -EINVAL, "writer id must be 1-%u characters without spaces or '='",
				  JR_ID_MAX - 1);
	rc = open_outputs(w, err);
	if (rc != 0) {
		jw_close(w);
		return rc;
	}
	w->last_sync_ns = wl_now_ns(CLOCK_MONOTONIC);
	w->last_ack_ns = w->last_sync_ns;
	return 0;
}

static void note_error(struct journal_writer *w, int rc)
{
	w->errors++;
	w->last_errno = -rc;
}

static bool ack_due(const struct journal_writer *w, uint64_t now, bool force)
{
	if (w->cfg.ack_completed || w->sync_failed || w->durable_seq <= w->acked_seq)
		return false;
	if (force)
		return true;
	if (w->cfg.ack_every != 0 && w->syncs_since_ack >= w->cfg.ack_every)
		return true;
	return w->cfg.ack_ms != 0 && now - w->last_ack_ns >= w->cfg.ack_ms * NS_PER_MS;
}

static void acknowledge(struct journal_writer *w, uint64_t seq, uint64_t now)
{
	struct ack_line ack = {.seq = seq, .boottime_ns = wl_now_ns(CLOCK_BOOTTIME)};

	memcpy(ack.id, w->cfg.id, strnlen(w->cfg.id, JR_ID_MAX - 1));
	if (ack_sink_emit(&w->acks, &ack) != 0) {
		w->ack_failures++;
		return;
	}
	w->acked_seq = ack.seq;
	w->syncs_since_ack = 0;
	w->last_ack_ns = now;
}

int jw_append_next(struct journal_writer *w)
{
	struct jr_record rec = {
		.seq = w->appended_seq + 1,
		.boottime_ns = wl_now_ns(CLOCK_BOOTTIME),
		.monotonic_ns = wl_now_ns(CLOCK_MONOTONIC),
	};
	uint8_t buf[JR_SIZE];
	int rc;

	memcpy(rec.id, w->cfg.id, strnlen(w->cfg.id, JR_ID_MAX - 1));
	jr_encode(&rec, buf);
	rc = w->backend.ops->append(&w->backend, rec.seq, buf);
	if (rc != 0) {
		note_error(w, rc);
		return rc;
	}
	w->appended_seq = rec.seq;
	if (w->cfg.ack_completed) {
		uint64_t now = wl_now_ns(CLOCK_MONOTONIC);

		if (now - w->last_ack_ns >= (uint64_t)w->cfg.ack_ms * NS_PER_MS)
			acknowledge(w, w->appended_seq, now);
	}
	return 0;
}

int jw_sync(struct journal_writer *w, bool force_ack)
{
	/* Only what was appended before the sync started is covered by it. */
	uint64_t covered = w->appended_seq;
	uint64_t now;
	int rc = w->backend.ops->sync(&w->backend, covered);

	now = wl_now_ns(CLOCK_MONOTONIC);
	w->last_sync_ns = now;
	if (rc != 0) {
		/* After a failed msync/fdatasync a later success proves nothing about the failed
		 * range (the error is reported once, the pages may be gone): stop acknowledging. */
		w->sync_failed = true;
		note_error(w, rc);
		return rc;
	}
	if (covered > w->durable_seq) {
		w->durable_seq = covered;
		w->syncs_since_ack++;
	}
	if (ack_due(w, now, force_ack))
		acknowledge(w, w->durable_seq, now);
	return 0;
}

static bool run_finished(const struct journal_writer *w, const volatile sig_atomic_t *stop,
			 uint64_t started, uint64_t now)
{
	if (stop && *stop)
		return true;
	if (w->cfg.max_records != 0 && w->appended_seq >= w->cfg.max_records)
		return true;
	return w->cfg.duration_s != 0 && now - started >= w->cfg.duration_s * 1000ull * NS_PER_MS;
}

/* Sleep until *deadline; when the writer fell behind (a stall), restart the pace from now
 * rather than bursting to catch up. */
static void pace(struct journal_writer *w, uint64_t *deadline)
{
	uint64_t interval = w->cfg.interval_ms * NS_PER_MS;
	uint64_t now = wl_now_ns(CLOCK_MONOTONIC);
	struct timespec ts;

	*deadline += interval;
	if (*deadline + interval < now)
		*deadline = now;
	if (interval == 0 || *deadline <= now)
		return;
	ts.tv_sec = (time_t)(*deadline / 1000000000ull);
	ts.tv_nsec = (long)(*deadline % 1000000000ull);
	/* EINTR (a stop signal) just ends the nap early; the loop then checks the flag. */
	(void)clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

int jw_run(struct journal_writer *w, const volatile sig_atomic_t *stop)
{
	uint64_t started = wl_now_ns(CLOCK_MONOTONIC);
	uint64_t deadline = started;
	uint64_t now = started;

	while (!run_finished(w, stop, started, now)) {
		(void)jw_append_next(w); /* failures are counted and retried on the next round */
		now = wl_now_ns(CLOCK_MONOTONIC);
		if (now - w->last_sync_ns >= w->cfg.sync_ms * NS_PER_MS)
			(void)jw_sync(w, false); /* likewise: counted, and acknowledgements stop */
		pace(w, &deadline);
		now = wl_now_ns(CLOCK_MONOTONIC);
	}
	return jw_sync(w, true);
}

void jw_close(struct journal_writer *w)
{
	if (w->backend.ops)
		w->backend.ops->close(&w->backend);
	ack_sink_close(&w->acks);
	tel_writer_close(&w->tel);
}
