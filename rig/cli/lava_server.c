/* `rig lava submit` and `rig lava import --server`: the rig talking to a LAVA server. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/lava_internal.h"
#include "lava/import.h"
#include "lava/http.h"
#include "lava/rest.h"
#include "util/clock.h"
#include "util/number.h"

#define DEFAULT_TIMEOUT_S 7200
#define DEFAULT_POLL_S 5
#define PROGRESS_EVERY_S 30

static int number_arg(const char *name, const char *text, long long min, long long max,
		      long long fallback, long long *value, struct rig_err *err)
{
	*value = fallback;
	if (text && parse_number(text, min, max, value))
		return rig_err_set(err, RIG_EXIT_USAGE, "--%s: '%s' is not a number from %lld to %lld",
				   name, text, min, max);
	return 0;
}

static int terminal_code(const struct lava_job_status *st)
{
	if (!strcmp(st->health, "Complete"))
		return RIG_EXIT_PASS;
	if (!strcmp(st->health, "Incomplete"))
		return RIG_EXIT_FAIL;
	return RIG_EXIT_INFRA;  /* Canceled */
}

/* Poll until the job has finished; one line per change of state, one every 30 s meanwhile. */
static int follow(const struct lava_server *s, long long id, long long timeout, long long poll,
		  struct lava_job_status *st, struct rig_err *err)
{
	char last[192] = "";
	double t0 = monotonic_seconds(), said = t0;

	for (;;) {
		char now[192];
		double t = monotonic_seconds();

		if (lava_rest_job_status(s, id, st, err))
			return -1;
		snprintf(now, sizeof(now), "%s%s%s", st->state, st->device[0] ? " on " : "", st->device);
		if (strcmp(now, last) || t - said >= PROGRESS_EVERY_S) {
			fprintf(stderr, "rig: LAVA job %lld: %s%s%s (%.0f s)\n", id, now,
				!strcmp(st->state, "Finished") ? ", " : "",
				!strcmp(st->state, "Finished") ? st->health : "", t - t0);
			snprintf(last, sizeof(last), "%s", now);
			said = t;
		}
		if (!strcmp(st->state, "Finished"))
			return 0;
		if (t - t0 >= (double)timeout)
			return rig_err_set(err, RIG_EXIT_INFRA, "LAVA job %lld still %s after %lld s "
					   "(--timeout); import it later with rig lava import --job %lld",
					   id, st->state, timeout, id);
		clock_sleep_ms((unsigned)poll * 1000u);
	}
}

/* The job's console from its log (where the evidence of the rig's test definitions is: its test
 * cases hold none). A server that gives no log leaves the job to be stored from its cases. */
static void job_console(const struct lava_server *s, long long id, struct lava_cases *cases,
			FILE *out)
{
	struct lava_cases log = { 0 };
	struct rig_err why = { 0 };
	char url[128], origin[160], *text = NULL;
	size_t len = 0;

	snprintf(url, sizeof(url), "/api/v0.2/jobs/%lld/logs/", id);
	snprintf(origin, sizeof(origin), "LAVA job %lld log", id);
	if (lava_http_get_text(s, url, &text, &len, &why) < 0 ||
	    lava_cases_from_log_text(text, len, origin, &log, &why) < 0) {
		fprintf(out, "LAVA job %lld: no log (%s): stored from its test cases\n", id, why.msg);
	} else {
		cases->console = log.console;
		cases->n_console = log.n_console;
		cases->cap_console = log.cap_console;
		log.console = NULL;
		log.n_console = log.cap_console = 0;
		fprintf(out, "LAVA job %lld: %zu console lines in its log\n", id, cases->n_console);
	}
	lava_cases_free(&log);
	free(text);
}

static int import_job(const struct lava_args *a, const struct lava_server *s, long long id,
		      size_t page_size, FILE *out, int *code, struct rig_err *err)
{
	struct lava_cases cases = {0};
	struct lava_job_status st;
	char job_id[32], origin[4096];
	long long timeout, poll;
	size_t pages = 0;
	int rc;

	if (a->follow) {
		if (number_arg("timeout", a->timeout, 1, 7 * 86400, DEFAULT_TIMEOUT_S, &timeout, err) ||
		    number_arg("poll", a->poll, 1, 3600, DEFAULT_POLL_S, &poll, err) ||
		    follow(s, id, timeout, poll, &st, err))
			return -1;
	} else if (lava_rest_job_status(s, id, &st, err)) {
		return -1;
	}
	if (strcmp(st.state, "Finished"))
		return rig_err_set(err, RIG_EXIT_USAGE, "LAVA job %lld is %s: import it when it has "
				   "finished", id, st.state);
	snprintf(job_id, sizeof(job_id), "%lld", id);
	if (lava_job_page(s, id, origin, sizeof(origin)))
		return rig_err_set(err, RIG_EXIT_USAGE, "--server: URL too long");
	rc = lava_rest_job_cases(s, id, page_size, &cases, &pages, err);
	if (!rc) {
		/* A job that died before its rig-setup reported board, plan and kernel: the ones it
		 * was rendered for name them, so the failure is stored, and on the right kernel. */
		struct lava_import_info info = {
			.board = st.board[0] ? st.board : NULL, .lava_job_id = job_id,
			.lava_server = s->url, .log_path = origin,
			.job_plan = st.plan[0] ? st.plan : NULL,
			.job_kernel = st.kernel[0] ? st.kernel : NULL,
		};

		fprintf(out, "LAVA job %lld (%s, %s): %zu test cases in %zu pages\n", id, st.health,
			st.device[0] ? st.device : "no device", cases.n, pages);
		job_console(s, id, &cases, out);
		rc = lava_cli_store(a, &cases, &info, out, code, err);
	}
	lava_cases_free(&cases);
	return rc;
}

int lava_cmd_submit(const struct lava_args *a, FILE *out, struct rig_err *err)
{
	struct lava_server s;
	struct lava_job_status st;
	char name[512], page[4096];
	char *yaml = NULL;
	long long timeout, poll, id = 0;
	int code = RIG_EXIT_PASS;

	if (number_arg("timeout", a->timeout, 1, 7 * 86400, DEFAULT_TIMEOUT_S, &timeout, err) ||
	    number_arg("poll", a->poll, 1, 3600, DEFAULT_POLL_S, &poll, err))
		return -1;
	if (lava_server_init(&s, a->server, a->token_file, err))
		goto fail;
	if (!s.token) {
		rig_err_set(err, RIG_EXIT_USAGE, "lava submit: the server needs a token: --token-file F "
			    "(or RIG_LAVA_TOKEN_FILE)");
		goto fail;
	}
	if (lava_cli_render(a, &yaml, name, sizeof(name), err))
		goto fail;
	if (lava_rest_submit(&s, yaml, &id, err))
		goto fail;
	lava_job_page(&s, id, page, sizeof(page));
	fprintf(out, "LAVA job %lld submitted (%s): %s\n", id, name, page);
	fflush(out);
	if (a->no_wait)
		goto done;
	if (follow(&s, id, timeout, poll, &st, err))
		goto fail;
	code = terminal_code(&st);
	if (a->db && import_job(a, &s, id, 0, out, &code, err))
		goto fail;
done:
	free(yaml);
	lava_server_free(&s);
	return code;
fail:
	free(yaml);
	lava_server_free(&s);
	return -1;
}

/* "2026-12-03" -> "2026-12-03T00:00:00"; an ISO time stays. UTC, as LAVA stores times. */
static int since_arg(const char *text, char *buf, size_t size, struct rig_err *err)
{
	struct tm tm = {0};
	const char *end = strptime(text, "%Y-%m-%d", &tm);

	if (end && !*end) {
		snprintf(buf, size, "%sT00:00:00", text);
		return 0;
	}
	if (end && *end == 'T' && (end = strptime(end + 1, "%H:%M", &tm)) &&
	    (!*end || (*end == ':' && (end = strptime(end + 1, "%S", &tm)) && !*end)) &&
	    strlen(text) < size) {
		snprintf(buf, size, "%s", text);
		return 0;
	}
	return rig_err_set(err, RIG_EXIT_USAGE, "--since: '%s' is not YYYY-MM-DD or "
			   "YYYY-MM-DDTHH:MM[:SS]", text);
}

/* Every job finished since the date; the exit code is the worst of them. */
static int import_since(const struct lava_args *a, const struct lava_server *s, size_t page_size,
			FILE *out, int *worst, struct rig_err *err)
{
	char since[64];
	long long *ids = NULL;
	size_t n = 0, pages = 0, failed = 0;

	if (since_arg(a->since, since, sizeof(since), err) ||
	    lava_rest_finished_jobs(s, since, a->device, page_size, &ids, &n, &pages, err))
		return -1;
	fprintf(out, "LAVA %s: %zu jobs finished since %s%s%s (%zu pages)\n", s->url, n, since,
		a->device ? " on " : "", a->device ? a->device : "", pages);
	*worst = RIG_EXIT_PASS;
	for (size_t i = 0; i < n; i++) {
		struct rig_err one = {0};
		int code = RIG_EXIT_PASS;

		/* One job that cannot be imported does not stop the others: say it, count it. */
		if (import_job(a, s, ids[i], page_size, out, &code, &one)) {
			fprintf(stderr, "rig: LAVA job %lld: %s\n", ids[i], one.msg);
			code = one.class == RIG_EXIT_USAGE ? RIG_EXIT_USAGE : RIG_EXIT_INFRA;
			failed++;
		}
		if (code > *worst)
			*worst = code;
	}
	if (failed)
		fprintf(stderr, "rig: %zu of %zu LAVA jobs not imported\n", failed, n);
	free(ids);
	return 0;
}

int lava_cmd_import_server(const struct lava_args *a, FILE *out, struct rig_err *err)
{
	struct lava_server s;
	long long id = 0, page_size;
	int code = RIG_EXIT_PASS, rc;

	if (!a->db)
		return rig_err_set(err, RIG_EXIT_USAGE, "lava import: --db is required");
	if (!a->job == !a->since)
		return rig_err_set(err, RIG_EXIT_USAGE, "lava import --server: one of --job N or "
				   "--since DATE");
	if (a->device && !a->since)
		return rig_err_set(err, RIG_EXIT_USAGE, "lava import: --device goes with --since");
	if (a->follow && !a->job)
		return rig_err_set(err, RIG_EXIT_USAGE, "lava import: --follow goes with --job");
	if (a->job && parse_number(a->job, 1, LLONG_MAX, &id))
		return rig_err_set(err, RIG_EXIT_USAGE, "--job: '%s' is not a job id", a->job);
	if (number_arg("page-size", a->page_size, 1, 1000, LAVA_REST_PAGE_SIZE, &page_size, err))
		return -1;
	if (lava_server_init(&s, a->server, a->token_file, err)) {
		lava_server_free(&s);
		return -1;
	}
	rc = a->job ? import_job(a, &s, id, (size_t)page_size, out, &code, err)
		    : import_since(a, &s, (size_t)page_size, out, &code, err);
	lava_server_free(&s);
	return rc ? -1 : code;
}
