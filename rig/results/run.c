#include "results/db_internal.h"

#include <limits.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "results/cycle_write.h"

const char *results_run_status_name(enum results_run_status status)
{
	static const char *const names[] = {
		[RESULTS_RUN_RUNNING] = "running", [RESULTS_RUN_PASS] = "pass",
		[RESULTS_RUN_FAIL] = "fail",       [RESULTS_RUN_KNOWN] = "known",
		[RESULTS_RUN_INFRA] = "infra",     [RESULTS_RUN_ABORTED] = "aborted",
	};

	return (unsigned)status < sizeof(names) / sizeof(names[0]) ? names[status] : "?";
}

/* Start times outside 1970..9999 are refused before the cast: a LAVA date like "1e300"
 * made (time_t)t undefined (a signed overflow found by fuzzing the import). */
#define LAST_START_TIME 253402300799.0

/* The lab thinks in nights: the local date the run started on. */
static int night_of(double t, char *buf, size_t len)
{
	time_t secs;
	struct tm tm;

	if (!(t >= 0 && t <= LAST_START_TIME))
		return -1;
	secs = (time_t)t;
	if (!localtime_r(&secs, &tm) || strftime(buf, len, "%Y-%m-%d", &tm) == 0)
		return -1;
	return 0;
}

static const char *host_name(const char *given, char *buf, size_t len)
{
	if (given)
		return given;
	if (gethostname(buf, len) != 0)
		return NULL;
	buf[len - 1] = '\0';
	return buf;
}

static const char insert_run_sql[] =
	"INSERT INTO runs (board, board_file, plan, plan_file, source, lava_job_id, lava_server, night,"
	" kernel_version, kernel_build_id, deploy, kernel_meta, kernel_sha, freeze_series,"
	" knob_freeze_filesystems, knob_sync_on_suspend, started_at, status, console_log, host,"
	" rig_version)"
	" VALUES (:board, :board_file, :plan, :plan_file, :source, :lava_job_id, :lava_server, :night,"
	" :kernel_version, :kernel_build_id, :deploy, :kernel_meta, :kernel_sha, :freeze_series, :knob_ff, :knob_sos,"
	" :started_at, 'running', :console_log, :host, :rig_version)";

static void bind_run(struct results_binder *b, const struct results_run_info *info,
		     const char *night, double started_at, const char *host)
{
	results_bind_text(b, ":board", info->board);
	results_bind_text(b, ":board_file", info->board_file);
	results_bind_text(b, ":plan", info->plan);
	results_bind_text(b, ":plan_file", info->plan_file);
	results_bind_text(b, ":source", info->source ? info->source : "rig");
	results_bind_text(b, ":lava_job_id", info->lava_job_id);
	results_bind_text(b, ":lava_server", info->lava_server);
	results_bind_text(b, ":night", night);
	results_bind_text(b, ":kernel_version", info->kernel_version);
	results_bind_text(b, ":kernel_build_id", info->kernel_build_id);
	results_bind_text(b, ":deploy", info->deploy);
	results_bind_text(b, ":kernel_meta", info->kernel_meta);
	results_bind_text(b, ":kernel_sha", info->kernel_sha);
	results_bind_text(b, ":freeze_series", info->freeze_series);
	results_bind_knob(b, ":knob_ff", info->knob_freeze_filesystems);
	results_bind_knob(b, ":knob_sos", info->knob_sync_on_suspend);
	results_bind_real(b, ":started_at", started_at);
	results_bind_text(b, ":console_log", info->console_log);
	results_bind_text(b, ":host", host);
	results_bind_text(b, ":rig_version", info->rig_version);
}

int results_run_begin(struct results_db *db, const struct results_run_info *info, int64_t *run_id,
		      struct rig_err *err)
{
	struct results_binder b = { 0 };
	double started_at = info->started_at > 0 ? info->started_at : results_now();
	char night[16], host_buf[HOST_NAME_MAX + 1];
	int ret;

	if (!info->board)
		return rig_err_set(err, RIG_EXIT_USAGE, "results: a run needs a board name");
	if (night_of(started_at, night, sizeof(night)))
		return rig_err_set(err, RIG_EXIT_INFRA,
				   "results: the run's start time %g is not a date in 1970..9999",
				   started_at);
	if (results_db_prepare(db, insert_run_sql, &b.stmt, err))
		return -1;
	bind_run(&b, info, night, started_at, host_name(info->host, host_buf, sizeof(host_buf)));
	ret = results_bind_check(db, &b, "insert run", err);
	if (ret == 0)
		ret = results_db_step_done(db, b.stmt, "insert run", err);
	if (ret == 0)
		*run_id = sqlite3_last_insert_rowid(db->sql);
	sqlite3_finalize(b.stmt);
	return ret;
}

/* Without a transaction of its own: results_mark_aborted() groups it with the cycle. */
static int update_run_end(struct results_db *db, int64_t run_id, enum results_run_status status,
			  int exit_code, struct rig_err *err)
{
	struct results_binder b = { 0 };
	int ret;

	if (results_db_prepare(db, "UPDATE runs SET status = :status, exit_code = :exit_code,"
			       " ended_at = :ended_at WHERE id = :id", &b.stmt, err))
		return -1;
	results_bind_text(&b, ":status", results_run_status_name(status));
	results_bind_int64(&b, ":exit_code", exit_code);
	results_bind_real(&b, ":ended_at", results_now());
	results_bind_int64(&b, ":id", run_id);
	ret = results_bind_check(db, &b, "end run", err);
	if (ret == 0)
		ret = results_db_step_done(db, b.stmt, "end run", err);
	if (ret == 0 && sqlite3_changes(db->sql) != 1)
		ret = rig_err_set(err, RIG_EXIT_INFRA, "results db %s: no run %lld to end", db->path,
				  (long long)run_id);
	sqlite3_finalize(b.stmt);
	return ret;
}

int results_run_end(struct results_db *db, int64_t run_id, enum results_run_status status,
		    int exit_code, struct rig_err *err)
{
	return update_run_end(db, run_id, status, exit_code, err);
}

int results_mark_aborted(struct results_db *db, int64_t run_id, const struct results_cycle *in_flight,
			 int exit_code, struct rig_err *err)
{
	if (results_db_begin(db, err))
		return -1;
	if (in_flight && results_cycle_write(db, in_flight, RESULTS_CYCLE_ABORTED, NULL, err))
		goto fail;
	if (update_run_end(db, run_id, RESULTS_RUN_ABORTED, exit_code, err) ||
	    results_db_commit(db, err))
		goto fail;
	return 0;
fail:
	results_db_rollback(db);
	return -1;
}

int results_add_artefact(struct results_db *db, int64_t run_id, int64_t cycle_id, const char *kind,
			 const char *path, struct rig_err *err)
{
	struct results_artefact a = { .kind = (char *)kind, .path = (char *)path };

	if (!kind || !path)
		return rig_err_set(err, RIG_EXIT_USAGE, "results: an artefact needs a kind and a path");
	return results_artefact_write(db, run_id, cycle_id, &a, err);
}
