/* After a forced failed resume: no-loss (the journals against the acknowledgements seen before
 * the failure; fio's blocks against its checkpoint), fsck, clean-resume. */
#include "judge/judge.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "judge/journald.h"
#include "util/kv.h"

/* The scan of writer id's journal: by the id its records carry, else the file the id names
 * ("<fs>-m<gen>": fs/mmap, "-w<gen>": fs/write, "-j<gen>": journald's entries, fs/journald,
 * "-x<gen>": the metadata writer's directory, fs/meta)
 * whatever its records say. */
static const struct ev_journal *journal_of(const struct ev_journals *js, const char *id,
					   bool *same_writer)
{
	char fs[64], file[80];
	const char *dash = strrchr(id, '-');

	*same_writer = true;
	for (size_t i = 0; js && i < js->n; i++)
		if (js->files[i].scanned && strcmp(js->files[i].scan.id, id) == 0)
			return &js->files[i];
	*same_writer = false;
	ev_writer_fs(id, fs, sizeof(fs));
	snprintf(file, sizeof(file), "%s/%s", fs,
		 !dash ? "mmap" : dash[1] == 'w' ? "write" : dash[1] == 'j' ? "journald" :
		 dash[1] == 'x' ? "meta" : "mmap");
	for (size_t i = 0; js && i < js->n; i++)
		if (strcmp(js->files[i].file, file) == 0)
			return &js->files[i];
	return NULL;
}

static int journal_no_loss(const struct judge_context *c, struct judgement *j, const struct ack *a,
			   const struct ev_journals *js, struct rig_err *err)
{
	bool same_writer;
	const struct ev_journal *jf = journal_of(js, a->id, &same_writer);
	struct jv_result scan = { 0 };
	struct jv_verdict v;
	char fs[64], line[EV_LINE_MAX], detail[EV_LINE_MAX + 160];
	enum results_verdict_result r;

	ev_writer_fs(a->id, fs, sizeof(fs));
	if (jf && !jf->scanned && kv_long(jf->line, "gone", 0) == 1) {
		/* Its filesystem is mounted and the file is not there: its creation never reached the
		 * disk, and every record acknowledged on it with it. */
		snprintf(detail, sizeof(detail), "writer=%s acked=%llu: the journal file is gone after "
			 "the failure (%s): every acknowledged record lost", a->id,
			 (unsigned long long)a->seq, jf->file);
		if (judge_measure(j, "lost_records", fs, (double)a->seq, "records", err) < 0)
			return -1;
		return judge_add(c, j, "no-loss", fs, RESULTS_VERDICT_FAIL, detail,
				 (const char *const[]){ jf->line }, 1, err);
	}
	if (!jf || !jf->scanned) {
		snprintf(detail, sizeof(detail), "writer=%s acked=%llu: %s", a->id,
			 (unsigned long long)a->seq, jf ? jf->line : "no journal file to verify");
		return judge_add(c, j, "no-loss", fs, RESULTS_VERDICT_ERROR, detail,
				 (const char *const[]){ detail }, 1, err);
	}
	if (same_writer)
		scan = jf->scan;   /* another writer's records (an older generation) prove nothing */
	jv_judge(&scan, true, a->seq, &v);
	jv_format(&scan, &v, line, sizeof(line));
	snprintf(detail, sizeof(detail), "writer=%s %s%s", a->id, line,
		 same_writer ? "" : " (the file holds no record of this writer)");
	r = v.no_loss ? RESULTS_VERDICT_PASS : RESULTS_VERDICT_FAIL;
	if (judge_measure(j, "lost_records", fs, (double)v.lost, "records", err) < 0)
		return -1;
	return judge_add(c, j, "no-loss", fs, r, detail, (const char *const[]){ detail }, 1, err);
}

static int fio_no_loss(const struct judge_context *c, struct judgement *j, const struct fio_ack *k,
		       const char *line, struct rig_err *err)
{
	char detail[512];
	long verified;
	enum results_verdict_result r = fio_verify_judge(k, line ? line : "", &verified, detail,
							 sizeof(detail));

	if (judge_measure(j, "fio_blocks_acked", k->fs, (double)k->written, "blocks", err) < 0 ||
	    (verified >= 0 &&
	     judge_measure(j, "fio_blocks_verified", k->fs, (double)verified, "blocks", err) < 0))
		return -1;
	return judge_add(c, j, "no-loss", k->fs, r, detail,
			 r == RESULTS_VERDICT_PASS ? NULL : (const char *const[]){ detail },
			 r == RESULTS_VERDICT_PASS ? 0 : 1, err);
}

static int judge_journald(const struct judge_context *c, struct judgement *j,
			  const struct ev_journald *jd, struct rig_err *err)
{
	const char *evidence[1 + EV_JOURNALD_SAID_MAX];
	char detail[512];
	enum results_verdict_result r = journald_judge(jd->line, detail, sizeof(detail));

	evidence[0] = jd->line;
	for (size_t i = 0; i < jd->n_said; i++)
		evidence[1 + i] = jd->said[i];
	if (judge_measure(j, "journald_renamed_files", NULL, (double)kv_long(jd->line, "renamed", 0),
			  "files", err) < 0)
		return -1;
	return judge_add(c, j, "journald", NULL, r, detail,
			 r == RESULTS_VERDICT_PASS ? NULL : evidence,
			 r == RESULTS_VERDICT_PASS ? 0 : 1 + jd->n_said, err);
}

static int judge_fsck(const struct judge_context *c, struct judgement *j, const struct ev_fsck *f,
		      struct rig_err *err)
{
	for (size_t i = 0; f && i < f->n; i++) {
		const char *line = f->filesystems[i].line;

		if (judge_add(c, j, "fsck", f->filesystems[i].fs,
			      f->filesystems[i].rc == 0 ? RESULTS_VERDICT_PASS : RESULTS_VERDICT_FAIL,
			      line, (const char *const[]){ line }, 1, err) < 0)
			return -1;
	}
	return 0;
}

int judge_after_failure(const struct judge_context *c, struct judgement *j,
			const struct judge_failure *f, struct rig_err *err)
{
	if (f->journal && f->acked->n == 0 &&
	    judge_add(c, j, "no-loss", NULL, RESULTS_VERDICT_SKIP,
		      "no acknowledgement seen on the console before the failure", NULL, 0, err) < 0)
		return -1;
	for (size_t i = 0; f->journal && i < f->acked->n; i++)
		if (journal_no_loss(c, j, &f->acked->writers[i], f->journals, err) < 0)
			return -1;
	if (f->journald && judge_journald(c, j, f->journald, err) < 0)
		return -1;
	for (size_t i = 0; f->fio && i < f->fio->n; i++)
		if (fio_no_loss(c, j, &f->fio->items[i], f->fio_verify ? f->fio_verify[i] : "", err) < 0)
			return -1;
	if (judge_fsck(c, j, f->fsck, err) < 0)
		return -1;
	return judge_clean_resume(c, j, f->events, f->n_events, err);
}

int judge_ack_gap(struct judgement *j, const struct acks *acked, const struct judge_event *events,
		  size_t n, struct rig_err *err)
{
	double entry = NAN;

	for (size_t i = n; i-- > 0;)
		if (events[i].ev.kind == KEV_SUSPEND_ENTRY && events[i].ev.has_ktime) {
			entry = events[i].ev.ktime;
			break;
		}
	if (isnan(entry))
		return 0;
	for (size_t i = 0; i < acked->n; i++)
		if (acked->writers[i].kernel_ts >= 0 && acked->writers[i].kernel_ts <= entry &&
		    judge_measure(j, "ack_gap_ms", acked->writers[i].id,
				  (entry - acked->writers[i].kernel_ts) * 1e3, "ms", err) < 0)
			return -1;
	return 0;
}
