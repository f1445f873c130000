/*
 * rig dashboard: render a site from a synthetic history (3 boards, 5 nights: pass, fail, known,
 * infra, aborted and not-run nights, a hang; bisects found, running without a step, aborted, and
 * on a board with no run) and check the HTML: matrix cells and their classes, regression lines,
 * board, run and bisect pages, every relative link resolving to a file, and hostile database text
 * arriving escaped.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <ftw.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/dashboard.h"
#include "dashboards/bisects.h"
#include "dashboards/html.h"
#include "dashboards/render.h"
#include "dashboards/synth.h"
#include "results/bisects.h"
#include "results/db.h"

#define NIGHT0 1793534400.0   /* 2026-11-01 12:00 UTC */
#define DAY 86400.0
#define N_BOARDS 3
#define N_NIGHTS 5
#define PLANTED_SCRIPT "<script>document.title='pwned';alert(1)</script>"
#define PLANTED_DETAIL "lost 3 records <script>alert(1)</script>"
#define PLANTED_KERNEL "6.16.0<img src=x onerror=alert(1)>"
#define KNOWN_ID "lockdep-freezer"

/* What each board did each night; NULL = not run. */
struct night_plan {
	const char *status;    /* pass, fail, known, infra, aborted */
	const char *kernel;
	bool hang;             /* second cycle hangs with the planted console tail */
};

static const struct night_plan history[N_BOARDS][N_NIGHTS] = {
	{ /* alpha: fails since night 3, when the kernel changed */
		{ "pass", "6.16.0", false }, { "pass", "6.16.0", false }, { "pass", "6.16.0", false },
		{ "fail", "6.17.0-rc1", false }, { "fail", "6.17.0-rc2", false } },
	{ /* beta: a known-issue night, then a new failure with a hang on the last night */
		{ "pass", "6.16.0", false }, { "pass", "6.16.0", false }, { "known", "6.16.0", false },
		{ "pass", "6.16.1", false }, { "fail", "6.17.0-rc2", true } },
	{ /* gamma: infra, aborted (after a hang) and not-run nights, a hostile kernel string */
		{ "pass", "6.16.0", false }, { "infra", "6.16.0", false },
		{ "aborted", "6.16.0", true }, { NULL, NULL, false },
		{ "known", PLANTED_KERNEL, false } },
};
static const char *const board_names[N_BOARDS] = { "alpha", "beta", "gamma" };

/*
 * Bisects. FOUND runs on gamma in the hour before its night-2 run (so that night's cell keeps
 * its colour) and its steps have runs of their own; RUNNING (gamma, newest, no step yet) has a
 * hostile plan; ABORTED (alpha) a hostile verdict note and posterior commit; ORPHAN is on a board
 * that has no run, so no board page.
 */
#define PLANTED_PLAN "<script>document.title='plan'</script>"
#define PLANTED_NOTE "<script>alert('note')</script>"
#define PLANTED_COMMIT "<img src=x onerror=alert(2)>"
#define ORPHAN_BOARD "lab<b>9</b>"
enum { B_FOUND, B_RUNNING, B_ABORTED, B_ORPHAN, N_BISECTS };
enum { GOOD_SHA, SHA_1, CULPRIT_SHA, BAD_SHA, N_SHAS };
static const char *const shas[N_SHAS] = {
	"1111111111aa1111111111111111111111111111", "2222222222bb2222222222222222222222222222",
	"3333333333cc3333333333333333333333333333", "4444444444dd4444444444444444444444444444",
};
#define FOUND_CONFIDENCE 0.97

struct step_plan {
	int commit;                 /* index into shas */
	const char *verdict;
	int cycles, fails;
	const char *run_status;     /* the step's run, or NULL when it has none (build failed) */
	int top[3];
	double p[3];
};

static const struct step_plan found_steps[] = {
	{ BAD_SHA, "PFHP", 4, 2, "fail", { CULPRIT_SHA, SHA_1, BAD_SHA }, { 0.5, 0.3, 0.2 } },
	{ SHA_1, "II no usable cycle: will retry", 2, 0, "infra", { CULPRIT_SHA, SHA_1, BAD_SHA },
	  { 0.5, 0.3, 0.2 } },
	{ SHA_1, "build failed: skipped", 0, 0, NULL, { CULPRIT_SHA, SHA_1, BAD_SHA },
	  { 0.5, 0.3, 0.2 } },
	{ CULPRIT_SHA, "FFFF", 4, 4, "fail", { CULPRIT_SHA, SHA_1, GOOD_SHA }, { 0.97, 0.02, 0.01 } },
};
#define N_FOUND_STEPS (sizeof(found_steps) / sizeof(found_steps[0]))
#define N_BISECT_RUNS 3         /* found_steps with a run_status */
#define N_RUNS (14 + N_BISECT_RUNS)
#define FOUND_START (NIGHT0 + 2 * DAY - 3000)
#define STEP_SECONDS 600.0

struct fixture {
	char dir[64];
	char db[128];
	char site[128];
	int64_t bisect[N_BISECTS];
	int64_t step_run[N_FOUND_STEPS];   /* -1: the step has no run */
};

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	long len;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = calloc(1, (size_t)len + 1)) && fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static char *read_page(const struct fixture *fx, const char *rel)
{
	char path[512];
	char *text;

	snprintf(path, sizeof(path), "%s/%s", fx->site, rel);
	text = slurp(path);
	if (!text)
		fail_msg("cannot read %s", path);
	return text;
}

static enum results_run_status run_status(const char *s)
{
	return strcmp(s, "pass") == 0    ? RESULTS_RUN_PASS
	       : strcmp(s, "fail") == 0  ? RESULTS_RUN_FAIL
	       : strcmp(s, "known") == 0 ? RESULTS_RUN_KNOWN
	       : strcmp(s, "infra") == 0 ? RESULTS_RUN_INFRA
				      : RESULTS_RUN_ABORTED;
}

static void add_cycle_items(struct results_cycle *c, const struct night_plan *p, int idx)
{
	struct rig_err err = { 0 };
	bool fail = strcmp(p->status, "fail") == 0, known = strcmp(p->status, "known") == 0;

	assert_int_equal(results_cycle_add_verdict(c, "suspend", NULL, RESULTS_VERDICT_PASS, NULL,
						   "ok", &err), 0);
	assert_int_equal(results_cycle_add_verdict(c, "stall", "sata-xfs",
						   fail ? RESULTS_VERDICT_FAIL : RESULTS_VERDICT_PASS,
						   NULL, fail ? PLANTED_DETAIL : "ok", &err), 0);
	assert_int_equal(results_cycle_add_verdict(c, "clean-resume", NULL,
						   known ? RESULTS_VERDICT_FAIL : RESULTS_VERDICT_PASS,
						   known ? KNOWN_ID : NULL, "dmesg", &err), 0);
	assert_int_equal(results_cycle_add_measurement(c, "suspend_ms", NULL, 100 + idx, "ms", &err), 0);
	assert_int_equal(results_cycle_add_measurement(c, "resume_ms", NULL, 200 + idx, "ms", &err), 0);
	assert_int_equal(results_cycle_add_measurement(c, "freeze_filesystems_ms", NULL, 20, "ms",
						       &err), 0);
	assert_int_equal(results_cycle_add_measurement(c, "stall_ms", "sata-xfs", fail ? 900 : 40,
						       "ms", &err), 0);
	assert_int_equal(results_cycle_add_measurement(c, "stall_ms", "nvme-ext4", 30, "ms", &err), 0);
	/* the time budget: asleep known, resume unknown */
	assert_int_equal(results_cycle_add_phase(c, "asleep", 5.25 + idx, &err), 0);
	assert_int_equal(results_cycle_add_phase(c, "resume", NAN, &err), 0);
	/* the first cycle's wake accounting; the second has none (a sleep that was not timed) */
	if (idx == 0) {
		const struct results_wake w = {
			.wake = "rtc", .requested_ms = 5000, .entry_ms = -1, .asleep_ms = 4800,
			.awake_ms = 900, .irq = 8, .irq_name = "rtc0", .sources = "<rtc0>:1:1",
		};

		assert_int_equal(results_cycle_set_wake(c, &w, &err), 0);
	}
}

static void add_cycle(struct results_db *db, int64_t run, const struct night_plan *p, int idx,
		      double at)
{
	struct rig_err err = { 0 };
	struct results_cycle_info info = { .idx = idx, .step_kind = "suspend", .started_at = at,
					   .kernel_version = p->kernel, .console_from = -1 };
	struct results_cycle *c = results_cycle_begin(run, &info, &err);
	bool hang = p->hang && idx == 1;
	enum results_cycle_status st = strcmp(p->status, "fail") == 0 ? RESULTS_CYCLE_FAIL
				       : strcmp(p->status, "infra") == 0 ? RESULTS_CYCLE_INFRA
				       : RESULTS_CYCLE_PASS;

	assert_non_null(c);
	add_cycle_items(c, p, idx);
	if (hang)
		assert_int_equal(results_cycle_set_hang(c, "resume", PLANTED_SCRIPT, &err), 0);
	results_cycle_end(c, hang ? RESULTS_CYCLE_HANG : st, at + 10, -1);
	assert_int_equal(results_cycle_commit(db, c, NULL, &err), 0);
	results_cycle_free(c);
}

/* A run of board with two cycles starting at `at`; log (may be NULL) is its console log. */
static int64_t add_run_at(struct results_db *db, int board, const struct night_plan *p, double at,
			  const char *sha, const char *log)
{
	struct rig_err err = { 0 };
	int64_t run;
	struct results_run_info info = { .board = board_names[board], .plan = "nightly",
					 .kernel_version = p->kernel, .kernel_sha = sha,
					 .started_at = at, .knob_freeze_filesystems = RESULTS_KNOB_ON,
					 .console_log = log, .host = "lab1" };

	assert_int_equal(results_run_begin(db, &info, &run, &err), 0);
	for (int idx = 0; idx < 2; idx++)
		add_cycle(db, run, p, idx, at + idx * 20);
	if (log)
		assert_int_equal(results_add_artefact(db, run, 0, "console-log", log, &err), 0);
	assert_int_equal(results_run_end(db, run, run_status(p->status), 0, &err), 0);
	return run;
}

static void add_run(struct fixture *fx, struct results_db *db, int board, int night)
{
	char log[256];
	FILE *f;

	/* The console log exists, so the run page's link to it must resolve. */
	snprintf(log, sizeof(log), "%s/logs/%s-%d.log", fx->dir, board_names[board], night);
	f = fopen(log, "w");
	assert_non_null(f);
	fputs("console\n", f);
	fclose(f);
	add_run_at(db, board, &history[board][night], NIGHT0 + night * DAY + board * 60, NULL, log);
}

static void add_step(struct results_db *db, int64_t bisect, int idx, const struct step_plan *sp)
{
	struct rig_err err = { 0 };
	const char *top[3] = { shas[sp->top[0]], shas[sp->top[1]], shas[sp->top[2]] };
	struct results_bisect_step step = { .idx = idx, .commit = shas[sp->commit],
					    .cycles = sp->cycles, .fails = sp->fails,
					    .verdict = sp->verdict, .n_top = 3, .top_commits = top,
					    .top_probs = sp->p };

	assert_int_equal(results_bisect_add_step(db, bisect, &step, &err), 0);
}

static int64_t begin_bisect(struct results_db *db, const char *board, const char *plan)
{
	struct rig_err err = { 0 };
	struct results_bisect_info info = { .board = board, .plan = plan, .good = shas[GOOD_SHA],
					    .bad = shas[BAD_SHA], .confidence = 0.95 };
	int64_t id;

	assert_int_equal(results_bisect_begin(db, &info, &id, &err), 0);
	return id;
}

/* The found bisect, each step's run (on gamma, with the candidate's sha) before the step. */
static void add_found_bisect(struct fixture *fx, struct results_db *db)
{
	struct rig_err err = { 0 };

	fx->bisect[B_FOUND] = begin_bisect(db, board_names[2], "nightly");
	for (size_t i = 0; i < N_FOUND_STEPS; i++) {
		const struct step_plan *sp = &found_steps[i];
		struct night_plan p = { sp->run_status, "6.17.0-bisect", false };

		fx->step_run[i] = -1;
		if (sp->run_status)
			fx->step_run[i] = add_run_at(db, 2, &p, FOUND_START + i * STEP_SECONDS + 100,
						     shas[sp->commit], NULL);
		add_step(db, fx->bisect[B_FOUND], (int)i, sp);
	}
	assert_int_equal(results_bisect_end(db, fx->bisect[B_FOUND], "found", shas[CULPRIT_SHA],
					    FOUND_CONFIDENCE, &err), 0);
}

static void add_other_bisects(struct fixture *fx, struct results_db *db)
{
	struct rig_err err = { 0 };
	const char *top[1] = { PLANTED_COMMIT };
	double p[1] = { 0.4 };
	struct results_bisect_step hostile = { .idx = 0, .commit = shas[SHA_1], .cycles = 2,
					       .fails = 1, .verdict = "PF " PLANTED_NOTE,
					       .n_top = 1, .top_commits = top, .top_probs = p };

	fx->bisect[B_RUNNING] = begin_bisect(db, board_names[2], PLANTED_PLAN);
	fx->bisect[B_ABORTED] = begin_bisect(db, board_names[0], "nightly");
	assert_int_equal(results_bisect_add_step(db, fx->bisect[B_ABORTED], &hostile, &err), 0);
	assert_int_equal(results_bisect_end(db, fx->bisect[B_ABORTED], "aborted", NULL, -1.0, &err),
			 0);
	fx->bisect[B_ORPHAN] = begin_bisect(db, ORPHAN_BOARD, NULL);
	assert_int_equal(results_bisect_end(db, fx->bisect[B_ORPHAN], "error", NULL, -1.0, &err), 0);
}

__attribute__((format(printf, 2, 3))) static void exec_sql(sqlite3 *sql, const char *fmt, ...)
{
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (sqlite3_exec(sql, text, NULL, NULL, NULL) != SQLITE_OK)
		fail_msg("%s: %s", text, sqlite3_errmsg(sql));
}

/* The writer stamps bisects and steps with the clock: move them into the fixture's nights. */
static void place_bisects(const struct fixture *fx)
{
	const double start[N_BISECTS] = { FOUND_START, NIGHT0 + 4 * DAY + 3600,
					  NIGHT0 + 4 * DAY - 7200, NIGHT0 + 3 * DAY };
	sqlite3 *sql;

	assert_int_equal(sqlite3_open(fx->db, &sql), SQLITE_OK);
	for (int b = 0; b < N_BISECTS; b++) {
		exec_sql(sql, "UPDATE bisects SET started_at = %.3f, ended_at = CASE WHEN ended_at"
			 " IS NOT NULL THEN %.3f END WHERE id = %lld", start[b],
			 start[b] + (N_FOUND_STEPS + 1) * STEP_SECONDS, (long long)fx->bisect[b]);
		exec_sql(sql, "UPDATE bisect_steps SET at = %.3f + (idx + 1) * %.3f WHERE bisect_id"
			 " = %lld", start[b], STEP_SECONDS, (long long)fx->bisect[b]);
	}
	sqlite3_close(sql);
}

static void fill_history(struct fixture *fx)
{
	struct rig_err err = { 0 };
	struct results_db *db;
	char logs[128];

	snprintf(logs, sizeof(logs), "%s/logs", fx->dir);
	assert_int_equal(mkdir(logs, 0755), 0);
	assert_int_equal(results_open(fx->db, RESULTS_OPEN_CREATE, &db, &err), 0);
	/* Interleave boards night by night, as a lab fills the database. */
	for (int night = 0; night < N_NIGHTS; night++)
		for (int board = 0; board < N_BOARDS; board++)
			if (history[board][night].status)
				add_run(fx, db, board, night);
	add_found_bisect(fx, db);
	add_other_bisects(fx, db);
	results_close(db);
	place_bisects(fx);
}

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	struct dash_options opt;
	struct dash_stats stats;
	struct rig_err err = { 0 };

	if (!fx)
		return -1;
	snprintf(fx->dir, sizeof(fx->dir), "/tmp/test_dashboard.XXXXXX");
	if (!mkdtemp(fx->dir))
		return -1;
	snprintf(fx->db, sizeof(fx->db), "%s/results.db", fx->dir);
	snprintf(fx->site, sizeof(fx->site), "%s/site/dash", fx->dir);
	*state = fx;
	fill_history(fx);
	opt = (struct dash_options){ .db_path = fx->db, .out_dir = fx->site, .nights = 0 };
	if (dash_render(&opt, &stats, &err)) {
		fprintf(stderr, "render: %s\n", err.msg);
		return -1;
	}
	return stats.runs == N_RUNS && stats.boards == N_BOARDS ? 0 : -1;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	int ret = nftw(fx->dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);

	free(fx);
	return ret;
}

static void night_name(int night, char *buf, size_t size)
{
	time_t t = (time_t)(NIGHT0 + night * DAY);
	struct tm tm;

	assert_non_null(localtime_r(&t, &tm));
	assert_true(strftime(buf, size, "%Y-%m-%d", &tm) > 0);
}

/* The <td> of the matrix for board and night, as a copy. */
static char *matrix_cell(const char *html, const char *board, int night)
{
	char key[128], date[16];
	const char *hit, *start, *end;

	night_name(night, date, sizeof(date));
	snprintf(key, sizeof(key), "data-board=\"%s\" data-night=\"%s\"", board, date);
	hit = strstr(html, key);
	if (!hit)
		fail_msg("no cell %s", key);
	assert_null(strstr(hit + 1, key));
	for (start = hit; start > html && strncmp(start, "<td", 3) != 0; start--)
		;
	end = strstr(hit, "</td>");
	assert_non_null(end);
	return strndup(start, (size_t)(end - start));
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

static void assert_cell(const char *html, int board, int night, const char *expect_class,
			const char *expect_text)
{
	char cls[64];
	char *cell = matrix_cell(html, board_names[board], night);

	snprintf(cls, sizeof(cls), "<td class=\"cell %s\"", expect_class);
	if (strncmp(cell, cls, strlen(cls)) != 0)
		fail_msg("%s night %d: want %s, got %.80s", board_names[board], night, cls, cell);
	if (expect_text && !strstr(cell, expect_text))
		fail_msg("%s night %d: no '%s' in %s", board_names[board], night, expect_text, cell);
	free(cell);
}

static void test_matrix_cells(void **state)
{
	char *html = read_page(*state, "index.html"), *cell;

	assert_int_equal(count(html, "<td class=\"cell "), N_BOARDS * N_NIGHTS);
	for (int b = 0; b < N_BOARDS; b++)
		for (int n = 0; n < N_NIGHTS; n++) {
			const char *st = history[b][n].status;

			assert_cell(html, b, n, st ? st : "none", st ? "runs/" : "not run");
		}
	/* Failing verdict names and known-issue ids are listed in the cell. */
	assert_cell(html, 0, 3, "fail", "stall");
	assert_cell(html, 1, 2, "known", KNOWN_ID);
	assert_cell(html, 2, 1, "infra", "infra");
	/* A cell counts its runs' fail, hang and infra cycles: an aborted run's hang shows too
	 * (issue 13: a run shown only as ABORTED hid a hang and two infra cycles). */
	assert_cell(html, 0, 3, "fail", "<div class=\"cc\">2 fail cycles</div>");
	assert_cell(html, 1, 4, "fail", "<div class=\"cc\">1 fail, 1 hang cycles</div>");
	assert_cell(html, 2, 1, "infra", "<div class=\"cc\">2 infra cycles</div>");
	/* night 2 of gamma also holds the found bisect's step runs (2 fail, 1 infra) */
	assert_cell(html, 2, 2, "aborted", "<div class=\"cc\">4 fail, 1 hang, 2 infra cycles</div>");
	cell = matrix_cell(html, "alpha", 0);   /* a passing night counts nothing */
	assert_null(strstr(cell, "class=\"cc\""));
	free(cell);
	free(html);
}

/* The row of a board in the matrix. */
static char *matrix_row(const char *html, const char *board)
{
	char key[128];
	const char *start, *end;

	snprintf(key, sizeof(key), "<tr><th><a href=\"boards/%s.html\">", board);
	start = strstr(html, key);
	assert_non_null(start);
	end = strstr(start, "</tr>");
	assert_non_null(end);
	return strndup(start, (size_t)(end - start));
}

static void test_regression_lines(void **state)
{
	char *html = read_page(*state, "index.html");
	char *alpha = matrix_row(html, "alpha"), *beta = matrix_row(html, "beta");
	char *gamma = matrix_row(html, "gamma");
	char since[128], fresh[128], n3[16], n2[16];

	night_name(3, n3, sizeof(n3));
	night_name(2, n2, sizeof(n2));
	snprintf(since, sizeof(since), "failing since %s (kernel %s", n3, history[0][3].kernel);
	snprintf(fresh, sizeof(fresh), "new failure (last pass: %s, kernel %s", n3,
		 history[1][3].kernel);
	assert_non_null(strstr(alpha, since));
	assert_non_null(strstr(alpha, n2));            /* alpha's last pass */
	assert_non_null(strstr(beta, fresh));
	assert_non_null(strstr(gamma, "passing"));     /* known issues are not regressions */
	/* Regressions are listed first: beta (new) before alpha (since) before gamma. */
	assert_true(strstr(html, beta) < strstr(html, alpha));
	assert_true(strstr(html, alpha) < strstr(html, gamma));
	free(alpha), free(beta), free(gamma), free(html);
}

static void test_board_page(void **state)
{
	char *html = read_page(*state, "boards/alpha.html");
	const char *regressions = strstr(html, "<table id=\"regressions\">");
	char n2[16], n3[16];

	night_name(2, n2, sizeof(n2));
	night_name(3, n3, sizeof(n3));
	assert_non_null(regressions);
	/* stall: first bad on night 3, last good on night 2. */
	assert_non_null(strstr(regressions, "<tr><td>stall</td>"));
	assert_true(strstr(regressions, n3) < strstr(regressions, "</table>"));
	assert_true(strstr(regressions, n2) < strstr(regressions, "</table>"));
	assert_non_null(strstr(html, "<table id=\"passrate\">"));
	assert_non_null(strstr(html, "6.17.0-rc1"));
	/* no cycle of alpha traced a per-device timeline: its page says how to get one */
	assert_non_null(strstr(html, "no cycle with a per-device timeline"));
	assert_non_null(strstr(html, "freeze_filesystems=on"));
	assert_int_equal(count(strstr(html, "<table id=\"history\">"), "<tr><td><a class="), 5);
	free(html);
}

/* The run id of a board's run on a night, from the matrix link. */
static char *run_page_of(const struct fixture *fx, const char *board, int night)
{
	char *html = read_page(fx, "index.html");
	char *cell = matrix_cell(html, board, night);
	const char *href = strstr(cell, "href=\"runs/");
	char rel[64];

	assert_non_null(href);
	assert_int_equal(sscanf(href, "href=\"%63[^\"]\"", rel), 1);
	free(cell), free(html);
	return read_page(fx, rel);
}

static void test_run_page(void **state)
{
	char *html = run_page_of(*state, "beta", 4);

	assert_int_equal(count(html, "<section class=\"cycle\""), 2);
	assert_non_null(strstr(html, "hang in phase <b>resume</b>"));
	assert_non_null(strstr(html, "<svg class=\"phases\""));
	assert_int_equal(count(html, "<svg class=\"trend\""), 2);
	assert_non_null(strstr(html, "sata-xfs"));
	assert_non_null(strstr(html, "console-log"));
	/* each cycle's time budget, an unknown phase shown as unknown, never as 0 */
	assert_int_equal(count(html, "<table class=\"budget\">"), 2);
	assert_non_null(strstr(html, "<th>asleep</th><th>resume</th></tr><tr><td>seconds</td>"
				     "<td>5.250</td><td class=\"none\">unknown</td>"));
	/* the wake accounting of the cycle that has one, as text, escaped */
	assert_int_equal(count(html, "<p class=\"wake\">"), 1);
	assert_non_null(strstr(html, "<p class=\"wake\">wake: rtc alarm 5000 ms: asleep 4800 ms, "
				     "awake 900 ms; irq 8 (rtc0); sources &lt;rtc0&gt;:1:1</p>"));
	free(html);
}

static void test_hostile_text_escaped(void **state)
{
	char *run = run_page_of(*state, "beta", 4);
	char *index = read_page(*state, "index.html");
	char *gamma = read_page(*state, "boards/gamma.html");

	assert_null(strstr(run, "<script"));
	assert_non_null(strstr(run, "&lt;script&gt;document.title=&#39;pwned&#39;;alert(1)"
				    "&lt;/script&gt;"));
	assert_non_null(strstr(run, "lost 3 records &lt;script&gt;alert(1)&lt;/script&gt;"));
	assert_null(strstr(index, "<img"));
	assert_null(strstr(gamma, "<img"));
	assert_non_null(strstr(gamma, "6.16.0&lt;img src=x onerror=alert(1)&gt;"));
	free(run), free(index), free(gamma);
}

/* Every relative href of page (in directory dir) names an existing file. */
static size_t check_links(const char *dir, const char *page)
{
	char path[1024];
	char *html;
	size_t n = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, page);
	html = slurp(path);
	assert_non_null(html);
	for (const char *p = strstr(html, "href=\""); p; p = strstr(p + 1, "href=\"")) {
		char target[512], full[1024];
		struct stat st;

		assert_int_equal(sscanf(p, "href=\"%511[^\"]\"", target), 1);
		assert_null(strstr(target, "://"));   /* no external resource, no file:// fallback */
		snprintf(full, sizeof(full), "%s/%s", dir, target);
		if (stat(full, &st) != 0)
			fail_msg("%s: link %s does not resolve", path, target);
		n++;
	}
	free(html);
	return n;
}

static void test_links_resolve(void **state)
{
	const struct fixture *fx = *state;
	const char *subdirs[] = { "boards", "runs", "bisects" };
	size_t links = check_links(fx->site, "index.html");

	for (size_t s = 0; s < 3; s++) {
		char dir[256];
		DIR *d;
		struct dirent *e;

		snprintf(dir, sizeof(dir), "%s/%s", fx->site, subdirs[s]);
		d = opendir(dir);
		assert_non_null(d);
		while ((e = readdir(d)))
			if (strstr(e->d_name, ".html"))
				links += check_links(dir, e->d_name);
		closedir(d);
	}
	/* Runs linked from the matrix, boards and back; every page has a nav link. */
	assert_true(links > N_RUNS * 3);
}

static char *bisect_page(const struct fixture *fx, int which)
{
	char rel[64];

	snprintf(rel, sizeof(rel), "bisects/%lld.html", (long long)fx->bisect[which]);
	return read_page(fx, rel);
}

/* The text between the first `from` and the next `to` after it, as a copy. */
static char *between(const char *html, const char *from, const char *to)
{
	const char *start = strstr(html, from), *end;

	if (!start)
		fail_msg("no '%s'", from);
	end = strstr(start, to);
	assert_non_null(end);
	return strndup(start, (size_t)(end - start));
}

static void short_sha(int sha, char *buf, size_t size)
{
	snprintf(buf, size, "%.12s", shas[sha]);
}

static void test_board_bisects(void **state)
{
	const struct fixture *fx = *state;
	char *gamma = read_page(fx, "boards/gamma.html"), *beta = read_page(fx, "boards/beta.html");
	char *alpha = read_page(fx, "boards/alpha.html");
	char *table = between(gamma, "<table id=\"bisects\">", "</table>");
	char found_link[64], running_link[64], answer[128], good_bad[256];
	char culprit[16], good[16], bad[16];

	short_sha(CULPRIT_SHA, culprit, sizeof(culprit));
	short_sha(GOOD_SHA, good, sizeof(good));
	short_sha(BAD_SHA, bad, sizeof(bad));
	snprintf(found_link, sizeof(found_link), "<a class=\"found\" href=\"../bisects/%lld.html\">",
		 (long long)fx->bisect[B_FOUND]);
	snprintf(running_link, sizeof(running_link), "<a class=\"running\" href=\"../bisects/"
		 "%lld.html\">", (long long)fx->bisect[B_RUNNING]);
	snprintf(answer, sizeof(answer), "<code class=\"answer\" title=\"%s\">%s</code> (%.3f)",
		 shas[CULPRIT_SHA], culprit, FOUND_CONFIDENCE);
	snprintf(good_bad, sizeof(good_bad), ">%s</code>..<code title=\"%s\">%s</code>", good,
		 shas[BAD_SHA], bad);
	assert_int_equal(count(table, "<tr><td>"), 2);
	/* Newest first: the running bisect, then the found one. */
	assert_non_null(strstr(table, running_link));
	assert_true(strstr(table, running_link) < strstr(table, found_link));
	assert_non_null(strstr(table, "<td class=\"found\">found</td>"));
	assert_non_null(strstr(table, "<td class=\"running\">running</td>"));
	assert_non_null(strstr(table, answer));
	assert_non_null(strstr(table, good_bad));
	assert_null(strstr(table, "<script"));
	assert_non_null(strstr(table, "&lt;script&gt;document.title=&#39;plan&#39;"));
	/* Found: 4 steps and their cycles; running: none yet and no answer. */
	assert_non_null(strstr(table, "</td><td>4</td><td>10</td></tr>"));
	assert_non_null(strstr(table, "<td>&ndash;</td><td>0</td><td>0</td></tr>"));
	assert_non_null(strstr(alpha, "<td class=\"aborted\">aborted</td>"));
	assert_null(strstr(beta, "Bisects"));
	free(table), free(gamma), free(beta), free(alpha);
}

/* The <tr> of step idx on a bisect page, as a copy. */
static char *step_row(const char *html, int idx)
{
	char key[32];

	snprintf(key, sizeof(key), "<tr id=\"step-%d\">", idx);
	return between(html, key, "</tr>");
}

static void assert_outcomes(const char *row, const char *letters)
{
	const char *cells = strstr(row, "<td class=\"outcomes\">");

	assert_non_null(cells);
	assert_int_equal(count(cells, "<span class=\"oc "), strspn(letters, "PFHI"));
	for (size_t i = 0; letters[i] && strchr("PFHI", letters[i]); i++) {
		char span[64];

		snprintf(span, sizeof(span), "<span class=\"oc o%c\"", letters[i] | 0x20);
		cells = strstr(cells, span);
		if (!cells)
			fail_msg("outcome %zu of %s: no %s in %s", i, letters, span, row);
		cells++;
	}
}

/* The step's runs cell links exactly its own run, or says there is none. */
static void assert_step_run(const char *row, int64_t run)
{
	char link[64];

	if (run < 0) {
		assert_int_equal(count(row, "href=\"../runs/"), 0);
		return;
	}
	snprintf(link, sizeof(link), "href=\"../runs/%lld.html\"", (long long)run);
	assert_non_null(strstr(row, link));
	assert_int_equal(count(row, "href=\"../runs/"), 1);
}

static void test_bisect_page(void **state)
{
	const struct fixture *fx = *state;
	char *html = bisect_page(fx, B_FOUND);
	size_t answers = 1;    /* the summary's "first bad commit" */

	assert_non_null(strstr(html, "<span id=\"status\" class=\"found\">found</span>"));
	assert_non_null(strstr(html, "<a href=\"../boards/gamma.html\">gamma</a>"));
	assert_non_null(strstr(html, "<svg class=\"posterior\""));
	assert_int_equal(count(html, "<tr id=\"step-"), N_FOUND_STEPS);
	for (size_t i = 0; i < N_FOUND_STEPS; i++) {
		const struct step_plan *sp = &found_steps[i];
		char *row = step_row(html, (int)i);
		const char *note = strchr(sp->verdict, ' ');
		char cells[64];

		assert_outcomes(row, sp->verdict);
		if (strspn(sp->verdict, "PFHI") == 0)
			note = sp->verdict;
		if (note)
			assert_non_null(strstr(row, note + (note[0] == ' ')));
		snprintf(cells, sizeof(cells), "<td>%d</td><td>%d</td>", sp->cycles, sp->fails);
		assert_non_null(strstr(row, cells));
		assert_step_run(row, fx->step_run[i]);
		answers += sp->commit == CULPRIT_SHA;
		for (size_t t = 0; t < 3; t++)
			answers += sp->top[t] == CULPRIT_SHA;
		free(row);
	}
	/* The answer is highlighted wherever it appears, and nothing else is. */
	assert_int_equal(count(html, "<code class=\"answer\""), answers);
	assert_int_equal(count(html, "<code class=\"answer\" title=\""), answers);
	free(html);
}

static void test_bisect_edge_cases(void **state)
{
	const struct fixture *fx = *state;
	char *running = bisect_page(fx, B_RUNNING), *aborted = bisect_page(fx, B_ABORTED);
	char *orphan = bisect_page(fx, B_ORPHAN);
	char *row = step_row(aborted, 0);

	/* Running, no step yet: no end, no answer, no chart. */
	assert_non_null(strstr(running, "class=\"running\">running</span>"));
	assert_non_null(strstr(running, "<p id=\"no-steps\">"));
	assert_non_null(strstr(running, "<th>ended</th><td>not yet</td>"));
	assert_null(strstr(running, "<svg"));
	assert_null(strstr(running, "class=\"answer\""));
	assert_null(strstr(running, "<script"));
	assert_non_null(strstr(running, "&lt;script&gt;document.title=&#39;plan&#39;&lt;/script&gt;"));
	/* Aborted with a hostile note and posterior commit: letters kept, the rest escaped. */
	assert_outcomes(row, "PF");
	assert_non_null(strstr(row, "&lt;script&gt;alert(&#39;note&#39;)&lt;/script&gt;"));
	assert_non_null(strstr(row, "&lt;img src=x o</code> 0.400"));   /* 12 characters shown */
	assert_null(strstr(aborted, "<script"));
	assert_null(strstr(aborted, "<img"));
	assert_non_null(strstr(aborted, "class=\"aborted\">aborted</span>"));
	/* A board with no run has no page to link: its name is text, escaped. */
	assert_non_null(strstr(orphan, "bisect #"));
	assert_non_null(strstr(orphan, "on lab&lt;b&gt;9&lt;/b&gt;: <span id=\"status\" "
				       "class=\"infra\">error</span>"));
	assert_null(strstr(orphan, "<b>"));
	assert_null(strstr(orphan, "boards/"));
	free(row), free(running), free(aborted), free(orphan);
}

static void test_index_bisects(void **state)
{
	const struct fixture *fx = *state;
	char *html = read_page(fx, "index.html");
	char *list = between(html, "<ul id=\"bisects\">", "</ul>");

	/* Every bisect was active during the nights shown (all of them: --nights 0). */
	assert_int_equal(count(list, "<li>"), N_BISECTS);
	for (int b = 0; b < N_BISECTS; b++) {
		char link[64];

		snprintf(link, sizeof(link), "href=\"bisects/%lld.html\"", (long long)fx->bisect[b]);
		assert_non_null(strstr(list, link));
	}
	/* Most recently active first: the running bisect started after everything else. */
	assert_true(strstr(list, "class=\"running\"") < strstr(list, "class=\"found\""));
	assert_non_null(strstr(list, "on <a href=\"boards/gamma.html\">gamma</a>"));
	assert_non_null(strstr(list, "on lab&lt;b&gt;9&lt;/b&gt; (no plan)"));
	assert_null(strstr(list, "<script"));
	assert_null(strstr(list, "<b>"));
	free(list), free(html);
}

static void test_verdict_split(void **state)
{
	static const struct {
		const char *verdict;
		size_t letters;
		const char *note;
	} cases[] = {
		{ "PPHP", 4, NULL },
		{ "PPHP no usable cycle: will retry", 4, "no usable cycle: will retry" },
		{ "build failed: skipped", 0, "build failed: skipped" },
		{ "Pass", 0, "Pass" },      /* letters must be a word of their own */
		{ "IIII ", 4, NULL },
		{ "", 0, NULL },
		{ NULL, 0, NULL },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *note;
		size_t n;

		dash_verdict_split(cases[i].verdict, &n, &note);
		assert_int_equal(n, cases[i].letters);
		if (cases[i].note)
			assert_string_equal(note, cases[i].note);
		else
			assert_null(note);
	}
}

static void test_html_helpers(void **state)
{
	char buf[256], other[256], long_a[400], long_b[400];
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_non_null(f);
	html_text(f, "<a href=\"x\">&'</a>");
	html_raw(f, "|");
	html_url(f, "a b/<c>");
	html_raw(f, "|");
	html_num(f, 12.0), html_raw(f, ","), html_num(f, 12.46), html_raw(f, ","), html_num(f, -0.5);
	fclose(f);
	assert_string_equal(text, "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;|a%20b/%3Cc%3E|"
				  "12,12.5,-0.5");
	free(text);
	html_file_stem("../etc/passwd", buf, sizeof(buf));
	assert_null(strchr(buf, '/'));
	assert_true(buf[0] != '.');
	/* Distinct boards, distinct pages: "lab/a" and "lab_a" both were boards/lab_a.html. */
	html_file_stem("lab/a", buf, sizeof(buf));
	html_file_stem("lab_a", other, sizeof(other));
	assert_string_equal(buf, "lab_2fa");
	assert_string_equal(other, "lab_5fa");
	html_file_stem("qemu-1.x", buf, sizeof(buf));
	assert_string_equal(buf, "qemu-1.x");
	/* Names too long to fit differ by the hash of the whole name. */
	memset(long_a, 'a', sizeof(long_a) - 1);
	long_a[sizeof(long_a) - 1] = '\0';
	memcpy(long_b, long_a, sizeof(long_b));
	long_b[sizeof(long_b) - 2] = 'b';
	html_file_stem(long_a, buf, sizeof(buf));
	html_file_stem(long_b, other, sizeof(other));
	assert_true(strlen(buf) < sizeof(buf));
	assert_non_null(strchr(buf, '~'));
	assert_string_not_equal(buf, other);
	assert_int_equal(html_relative_link("/a/b/site/runs", "/a/b/logs/x.log", "/", buf,
					    sizeof(buf)), 0);
	assert_string_equal(buf, "../../logs/x.log");
	assert_int_equal(html_relative_link("/a/site/runs", "out/x.log", "/a", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "../../out/x.log");
}

static void test_cli(void **state)
{
	const struct fixture *fx = *state;
	char out_dir[256];
	char *missing[] = { "dashboard", "--db", "/nonexistent/results.db", "--out", out_dir, NULL };
	char *again[] = { "dashboard", "--db", (char *)fx->db, "--out", out_dir, "--nights", "2",
			  NULL };
	char *bad[] = { "dashboard", "--nights", "many", NULL };
	FILE *sink = fopen("/dev/null", "w");
	char *html;
	char path[300];

	assert_non_null(sink);
	snprintf(out_dir, sizeof(out_dir), "%s/cli-site", fx->dir);
	assert_int_equal(cmd_dashboard_to(5, missing, sink, sink), RIG_EXIT_USAGE);
	assert_int_equal(cmd_dashboard_to(3, bad, sink, sink), RIG_EXIT_USAGE);
	assert_int_equal(cmd_dashboard_to(7, again, sink, sink), RIG_EXIT_PASS);
	fclose(sink);
	snprintf(path, sizeof(path), "%s/index.html", out_dir);
	html = slurp(path);
	assert_non_null(html);
	/* --nights 2: two night columns per board. */
	assert_int_equal(count(html, "<td class=\"cell "), N_BOARDS * 2);
	free(html);
}

/* Every run says where it came from: rig, or the LAVA job linked to its page on the server; a
 * server URL from the database that is not http(s) is shown, never linked. */
static void test_run_source(void **state)
{
	const struct fixture *fx = *state;
	char dir[256], db_path[300], site[300], path[400];
	char *argv[] = { "dashboard", "--db", db_path, "--out", site, NULL };
	struct results_run_info info = { .board = "lava-board", .plan = "nightly",
					 .started_at = NIGHT0 };
	struct results_db *db;
	struct rig_err err = { 0 };
	FILE *sink = fopen("/dev/null", "w");
	int64_t run;
	char *index, *board;

	snprintf(dir, sizeof(dir), "%s/source", fx->dir);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(db_path, sizeof(db_path), "%s/results.db", dir);
	snprintf(site, sizeof(site), "%s/site", dir);
	assert_int_equal(results_open(db_path, RESULTS_OPEN_CREATE, &db, &err), 0);
	assert_int_equal(results_run_begin(db, &info, &run, &err), 0);
	assert_int_equal(results_run_end(db, run, RESULTS_RUN_PASS, 0, &err), 0);
	info.source = "lava", info.lava_job_id = "42", info.lava_server = "http://lava.example:8000";
	info.started_at = NIGHT0 + DAY;
	assert_int_equal(results_run_begin(db, &info, &run, &err), 0);
	assert_int_equal(results_run_end(db, run, RESULTS_RUN_FAIL, 1, &err), 0);
	info.lava_job_id = "43", info.lava_server = "javascript:alert(1)//";
	info.started_at = NIGHT0 + 2 * DAY;
	assert_int_equal(results_run_begin(db, &info, &run, &err), 0);
	assert_int_equal(results_run_end(db, run, RESULTS_RUN_PASS, 0, &err), 0);
	results_close(db);
	assert_non_null(sink);
	assert_int_equal(cmd_dashboard_to(5, argv, sink, sink), RIG_EXIT_PASS);
	fclose(sink);
	snprintf(path, sizeof(path), "%s/index.html", site);
	index = slurp(path);
	snprintf(path, sizeof(path), "%s/boards/lava-board.html", site);
	board = slurp(path);
	assert_non_null(index);
	assert_non_null(board);
	assert_non_null(strstr(index, "<a class=\"src-lava\" href=\"http://lava.example:8000/scheduler/"
				      "job/42\">LAVA job 42</a>"));
	assert_non_null(strstr(index, "<span class=\"src-lava\">LAVA job 43</span>"));
	assert_null(strstr(index, "href=\"javascript"));
	assert_non_null(strstr(board, "<th>source</th>"));
	assert_non_null(strstr(board, "<span class=\"src-rig\">rig</span>"));
	assert_non_null(strstr(board, "job/42\">LAVA job 42</a>"));
	assert_non_null(strstr(board, "<span class=\"src-lava\">LAVA job 43</span>"));
	free(index), free(board);
}

/* The benchmark's generator: the history it writes renders with the sizes asked for. */
static void test_synthetic_history(void **state)
{
	const struct fixture *fx = *state;
	struct dash_synth spec = { .runs = 7, .cycles = 3, .boards = 2 };
	struct rig_err err = { 0 };
	struct dash_stats stats;
	char db[256], site[256];
	struct dash_options opt = { .db_path = db, .out_dir = site, .nights = 0 };
	char *html;

	snprintf(db, sizeof(db), "%s/synth.db", fx->dir);
	snprintf(site, sizeof(site), "%s/synth-site", fx->dir);
	assert_int_equal(dash_synth_fill(db, &spec, &err), 0);
	assert_int_equal(dash_render(&opt, &stats, &err), 0);
	assert_int_equal(stats.runs, (size_t)spec.runs);
	assert_int_equal(stats.boards, (size_t)spec.boards);
	assert_int_equal(stats.cycles, (size_t)(spec.runs * spec.cycles));
	snprintf(db, sizeof(db), "%s/synth-site/index.html", fx->dir);
	html = slurp(db);
	assert_non_null(html);
	/* 7 runs over 2 boards: 4 nights, board-01 not run on the last. */
	assert_int_equal(count(html, "<td class=\"cell "), 2 * 4);
	assert_int_equal(count(html, "<td class=\"cell none\""), 1);
	free(html);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matrix_cells),
		cmocka_unit_test(test_regression_lines),
		cmocka_unit_test(test_board_page),
		cmocka_unit_test(test_run_page),
		cmocka_unit_test(test_hostile_text_escaped),
		cmocka_unit_test(test_board_bisects),
		cmocka_unit_test(test_bisect_page),
		cmocka_unit_test(test_bisect_edge_cases),
		cmocka_unit_test(test_index_bisects),
		cmocka_unit_test(test_verdict_split),
		cmocka_unit_test(test_links_resolve),
		cmocka_unit_test(test_html_helpers),
		cmocka_unit_test(test_cli),
		cmocka_unit_test(test_run_source),
		cmocka_unit_test(test_synthetic_history),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
